import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  checkRequestTarget,
  compileRouter,
  concretePath,
  matchRoute,
  parseRoutePattern,
  routesOverlap,
} from '#shared/route/index.js';
import type { RequestPathResult } from '#shared/route/index.js';

const RUNS = { numRuns: 400 };
// Any UTF-16 code unit, lone surrogates included (fast to generate, unlike unit: 'binary').
const anyString = fc.string({ unit: fc.nat({ max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 });

const patternToken = fc.constantFrom(
  '/',
  '/',
  '/',
  '{',
  '}',
  'a',
  'b',
  'id',
  '...',
  '..',
  '.',
  ':',
  'int',
  'uuid',
  '?',
  '#',
  ' ',
  '\\',
  '\t',
  '\u{1F600}',
  '%2e',
);
const patternish = fc.array(patternToken, { maxLength: 16 }).map((t) => t.join(''));

const targetToken = fc.constantFrom(
  '/',
  '/',
  '/',
  'a',
  'b',
  '.',
  '..',
  '...',
  '%2e',
  '%2E',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '%00',
  '%0a',
  '%c0%ae',
  '%c0',
  '%ae',
  '%252e',
  '%25',
  '\\',
  '?',
  '#',
  '%',
  '%4',
  '%zz',
  ' ',
  '%20',
  ';',
  '%ef%bc%8e',
  '%e2%80%ae',
  '\u00e9',
  '%C3%A9',
  '\u0000',
  '..;',
  '~',
  '@fs',
);
const targetish = fc.array(targetToken, { maxLength: 14 }).map((t) => t.join(''));

function assertSafe(r: RequestPathResult): void {
  if (!r.ok) {
    assert.ok(r.status === 400 || r.status === 404);
    return;
  }
  assert.ok(r.path.startsWith('/'));
  assert.ok(!r.path.includes('//') && !r.path.includes('\\') && !r.path.includes('\u0000'));
  assert.equal(r.path, '/' + r.segments.join('/'));
  for (const s of r.segments) assert.ok(s !== '' && !/^[. ]+$/.test(s) && !s.includes('/'), JSON.stringify(s));
}

describe('shared/route properties (fast-check)', () => {
  it('parseRoutePattern never throws and its spans lie inside the pattern', () => {
    fc.assert(
      fc.property(fc.oneof(anyString, patternish), (p) => {
        const r = parseRoutePattern(p);
        assert.equal(r.pattern, p);
        assert.equal(r.valid, r.issues.length === 0);
        const inside = (s: { start: number; end: number }) => s.start >= 0 && s.start <= s.end && s.end <= p.length;
        for (const i of r.issues) assert.ok(inside(i.span), JSON.stringify(i));
        for (const s of r.segments) {
          assert.ok(inside(s.span));
          if (s.kind !== 'static') {
            assert.ok(inside(s.nameSpan));
            assert.equal(p.slice(s.nameSpan.start, s.nameSpan.end), s.name);
          }
          if (s.kind === 'param' && s.typeSpan) assert.ok(inside(s.typeSpan));
        }
      }),
      RUNS,
    );
  });

  it('checkRequestTarget never throws and accepted paths are always safe', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyString,
          anyString.map((s) => '/' + s),
          targetish.map((s) => '/' + s),
        ),
        (t) => {
          assertSafe(checkRequestTarget(t));
        },
      ),
      { numRuns: 2000 },
    );
  });

  const valueArb = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 });
  it('concretePath round-trips through checkRequestTarget and matchRoute', () => {
    const route = parseRoutePattern('/x/{a}/{b:int}/y/{rest...}');
    fc.assert(
      fc.property(valueArb, valueArb, fc.array(valueArb, { minLength: 1, maxLength: 3 }), (a, b, restParts) => {
        const values = { a, b, rest: restParts.join('/') };
        const path = concretePath(route, values);
        if (path === undefined) return; // a value that cannot be served (dots, separators, controls)
        const t = checkRequestTarget(path);
        assert.ok(t.ok, path);
        if (t.ok) assert.deepEqual(matchRoute(route, t.segments), values);
      }),
      RUNS,
    );
  });

  // The compiled router must agree with the one-pattern matcher: whatever it returns matches, and
  // it returns something whenever some route of that method matches.
  const segArb = fc.constantFrom('a', 'b', '1', 'true', '{x}', '{y:int}', '{z:bool}', '{r...}');
  const routeArb = fc.array(segArb, { minLength: 0, maxLength: 3 }).map((segs) => {
    const seen = new Set<string>();
    const out = segs
      .filter((s, i) => (s === '{r...}' ? i === segs.length - 1 : true))
      .map((s) => {
        const name = s.startsWith('{') ? s.slice(1).split(/[:.}]/)[0] : '';
        if (!name) return s;
        let n = name;
        while (seen.has(n)) n += '_';
        seen.add(n);
        return s.replace(name, n);
      });
    return '/' + out.join('/');
  });
  const reqArb = fc.array(fc.constantFrom('a', 'b', '1', '2', 'true', 'x'), { maxLength: 4 });
  it('compileRouter agrees with matchRoute on random route sets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('GET', 'POST'), routeArb), { maxLength: 8 }),
        fc.array(reqArb, { minLength: 1, maxLength: 6 }),
        (defs, requests) => {
          const { router, errors } = compileRouter(
            defs.map(([method, pattern]) => ({ method, pattern, value: pattern })),
          );
          const kept = defs.filter((_, i) => !errors.some((e) => e.index === i));
          for (const segs of requests) {
            for (const method of ['GET', 'POST']) {
              const m = router.lookup(method, segs);
              const candidates = kept.filter(([mm, p]) => mm === method && matchRoute(parseRoutePattern(p), segs));
              if (m === undefined) assert.equal(candidates.length, 0, `missed ${method} /${segs.join('/')}`);
              else {
                assert.ok(candidates.some(([, p]) => p === m.value));
                assert.deepEqual(m.params, matchRoute(m.route, segs));
              }
            }
          }
        },
      ),
      RUNS,
    );
  });

  it('routesOverlap is symmetric and true whenever one request matches both routes', () => {
    fc.assert(
      fc.property(routeArb, routeArb, fc.array(reqArb, { minLength: 1, maxLength: 8 }), (pa, pb, requests) => {
        const a = parseRoutePattern(pa);
        const b = parseRoutePattern(pb);
        assert.equal(routesOverlap(a, b), routesOverlap(b, a));
        for (const segs of requests) {
          if (matchRoute(a, segs) && matchRoute(b, segs))
            assert.equal(routesOverlap(a, b), true, `${pa} ${pb} /${segs.join('/')}`);
        }
      }),
      RUNS,
    );
  });
});
