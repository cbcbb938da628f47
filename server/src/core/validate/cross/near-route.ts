// The route a broken link most likely meant: one whose pattern answers the link except for one
// static segment, and that segment is a typo of the link's (`typoDistance`). Comparing the link with
// every route cost O(links × routes) edit distances (40 s for 7,000 broken links among 5,000 pages),
// so routes are indexed by their shape with one static segment left out (`/blog/{}` gives
// `0:·/{}`, length 4, and nothing for the param); a link looks up, for each of its segments, the
// shapes it could take at the other positions (literal or `{}`), as `answeringRoutes` does. Rest
// routes are few and compared one by one.
//
// The index is kept per workspace and updated one `reg:` bucket at a time (`links.ts` tells it
// which buckets changed), so a keystroke in a route string re-indexes that route, not all of them.
// A position of the routes of one method and length is indexed when a link first asks there.
import { editDistance, typoBound, typoDistance } from '#grammar/index.js';
import { PARAM_SHAPE } from '#shared/route/index.js';
import { compareRegistrations } from '../../model/entries.js';
import type { Registration } from '../../model/registrations.js';

/** Up to this many segments a link's shapes are enumerated (n · 2^(n-1) lookups); longer links get no suggestion. */
const MAX_SEGMENTS = 8;

interface Hole {
  reg: Registration;
  lower: string;
  /** `charMask(lower)`. */
  mask: number;
}

/**
 * Which of 32 classes of characters (by code point, modulo 32) `word` holds. An edit adds at most
 * one character and removes at most one, so it changes at most two classes: two words whose masks
 * differ in more than twice `max` classes are more than `max` edits apart, without an edit distance.
 */
function charMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) & 31);
  return mask;
}

/** How many bits of `x` are set. */
function bitCount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

const HOLE = '\u00b7';

function holeKey(method: string, at: number, parts: readonly string[]): string {
  return `${method} ${at}:/${parts.join('/')}`;
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
  reg: Registration;
  /** The group of its method and segment count (absent: a rest, invalid or too long route). */
  group?: Group;
  holes: [string, Hole][];
  rest: boolean;
}

/**
 * The routes of one method and segment count, indexed at a hole position only once a link asks
 * there: a site's links are mostly short, its routes longer, and most positions are never asked.
 */
interface Group {
  members: Set<Indexed>;
  /** The positions whose holes are in the index. */
  built: Set<number>;
}

export class NearRoutes {
  /**
   * `<METHOD> <hole position>:<shape with the hole>` → by length of the static segment there (in
   * lower case: a typo changes it by at most two), the registrations with such a segment there.
   */
  // Arrays, not sets: a lookup walks hundreds of them per suggestion, and an edit removes few.
  private readonly holes = new Map<string, Map<number, Hole[]>>();
  /** Lists of `holes` changed since they were last put in declaration order (`inOrder`). */
  private readonly unordered = new Set<Hole[]>();
  /** By `<METHOD> <segment count>`. */
  private readonly groups = new Map<string, Group>();
  /** Registrations ending in a rest param. */
  private readonly rest = new Set<Registration>();
  /** Per `reg:` bucket: what its registrations put in. */
  private readonly buckets = new Map<string, Indexed[]>();
  /** Answers given since the routes last changed, by `<METHOD> <href>`. */
  private memo = new Map<string, string | undefined>();

  /** Replaces the registrations of one `reg:` bucket (none: it is empty now). */
  set(regKey: string, regs: readonly Registration[]): void {
    for (const old of this.buckets.get(regKey) ?? []) this.remove(old);
    // The first load sets every `reg:` bucket one by one, before any answer is remembered.
    if (this.memo.size > 0) this.memo = new Map();
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
    const out: Indexed = { reg: r, group: undefined, holes: [], rest: false };
    const segs = r.route.segments;
    if (!r.route.valid) return out;
    if (segs.length > 0 && segs[segs.length - 1].kind === 'rest') {
      this.rest.add(r);
      out.rest = true;
      return out;
    }
    if (segs.length > MAX_SEGMENTS) return out;
    const groupKey = `${r.method} ${segs.length}`;
    let group = this.groups.get(groupKey);
    if (!group) this.groups.set(groupKey, (group = { members: new Set(), built: new Set() }));
    group.members.add(out);
    out.group = group;
    for (const at of group.built) this.indexHole(out, at);
    return out;
  }

