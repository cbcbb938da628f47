// The server's check of an HTML `pattern` attribute, in time linear in the value. A backtracking
// engine (RegExp) takes time exponential in the value on patterns such as `(a+)+b`, and a form
// field is text anyone can send, so the app never runs an author's pattern through one. The pattern
// is read into a tree (`pattern-syntax.ts`) and compiled into a Thompson automaton that is run as a
// set of states, one step per code point: `^(?:p)$` accepts a value exactly when some path of the
// automaton reads it, and the number of states bounds each step, so a value of n code points costs
// at most n × states steps whatever it holds. Laziness and the order of alternatives change which
// match a backtracker finds, never whether there is one, so membership is all that is computed.
// A lookaround does not fit one forward pass: each is evaluated before the main run for every
// position of the value at once, inner ones first, by running its body over the whole value (a
// lookahead backwards, starting anew at every position, a lookbehind forwards the same way), so it
// too costs one linear pass. `kit check` compiles every pattern with this module and reports what
// it cannot run; the app refuses to start with such a pattern rather than fall back to RegExp.
import { parsePattern, UnsupportedPattern, type CharPiece, type PatternNode } from './pattern-syntax.js';

/**
 * States one automaton may have. A step costs up to one visit per state, so this bounds the cost of
 * a code point; it admits counted repetitions such as `[a-z0-9._-]{1,64}@[a-z0-9.-]{1,255}`.
 */
export const MAX_PATTERN_STATES = 4096;

export type PatternCheck =
  | { ok: true; pattern: LinearPattern }
  /** `invalid`: RegExp refuses it (browsers ignore it); `unsupported`: valid, but not linear. */
  | { ok: false; problem: 'invalid' | 'unsupported'; message: string };

/** Compiles `source` as browsers compile `pattern` (anchored, `v` flag) into a linear matcher. */
export function compilePattern(source: string): PatternCheck {
  try {
    new RegExp(`^(?:${source})$`, 'v');
  } catch (e) {
    const text = (e as Error).message;
    // V8 says "Invalid regular expression: /<source>/v: <reason>"; the source is known already.
    const reason = text.slice(text.lastIndexOf(': ') + 2) || text;
    return { ok: false, problem: 'invalid', message: reason };
  }
  try {
    return { ok: true, pattern: new LinearPattern(source) };
  } catch (e) {
    if (e instanceof UnsupportedPattern) return { ok: false, problem: 'unsupported', message: e.message };
    throw e;
  }
}

/** The value as code points, with each one's offset in the string (the text native pieces test). */
interface Input {
  text: string;
  cps: Int32Array;
  /** `off[i]` is the string offset of code point i; `off[n]` the string's length. */
  off: Int32Array;
  n: number;
}

function toInput(text: string): Input {
  const cps = new Int32Array(text.length);
  const off = new Int32Array(text.length + 1);
  let n = 0;
  for (let i = 0; i < text.length; n++) {
    const cp = text.codePointAt(i)!;
    cps[n] = cp;
    off[n] = i;
    i += cp > 0xffff ? 2 : 1;
  }
  off[n] = text.length;
  return { text, cps, off, n };
}

/** A compiled character piece. */
interface Matcher {
  /** The most code points one match spans. */
  maxLen: number;
  /** Whether it matches the one code point `cp`. */
  one(cp: number): boolean;
  /** Whether it matches exactly code points [from, to) of the input (more than one). */
  many(input: Input, from: number, to: number): boolean;
}

const LINE_TERMINATORS = new Set([0x0a, 0x0d, 0x2028, 0x2029]);
const CACHE_LIMIT = 4096;
const never = (): boolean => false;

