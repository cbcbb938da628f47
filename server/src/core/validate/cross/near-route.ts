// The route a broken link most likely meant: one whose pattern answers the link except for one
// static segment, and that segment is a typo of the link's (`typoDistance`). Comparing the link with
// every route cost O(links × routes) edit distances (40 s for 7,000 broken links among 5,000 pages),
// so routes are indexed once per version of the workspace's routes (`links.ts` keeps it) by their shape with one static segment left
// out (`/blog/{}` gives `0:4:·/{}` and nothing for the param); a link looks up, for each of its
// segments, the shapes it could take at the other positions (literal or `{}`), as
// `answeringRoutes` does. Rest routes are few and compared one by one.
import { editDistance, typoBound, typoDistance } from '../../../../../grammar/src/index.js';
import { PARAM_SHAPE } from '../../../../../shared/route/index.js';
import type { Registration } from '../../model/registrations.js';

/** Up to this many segments a link's shapes are enumerated (n · 2^(n-1) lookups); longer links get no suggestion. */
const MAX_SEGMENTS = 8;

export interface NearIndex {
  /**
   * `<METHOD> <hole position>:<length>:<shape with the hole>` → the registrations with a static
   * segment of that length there (and that segment in lower case), in global order.
   */
  holes: Map<string, Hole[]>;
  /** Registrations ending in a rest param, in global order. */
  rest: Registration[];
  /** Position of each registration in the global order, for ties. */
  rank: Map<Registration, number>;
  /** Answers already given, by `<METHOD> <href>`. */
  memo: Map<string, string | undefined>;
}

interface Hole {
  reg: Registration;
  lower: string;
}

const HOLE = '\u00b7';

/** The static segment left out is keyed by its length too: a typo changes it by at most two. */
function holeKey(method: string, at: number, length: number, parts: readonly string[]): string {
  return `${method} ${at}:${length}:/${parts.join('/')}`;
}

/** The index of `regs` (the workspace's registrations in global order: the first declared wins a tie). */
export function nearIndex(regs: readonly Registration[]): NearIndex {
  const index: NearIndex = { holes: new Map(), rest: [], rank: new Map(), memo: new Map() };
  regs.forEach((r, i) => {
    if (!r.route.valid) return;
    index.rank.set(r, i);
    const segs = r.route.segments;
    if (segs.length > 0 && segs[segs.length - 1].kind === 'rest') {
      index.rest.push(r);
      return;
    }
    if (segs.length > MAX_SEGMENTS) return;
    const parts = segs.map((s) => (s.kind === 'static' ? s.value : PARAM_SHAPE));
    for (let at = 0; at < segs.length; at++) {
      const s = segs[at];
      if (s.kind !== 'static') continue;
      const key = holeKey(
        r.method,
        at,
        s.value.length,
        parts.map((p, i) => (i === at ? HOLE : p)),
      );
      const hole = { reg: r, lower: s.value.toLowerCase() };
      const list = index.holes.get(key);
      if (list) list.push(hole);
      else index.holes.set(key, [hole]);
    }
  });
  return index;
}

/** Every way to write `segs` as a shape, position `at` left out: 2^(n-1) of them. */
function shapesAround(segs: readonly string[], at: number): string[][] {
  let out: string[][] = [[]];
  for (let i = 0; i < segs.length; i++) {
    const next: string[][] = [];
    for (const p of out) {
      if (i === at) next.push([...p, HOLE]);
      else next.push([...p, segs[i]], [...p, PARAM_SHAPE]);
    }
    out = next;
  }
  return out;
}

interface Candidate {
  reg: Registration;
  distance: number;
}

function better(a: Candidate | undefined, b: Candidate, rank: Map<Registration, number>): boolean {
  if (!a) return true;
  if (b.distance !== a.distance) return b.distance < a.distance;
  return (rank.get(b.reg) ?? 0) < (rank.get(a.reg) ?? 0);
}

/** The rest route whose static prefix is one typo away from the link's first segments. */
function nearRest(index: NearIndex, method: string, segs: readonly string[], best: Candidate | undefined) {
  for (const r of index.rest) {
    if (r.method !== method) continue;
    const prefix = r.route.segments.slice(0, -1);
    if (prefix.length > segs.length) continue;
    let miss: Candidate | undefined;
    let misses = 0;
    for (let i = 0; i < prefix.length && misses < 2; i++) {
      const s = prefix[i];
      if (s.kind !== 'static' || s.value === segs[i]) continue;
      misses++;
      const d = typoDistance(segs[i], s.value);
      if (d === undefined) misses = 2;
      else miss = { reg: r, distance: d };
    }
    if (misses === 1 && miss && better(best, miss, index.rank)) best = miss;
  }
  return best;
}

/** The pattern of the route closest to a link that no route answers (`segs`: its decoded segments). */
export function closestRoute(
  index: NearIndex,
  method: string,
  href: string,
  segs: readonly string[],
): string | undefined {
  const memoKey = `${method} ${href}`;
  if (index.memo.has(memoKey)) return index.memo.get(memoKey);
  let best: Candidate | undefined;
  if (segs.length <= MAX_SEGMENTS) {
    for (let at = 0; at < segs.length; at++) {
      const word = segs[at].toLowerCase();
      const bound = typoBound(word);
      for (const shape of shapesAround(segs, at)) {
        for (let length = Math.max(0, word.length - bound); length <= word.length + bound; length++) {
          for (const hole of index.holes.get(holeKey(method, at, length, shape)) ?? []) {
            const distance = editDistance(word, hole.lower, bound);
            if (distance > bound) continue;
            const c = { reg: hole.reg, distance };
            if (better(best, c, index.rank)) best = c;
          }
        }
      }
    }
  }
  best = nearRest(index, method, segs, best);
  const answer = best?.reg.route.pattern;
  index.memo.set(memoKey, answer);
  return answer;
}
