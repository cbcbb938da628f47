// `ambiguous_dynamic_route` pairs each registration only with the earlier ones that could overlap it
// (same length, or a rest route): the same diagnostics, in the same order, as every pair.
import { strict as assert } from 'node:assert';
import { ambiguousOverlap } from '#shared/route/index.js';
import { ambiguities, ambiguityBucket } from '#core/validate/cross/conflicts.js';
import { parsedRoute } from '#core/model/route-cache.js';
import { compareRegistrations, type WorkspaceView } from '#core/model/entries.js';
import type { Registration } from '#core/model/registrations.js';

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

function registrations(seed: number, n: number, firsts = ['a']): Registration[] {
  const next = random(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  const out: Registration[] = [];
  for (let i = 0; i < n; i++) {
    const length = 1 + Math.floor(next() * 3);
    const segs = [pick(firsts)];
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

const owner = (r: Registration) => ({ route: r.route, method: r.method, page: r.kind === 'page' });

/** Every pair of the bucket compared, in the order the rule reports them. */
function everyPair(regs: Registration[], key: string): string[] {
  const inBucket = regs.filter((r) => ambiguityBucket(r) === key);
  const expected: string[] = [];
  for (let i = 0; i < inBucket.length; i++)
    for (let j = 0; j < i; j++) {
      const [cur, prev] = [inBucket[i], inBucket[j]];
      if (ambiguousOverlap(owner(cur), owner(prev))) expected.push(`${cur.owner} × ${prev.owner}`);
    }
  if (key !== 'amb:*') return expected;
  // A leading param overlaps every other bucket: each of its routes against all the others.
  for (const star of inBucket)
    for (const other of regs.filter((r) => ambiguityBucket(r) !== key)) {
      if (!ambiguousOverlap(owner(star), owner(other))) continue;
      const [prev, cur] = compareRegistrations(star, other) < 0 ? [star, other] : [other, star];
      expected.push(`${cur.owner} × ${prev.owner}`);
    }
  return expected;
}

function reported(regs: Registration[], key: string): string[] {
  return ambiguities(view(regs), key).map((d) => {
    const m = /; (.*) could match the same request path as (.*) \(/.exec(d.message);
    return `${m?.[1]} × ${m?.[2]}`;
  });
}

describe('ambiguities (ambiguous_dynamic_route)', () => {
  it('finds the same pairs in the same order as comparing every pair', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const regs = registrations(seed, 60);
      const expected = everyPair(regs, 'amb:a');
      assert.deepEqual(reported(regs, 'amb:a'), expected, `seed ${seed}`);
      assert.ok(seed > 1 || expected.length > 0, 'the generator makes ambiguous pairs');
    }
  });

  it('pairs routes with a leading param with every bucket, as comparing every pair does', () => {
    let found = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const regs = registrations(seed, 60, ['a', 'b', '{p}']);
      for (const key of ['amb:a', 'amb:b', 'amb:*']) {
        const expected = everyPair(regs, key);
        assert.deepEqual(reported(regs, key), expected, `seed ${seed}, ${key}`);
        if (key === 'amb:*') found += expected.length;
      }
    }
    assert.ok(found > 0, 'the generator makes pairs across buckets');
  });
});