function matcherOf(piece: CharPiece): Matcher {
  if (piece.k === 'cp') {
    const cp = piece.cp;
    return { maxLen: 1, one: (c) => c === cp, many: never };
  }
  if (piece.k === 'dot') return { maxLen: 1, one: (c) => !LINE_TERMINATORS.has(c), many: never };
  // The platform decides what an escape or class matches, on text no longer than `maxLen` code
  // points, so each test is bounded; single code points are remembered (ASCII in a table).
  const re = new RegExp(`^(?:${piece.source})$`, 'v');
  const ascii = new Int8Array(128);
  const seen = new Map<number, boolean>();
  const one = (cp: number): boolean => {
    if (cp < 128) {
      const known = ascii[cp];
      if (known !== 0) return known > 0;
      const hit = re.test(String.fromCharCode(cp));
      ascii[cp] = hit ? 1 : -1;
      return hit;
    }
    let hit = seen.get(cp);
    if (hit === undefined) {
      hit = re.test(String.fromCodePoint(cp));
      if (seen.size < CACHE_LIMIT) seen.set(cp, hit);
    }
    return hit;
  };
  return {
    maxLen: piece.maxLen,
    one,
    many: (inp, from, to) => re.test(inp.text.slice(inp.off[from], inp.off[to])),
  };
}

// State kinds, in `Automaton.kind`.
const MATCH = 0;
const CHAR = 1;
const SPLIT = 2;
const ASSERT = 3;
const LOOK = 4;
const ASSERTIONS = ['^', '$', 'b', 'B'] as const;

/**
 * A Thompson automaton read in one direction (backwards for a lookahead's body), held in arrays:
 * each state's kind, its next state, and what it needs (a matcher, the outs of a split, the index
 * of an assertion or lookaround). State 0 is the match.
 */
class Automaton {
  kind: number[] = [MATCH];
  out: number[] = [-1];
  aux: number[] = [0];
  matcher: (Matcher | undefined)[] = [undefined];
  outs: (number[] | undefined)[] = [undefined];
  readonly start: number;
  maxLen = 1;

  constructor(
    root: PatternNode,
    readonly forward: boolean,
    private readonly matchers: Map<CharPiece, Matcher>,
  ) {
    this.start = this.build(root, 0);
  }

  get size(): number {
    return this.kind.length;
  }

  private add(kind: number, out: number, aux = 0, m?: Matcher, outs?: number[]): number {
    if (this.kind.length >= MAX_PATTERN_STATES)
      throw new UnsupportedPattern(`more than ${MAX_PATTERN_STATES} states (a counted repetition too large)`, 0);
    this.kind.push(kind);
    this.out.push(out);
    this.aux.push(aux);
    this.matcher.push(m);
    this.outs.push(outs);
    return this.kind.length - 1;
  }

  /** The entry state of `node`, continuing to state `next` (built back to front). */
  private build(node: PatternNode, next: number): number {
    switch (node.k) {
      case 'empty':
        return next;
      case 'char': {
        let m = this.matchers.get(node.piece);
        if (m === undefined) this.matchers.set(node.piece, (m = matcherOf(node.piece)));
        this.maxLen = Math.max(this.maxLen, m.maxLen);
        const entry = this.add(CHAR, next, 0, m);
        // A class that matches '' (`[\q{}]`) may also be passed over.
        return node.piece.k === 'native' && node.piece.empty ? this.add(SPLIT, -1, 0, undefined, [entry, next]) : entry;
      }
      case 'seq': {
        let e = next;
        const items = node.items;
        if (this.forward) for (let i = items.length - 1; i >= 0; i--) e = this.build(items[i], e);
        else for (const item of items) e = this.build(item, e);
        return e;
      }
      case 'alt':
        return this.add(
          SPLIT,
          -1,
          0,
          undefined,
          node.items.map((item) => this.build(item, next)),
        );
      case 'assert':
        return this.add(ASSERT, next, ASSERTIONS.indexOf(node.kind));
      case 'look':
        return this.add(LOOK, next, node.id);
      case 'rep':
        return this.repeat(node.body, node.min, node.max, next);
    }
  }

