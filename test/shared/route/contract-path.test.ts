import { strict as assert } from 'node:assert';
import {
  checkRequestTarget,
  concretePath,
  matchRoute,
  parseRoutePattern,
  validateContractPath,
} from '#shared/route/index.js';

describe('shared/route validateContractPath (2.5 #62-#65)', () => {
  it('#63 accepts local absolute concrete paths', () => {
    for (const p of ['/', '/patients', '/patients/list']) assert.deepEqual(validateContractPath(p), [], p);
  });

  it('#64 rejects everything else', () => {
    const bad = [
      '',
      'patients',
      '//example.com/pay',
      '/\\example.com/pay',
      'https://example.com/pay',
      '/https://example.com/pay',
      '/patients?x=1',
      '/patients#x',
      '/patients/{id}',
      '/a\nb',
      '/a\\b',
      '/a/../b',
      '/a//b',
      '/a/./b',
      '/patients/',
      ' /patients',
    ];
    for (const p of bad) assert.ok(validateContractPath(p).length > 0, JSON.stringify(p));
  });

  it('#62 names non-local targets', () => {
    for (const p of ['https://example.com/pay', '//example.com/pay', '/\\example.com/pay', 'mailto:x@example.com']) {
      const issues = validateContractPath(p);
      assert.equal(issues[0].kind, 'not_local', p);
      assert.equal(issues[0].message, `endpoint path ${JSON.stringify(p)} must be a local absolute path`);
      assert.ok(!issues.some((i) => i.kind === 'leading_slash'), 'one message for one problem');
    }
  });

  it('concrete mode points at the param', () => {
    const issues = validateContractPath('/patients/{id}');
    assert.deepEqual(
      issues.map((i) => [i.kind, i.span, i.param]),
      [['not_concrete', { start: 10, end: 14 }, 'id']],
    );
    assert.equal(
      issues[0].message,
      'endpoint path "/patients/{id}" must be a concrete path; route parameter {id} is not allowed here',
    );
  });

  it('#65 pattern mode accepts params and a final rest', () => {
    for (const p of ['/patients/{id}', '/patients/{id:int}', '/docs/{path...}'])
      assert.deepEqual(validateContractPath(p, { pattern: true }), [], p);
  });

  it('#65 pattern mode rejects the pattern mistakes', () => {
    const cases: [string, string][] = [
      ['/patients/{id:uuid}', 'param_type'],
      ['/a/{id}/{id}', 'duplicate_param'],
      ['/docs/{p...}/x', 'rest_not_last'],
      ['/docs/{p...:int}', 'rest_typed'],
      ['/docs/{id?}', 'optional'],
      ['/patients/{id', 'param_segment'],
      ['/patients/', 'trailing_slash'],
      ['/a//b', 'empty_segment'],
      ['/a/../b', 'dot_segment'],
    ];
    for (const [p, kind] of cases)
      assert.deepEqual(
        validateContractPath(p, { pattern: true }).map((i) => i.kind),
        [kind],
        p,
      );
  });
});

describe('shared/route concretePath', () => {
  const r = parseRoutePattern('/blog/{slug}/{id:int}/{rest...}');
  it('fills params and percent-encodes each segment', () => {
    assert.equal(concretePath(r, { slug: 'hello world', id: '42', rest: 'a/b c' }), '/blog/hello%20world/42/a/b%20c');
    assert.equal(concretePath(parseRoutePattern('/u/{who}'), { who: 'ann@example.com:1' }), '/u/ann@example.com:1');
    assert.equal(concretePath(parseRoutePattern('/u/{who}'), { who: 'caf\u00e9?#%' }), '/u/caf%C3%A9%3F%23%25');
    assert.equal(concretePath(parseRoutePattern('/'), {}), '/');
    assert.equal(concretePath(parseRoutePattern('/about'), {}), '/about');
    assert.equal(concretePath(parseRoutePattern('/caf\u00e9'), {}), '/caf%C3%A9');
  });
  it('accepts a Map', () => {
    assert.equal(concretePath(parseRoutePattern('/p/{x}'), new Map([['x', '1']])), '/p/1');
  });
  it('is undefined when a value is missing or could not round-trip', () => {
    const p = parseRoutePattern('/p/{x}');
    for (const x of ['', '.', '..', '...', 'a/b', 'a\\b', 'a\u0000', 'a\nb', '\ud800'])
      assert.equal(concretePath(p, { x }), undefined, JSON.stringify(x));
    assert.equal(concretePath(p, {}), undefined);
    assert.equal(
      concretePath(parseRoutePattern('/p/{constructor}'), {}),
      undefined,
      'inherited properties are not values',
    );
    assert.equal(concretePath(parseRoutePattern('/d/{rest...}'), { rest: 'a//b' }), undefined);
    assert.equal(concretePath(parseRoutePattern('/d/{rest...}'), { rest: 'a/../b' }), undefined);
    assert.equal(concretePath(parseRoutePattern('/d/{slug?}'), { slug: 'x' }), undefined, 'invalid route');
  });
  it('round-trips through checkRequestTarget and matchRoute', () => {
    const values = { slug: "it's 100% \u{1F600}", id: '-7', rest: 'x y/z+w/\u00e9' };
    const path = concretePath(r, values);
    assert.ok(path);
    const t = checkRequestTarget(path);
    assert.ok(t.ok);
    if (t.ok) assert.deepEqual(matchRoute(r, t.segments), values);
  });
});
