// The route a broken link most likely meant: one whose pattern answers the link except for one
// static segment, and that segment is a typo of the link's (`typoDistance`). Comparing the link with
// every route cost O(links × routes) edit distances (40 s for 7,000 broken links among 5,000 pages),
// so routes are indexed by their shape with one static segment left out (`/blog/{}` gives
// `0:4:·/{}` and nothing for the param); a link looks up, for each of its segments, the shapes it
// could take at the other positions (literal or `{}`), as `answeringRoutes` does. Rest routes are
// few and compared one by one.
//
// The index is kept per workspace and updated one `reg:` bucket at a time (`links.ts` tells it
// which buckets changed), so a keystroke in a route string re-indexes that route, not all of them.
import { editDistance, typoBound, typoDistance } from '../../../../../grammar/src/index.js';
import { PARAM_SHAPE } from '../../../../../shared/route/index.js';
import { compareRegistrations } from '../../model/entries.js';
import type { Registration } from '../../model/registrations.js';

/** Up to this many segments a link's shapes are enumerated (n · 2^(n-1) lookups); longer links get no suggestion. */
const MAX_SEGMENTS = 8;

interface Hole {
  reg: Registration;
  lower: string;
}

const HOLE = '\u00b7';

/** The static segment left out is keyed by its length too: a typo changes it by at most two. */
function holeKey(method: string, at: number, length: number, parts: readonly string[]): string {
  return `${method} ${at}:${length}:/${parts.join('/')}`;
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

/** The nearer candidate, then the first declared. */
function better(a: Candidate | undefined, b: Candidate): boolean {
  if (!a) return true;
  if (b.distance !== a.distance) return b.distance < a.distance;
  return compareRegistrations(b.reg, a.reg) < 0;
}

/** What one route registration put into the index, to take it out again. */
interface Indexed {
  holes: [string, Hole][];
  rest?: Registration;
}

export class NearRoutes {
  /**
   * `<METHOD> <hole position>:<length>:<shape with the hole>` → the registrations with a static
   * segment of that length there (and that segment in lower case).
   */
  // Arrays, not sets: a lookup walks hundreds of them per suggestion, and an edit removes few.
  private readonly holes = new Map<string, Hole[]>();
  /** Registrations ending in a rest param. */
  private readonly rest = new Set<Registration>();
  /** Per `reg:` bucket: what its registrations put in. */
  private readonly buckets = new Map<string, Indexed[]>();
  /** Answers given since the routes last changed, by `<METHOD> <href>`. */
  private memo = new Map<string, string | undefined>();

  /** Replaces the registrations of one `reg:` bucket (none: it is empty now). */
  set(regKey: string, regs: readonly Registration[]): void {
    for (const old of this.buckets.get(regKey) ?? []) {
      for (const [key, hole] of old.holes) {
        const list = this.holes.get(key);
        const at = list ? list.indexOf(hole) : -1;
        if (at >= 0) list!.splice(at, 1);
        if (list?.length === 0) this.holes.delete(key);
      }
      if (old.rest) this.rest.delete(old.rest);
    }
    this.memo = new Map();
    if (regs.length === 0) {
      this.buckets.delete(regKey);
      return;
    }
    this.buckets.set(
      regKey,
      regs.map((r) => this.add(r)),
    );
  }

  private add(r: Registration): Indexed {
    const out: Indexed = { holes: [] };
    const segs = r.route.segments;
    if (!r.route.valid) return out;
    if (segs.length > 0 && segs[segs.length - 1].kind === 'rest') {
      this.rest.add(r);
      out.rest = r;
      return out;
    }
    if (segs.length > MAX_SEGMENTS) return out;
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
      const list = this.holes.get(key);
      if (list) list.push(hole);
      else this.holes.set(key, [hole]);
      out.holes.push([key, hole]);
    }
    return out;
  }

  /** The pattern of the route closest to a link that no route answers (`segs`: its decoded segments). */
  closest(method: string, href: string, segs: readonly string[]): string | undefined {
    const memoKey = `${method} ${href}`;
    if (this.memo.has(memoKey)) return this.memo.get(memoKey);
    let best: Candidate | undefined;
    if (segs.length <= MAX_SEGMENTS) {
      for (let at = 0; at < segs.length; at++) {
        const word = segs[at].toLowerCase();
        const bound = typoBound(word);
        for (const shape of shapesAround(segs, at)) {
          for (let length = Math.max(0, word.length - bound); length <= word.length + bound; length++) {
            const holes = this.holes.get(holeKey(method, at, length, shape));
            if (holes === undefined) continue;
            for (let h = 0; h < holes.length; h++) {
              const hole = holes[h];
              // Only candidates as near as the best so far can win (ties go to the first declared).
              const max = best === undefined ? bound : best.distance;
              const distance = editDistance(word, hole.lower, max);
              if (distance > max) continue;
              const c = { reg: hole.reg, distance };
              if (better(best, c)) best = c;
            }
          }
        }
      }
    }
    best = this.nearRest(method, segs, best);
    const answer = best?.reg.route.pattern;
    this.memo.set(memoKey, answer);
    return answer;
  }

  /** The rest route whose static prefix is one typo away from the link's first segments. */
  private nearRest(method: string, segs: readonly string[], best: Candidate | undefined): Candidate | undefined {
    for (const r of this.rest) {
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
      if (misses === 1 && miss && better(best, miss)) best = miss;
    }
    return best;
  }
}