  /** `body{min,max}`: `min` copies, then a loop or `max - min` nested optional copies. */
  private repeat(body: PatternNode, min: number, max: number, next: number): number {
    if (min > MAX_PATTERN_STATES || (max !== Infinity && max > MAX_PATTERN_STATES))
      throw new UnsupportedPattern(`a repetition count above ${MAX_PATTERN_STATES}`, 0);
    let e: number;
    if (max === Infinity) {
      const outs: number[] = [];
      const loop = this.add(SPLIT, -1, 0, undefined, outs);
      outs.push(this.build(body, loop), next);
      e = loop;
    } else {
      e = next;
      for (let i = min; i < max; i++) e = this.add(SPLIT, -1, 0, undefined, [this.build(body, e), next]);
    }
    for (let i = 0; i < min; i++) e = this.build(body, e);
    return e;
  }
}

/** `\b` word characters in unicode mode without `i`: [A-Za-z0-9_]. */
function isWord(cp: number): boolean {
  return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x30 && cp <= 0x39) || cp === 0x5f;
}

/**
 * Steps one check may take (a state visited or a piece tested). Linear time still grows with the
 * pattern's states: a value of a megabyte against `.{0,2000}x` would take billions of steps. A
 * check that runs out of steps is a mismatch, so no value costs the app more than this.
 */
export const MATCH_STEP_BUDGET = 20_000_000;

/** Thrown by `run` when the budget is spent. */
const SPENT = new Error('pattern check over budget');

/** A pattern compiled for linear-time matching (build it through `compilePattern`). */
export class LinearPattern {
  private readonly main: Automaton;
  /** Each lookaround's body, in evaluation order (inner first), and its direction and sign. */
  private readonly looks: { auto: Automaton; ahead: boolean; negate: boolean }[];

  constructor(source: string) {
    const parsed = parsePattern(source);
    const matchers = new Map<CharPiece, Matcher>();
    this.main = new Automaton(parsed.root, true, matchers);
    this.looks = parsed.looks.map((l) => ({
      auto: new Automaton(l.body, !l.ahead, matchers),
      ahead: l.ahead,
      negate: l.negate,
    }));
    const total = this.main.size + this.looks.reduce((sum, l) => sum + l.auto.size, 0);
    if (total > MAX_PATTERN_STATES)
      throw new UnsupportedPattern(`more than ${MAX_PATTERN_STATES} states (a counted repetition too large)`, 0);
  }

  /**
   * Whether the whole of `value` matches (as `^(?:pattern)$` with the `v` flag would say); false,
   * too, when the check would take more than `budget` steps.
   */
  test(value: string, budget: number = MATCH_STEP_BUDGET): boolean {
    const input = toInput(value);
    const holds: Uint8Array[] = [];
    const left = { steps: budget };
    try {
      for (const l of this.looks) {
        const found = run(l.auto, input, holds, true, left) as Uint8Array;
        if (l.negate) for (let p = 0; p <= input.n; p++) found[p] ^= 1;
        holds.push(found);
      }
      return run(this.main, input, holds, false, left) as boolean;
    } catch (e) {
      if (e === SPENT) return false;
      throw e;
    }
  }
}

/**
 * Runs `auto` over the input as a set of states per position. Anchored (`inject` false): from
 * position 0 forwards, whether the match state is reached at the end. Injected: the start state is
 * added at every position and the answer says, per position, whether the match state is there: for
 * a forward body "some match ends here", for a backward one "some match starts here".
 */
function run(
  auto: Automaton,
  input: Input,
  holds: Uint8Array[],
  inject: boolean,
  left: { steps: number },
): Uint8Array | boolean {
  return new Run(auto, input, holds, inject).walk(left);
}

/** The state of one `run`: per pending position, its list of states and their marks. */
class Run {
  private readonly n: number;
  private readonly dir: number;
  private readonly ring: number;
  private readonly lists: Int32Array[];
  private readonly sizes: Int32Array;
  private readonly marks: Int32Array[];
  private readonly stamps: Int32Array;
  private readonly stack: Int32Array;
  private readonly found: Uint8Array | undefined;
  private pending = 0;
  private steps = 0;

