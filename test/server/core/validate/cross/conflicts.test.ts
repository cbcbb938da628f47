// `ambiguous_dynamic_route` pairs each registration only with the earlier ones that could overlap it
// (same length, or a rest route): the same diagnostics, in the same order, as every pair.
import { strict as assert } from 'node:assert';
import { ambiguousOverlap } from '../../../../../shared/route/index.js';
import { ambiguities, ambiguityBucket } from '../../../../../server/src/core/validate/cross/conflicts.js';
import { parsedRoute } from '../../../../../server/src/core/model/route-cache.js';
import { compareRegistrations, type WorkspaceView } from '../../../../../server/src/core/model/entries.js';
import type { Registration } from '../../../../../server/src/core/model/registrations.js';

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

function registrations(seed: number, n: number): Registration[] {
  const next = random(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  const out: Registration[] = [];
  for (let i = 0; i < n; i++) {
    const length = 1 + Math.floor(next() * 3);
    const segs = ['a'];
    for (let k = 1; k < length; k++) segs.push(pick(['x', 'y', '{id}', '{slug}']));
    if (next() < 0.15) segs.push('{rest...}');
    const page = next() < 0.6;
    out.push({
      kind: page ? 'page' : 'api',
      source: 'kit',
      method: page ? 'GET' : pick(['GET', 'POST']),
      route: parsedRoute('/' + segs.join('/')),
      owner: `${page ? 'page' : 'api'} p${i}`,
      file: `site/p${String(i).padStart(3, '0')}.kit`,
      range: { start: { offset: 0, line: 1, column: 1 }, end: { offset: 1, line: 1, column: 2 } },
      order: 0,
    });
  }
  return out.sort(compareRegistrations);
}

function view(regs: Registration[]): WorkspaceView {
  return {
    registrationsIn: (key) => regs.filter((r) => ambiguityBucket(r) === key),
    allRegistrations: () => regs,
    kitMembers: () => [],
    moduleMembers: () => [],
    kit: () => undefined,
    allKit: () => [],
  };
}

describe('ambiguities (ambiguous_dynamic_route)', () => {
  it('finds the same pairs in the same order as comparing every pair', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const regs = registrations(seed, 60);
      const inBucket = regs.filter((r) => ambiguityBucket(r) === 'amb:a');
      const expected: string[] = [];
      for (let i = 0; i < inBucket.length; i++)
        for (let j = 0; j < i; j++) {
          const [cur, prev] = [inBucket[i], inBucket[j]];
          const owner = (r: Registration) => ({ route: r.route, method: r.method, page: r.kind === 'page' });
          if (ambiguousOverlap(owner(cur), owner(prev))) expected.push(`${cur.owner} × ${prev.owner}`);
        }
      const got = ambiguities(view(regs), 'amb:a').map((d) => {
        const m = /; (.*) could match the same request path as (.*) \(/.exec(d.message);
        return `${m?.[1]} × ${m?.[2]}`;
      });
      assert.deepEqual(got, expected, `seed ${seed}`);
      assert.ok(seed > 1 || expected.length > 0, 'the generator makes ambiguous pairs');
    }
  });
});