  private remove(x: Indexed): void {
    for (const [key, hole] of x.holes) {
      const byLength = this.holes.get(key);
      const list = byLength?.get(hole.lower.length);
      if (!byLength || !list) continue;
      const at = list.indexOf(hole);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) byLength.delete(hole.lower.length);
      if (byLength.size === 0) this.holes.delete(key);
    }
    if (x.rest) this.rest.delete(x.reg);
    x.group?.members.delete(x);
  }

  /** Puts the hole of `x` at position `at` into the index, if its segment there is static. */
  private indexHole(x: Indexed, at: number): void {
    const segs = x.reg.route.segments;
    const s = segs[at];
    if (s.kind !== 'static') return;
    const parts = segs.map((g, i) => (i === at ? HOLE : g.kind === 'static' ? g.value : PARAM_SHAPE));
    // Listed by the length compared (lower case can change a length): every hole of a list has it.
    const lower = s.value.toLowerCase();
    const hole = { reg: x.reg, lower, mask: charMask(lower) };
    const key = holeKey(x.reg.method, at, parts);
    let byLength = this.holes.get(key);
    if (!byLength) this.holes.set(key, (byLength = new Map()));
    let list = byLength.get(hole.lower.length);
    if (list) list.push(hole);
    else byLength.set(hole.lower.length, (list = [hole]));
    this.unordered.add(list);
    x.holes.push([key, hole]);
  }

  /** Indexes the holes at `at` of the routes of `method` with `length` segments, the first time they are asked for. */
  private build(method: string, length: number, at: number): void {
    const group = this.groups.get(`${method} ${length}`);
    if (!group || group.built.has(at)) return;
    group.built.add(at);
    for (const x of group.members) this.indexHole(x, at);
  }

  /** The pattern of the route closest to a link that no route answers (`segs`: its decoded segments). */
  closest(method: string, href: string, segs: readonly string[]): string | undefined {
    const memoKey = `${method} ${href}`;
    if (this.memo.has(memoKey)) return this.memo.get(memoKey);
    let best: Candidate | undefined;
    if (segs.length <= MAX_SEGMENTS) {
      for (let at = 0; at < segs.length; at++) {
        this.build(method, segs.length, at);
        const word = segs[at].toLowerCase();
        const bound = typoBound(word);
        for (const shape of shapesAround(segs, at)) {
          const byLength = this.holes.get(holeKey(method, at, shape));
          if (byLength === undefined) continue;
          for (let length = Math.max(0, word.length - bound); length <= word.length + bound; length++) {
            const holes = byLength.get(length);
            if (holes !== undefined) best = this.nearestIn(this.inOrder(holes), word, bound, best);
          }
        }
      }
    }
    best = this.nearRest(method, segs, best);
    const answer = best?.reg.route.pattern;
    this.memo.set(memoKey, answer);
    return answer;
  }

  /** `holes` in declaration order: the first of them at a distance is the one a tie goes to. */
  private inOrder(holes: Hole[]): Hole[] {
    if (this.unordered.delete(holes)) holes.sort((a, b) => compareRegistrations(a.reg, b.reg));
    return holes;
  }

  /**
   * The nearer of `best` and the nearest of `holes` (static segments of one length, in declaration
   * order) to `word`. No hole can be nearer than the difference of the lengths, nor nearer than one
   * unless it is the word itself: the walk ends at the first hole that near, which saves most of a
   * long list's edit distances.
   */
  private nearestIn(holes: Hole[], word: string, bound: number, best: Candidate | undefined): Candidate | undefined {
    const length = holes[0].lower.length;
    let floor = Math.abs(length - word.length);
    if (floor === 0) {
      const same = holes.find((h) => h.lower === word);
      if (same) return better(best, { reg: same.reg, distance: 0 }) ? { reg: same.reg, distance: 0 } : best;
      floor = 1;
    }
    const mask = charMask(word);
    for (let h = 0; h < holes.length; h++) {
      const hole = holes[h];
      // Only candidates as near as the best so far can win (ties go to the first declared), and
      // only typos of this word: the best may be a longer word's, which allows more edits.
      const max = best === undefined ? bound : Math.min(bound, best.distance);
      if (max < floor) break;
      if (bitCount(mask ^ hole.mask) > 2 * max) continue;
      const distance = editDistance(word, hole.lower, max);
      if (distance > max) continue;
      const c = { reg: hole.reg, distance };
      if (better(best, c)) best = c;
      if (distance === floor) break;
    }
    return best;
  }

  /** The rest route whose static prefix is one typo away from the link's first segments. */
  private nearRest(method: string, segs: readonly string[], best: Candidate | undefined): Candidate | undefined {
    for (const r of this.rest) {
      if (r.method !== method) continue;
      // The segments before the rest param (not sliced off: this runs per rest route per broken link).
      const prefix = r.route.segments;
      const length = prefix.length - 1;
      if (length > segs.length) continue;
      let miss: Candidate | undefined;
      let misses = 0;
      for (let i = 0; i < length && misses < 2; i++) {
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