  constructor(
    private readonly auto: Automaton,
    private readonly input: Input,
    private readonly holds: Uint8Array[],
    private readonly inject: boolean,
  ) {
    const size = auto.size;
    this.n = input.n;
    this.dir = auto.forward ? 1 : -1;
    // Pieces span up to maxLen code points, so the sets of the next maxLen positions are pending.
    const ring = (this.ring = auto.maxLen + 1);
    this.lists = Array.from({ length: ring }, () => new Int32Array(size));
    this.sizes = new Int32Array(ring);
    this.marks = Array.from({ length: ring }, () => new Int32Array(size));
    this.stamps = new Int32Array(ring).fill(1);
    this.stack = new Int32Array(size);
    this.found = inject ? new Uint8Array(this.n + 1) : undefined;
  }

  private word(i: number): boolean {
    return i >= 0 && i < this.n && isWord(this.input.cps[i]);
  }

  private asserts(which: number, p: number): boolean {
    return which === 0 ? p === 0 : which === 1 ? p === this.n : (this.word(p - 1) !== this.word(p)) === (which === 2);
  }

  /** Adds `s0` and what it reaches without reading (its epsilon closure at position p). */
  private add(slot: number, s0: number, p: number): void {
    const mark = this.marks[slot];
    const stamp = this.stamps[slot];
    if (mark[s0] === stamp) return;
    const { kind, out, aux, outs } = this.auto;
    const { stack, holds } = this;
    const list = this.lists[slot];
    // Marked when pushed, so each state is on the stack at most once.
    let top = 0;
    mark[s0] = stamp;
    stack[top++] = s0;
    while (top > 0) {
      const s = stack[--top];
      this.steps++;
      const k = kind[s];
      let to = -1;
      if (k === SPLIT) {
        for (const o of outs[s]!)
          if (mark[o] !== stamp) {
            mark[o] = stamp;
            stack[top++] = o;
          }
      } else if (k === ASSERT) {
        if (this.asserts(aux[s], p)) to = out[s];
      } else if (k === LOOK) {
        if (holds[aux[s]][p] === 1) to = out[s];
      } else {
        list[this.sizes[slot]++] = s;
        this.pending++;
      }
      if (to >= 0 && mark[to] !== stamp) {
        mark[to] = stamp;
        stack[top++] = to;
      }
    }
  }

  /** Every position in the automaton's direction; throws `SPENT` past the budget. */
  walk(left: { steps: number }): Uint8Array | boolean {
    const { auto, n, dir, ring, inject, found } = this;
    const first = auto.forward ? 0 : n;
    for (let step = 0; step <= n; step++) {
      const p = first + dir * step;
      const slot = p % ring;
      if (inject || step === 0) this.add(slot, auto.start, p);
      if (this.pending === 0 && !inject) return false;
      if (this.advance(p, slot)) return true;
      if (this.steps > left.steps) throw SPENT;
    }
    left.steps -= this.steps;
    return found ?? false;
  }

  /** Moves the states at position p over the code point next to it; true when an anchored run matched. */
  private advance(p: number, slot: number): boolean {
    const { auto, input, n, dir, ring, found } = this;
    const { kind, out, matcher } = auto;
    const list = this.lists[slot];
    const count = this.sizes[slot];
    // The code point read next: after p going forwards, before it going backwards.
    const at = dir > 0 ? p : p - 1;
    const cp = at >= 0 && at < n ? input.cps[at] : -1;
    for (let k = 0; k < count; k++) {
      const s = list[k];
      if (kind[s] === MATCH) {
        if (found) found[p] = 1;
        else if (p === n) return true;
        continue;
      }
      if (cp < 0) continue;
      const m = matcher[s]!;
      this.steps++;
      if (m.one(cp)) this.add((p + dir) % ring, out[s], p + dir);
      for (let len = 2; len <= m.maxLen; len++) {
        const q = p + dir * len;
        if (q < 0 || q > n) break;
        this.steps++;
        if (dir > 0 ? m.many(input, p, q) : m.many(input, q, p)) this.add(q % ring, out[s], q);
      }
    }
    this.pending -= count;
    this.sizes[slot] = 0;
    this.stamps[slot]++;
    return false;
  }
}
