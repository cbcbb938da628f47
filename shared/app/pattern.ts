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

/** A compiled character piece: whether it matches exactly code points [from, to) of the input. */
interface Matcher {
  /** The most code points one match spans. */
  maxLen: number;
  test(input: Input, from: number, to: number): boolean;
}

const LINE_TERMINATORS = new Set([0x0a, 0x0d, 0x2028, 0x2029]);
const CACHE_LIMIT = 4096;

function matcherOf(piece: CharPiece): Matcher {
  if (piece.k === 'cp') {
    const cp = piece.cp;
    return { maxLen: 1, test: (inp, from, to) => to === from + 1 && inp.cps[from] === cp };
  }
  if (piece.k === 'dot')
    return { maxLen: 1, test: (inp, from, to) => to === from + 1 && !LINE_TERMINATORS.has(inp.cps[from]) };
  // The platform decides what an escape or class matches, on text no longer than `maxLen` code
  // points, so each test is bounded; single code points are remembered.
  const re = new RegExp(`^(?:${piece.source})$`, 'v');
  const seen = new Map<number, boolean>();
  const one = (cp: number): boolean => {
    let hit = seen.get(cp);
    if (hit === undefined) {
      hit = re.test(String.fromCodePoint(cp));
      if (seen.size < CACHE_LIMIT) seen.set(cp, hit);
    }
    return hit;
  };
  return {
    maxLen: piece.maxLen,
    test: (inp, from, to) =>
      to === from + 1 ? one(inp.cps[from]) : re.test(inp.text.slice(inp.off[from], inp.off[to])),
  };
}

type State =
  | { k: 'char'; m: Matcher; out: number }
  | { k: 'split'; outs: number[] }
  | { k: 'assert'; kind: '^' | '$' | 'b' | 'B'; out: number }
  | { k: 'look'; id: number; out: number }
  | { k: 'match' };

/** A Thompson automaton read in one direction (backwards for a lookahead's body). */
class Automaton {
  readonly states: State[] = [{ k: 'match' }];
  readonly start: number;
  maxLen = 1;

  constructor(
    root: PatternNode,
    readonly forward: boolean,
    private readonly matchers: Map<CharPiece, Matcher>,
  ) {
    this.start = this.build(root, 0);
  }

  private add(s: State): number {
    if (this.states.length >= MAX_PATTERN_STATES)
      throw new UnsupportedPattern(`more than ${MAX_PATTERN_STATES} states (a counted repetition too large)`, 0);
    this.states.push(s);
    return this.states.length - 1;
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
        const entry = this.add({ k: 'char', m, out: next });
        // A class that matches '' (`[\q{}]`) may also be passed over.
        return node.piece.k === 'native' && node.piece.empty ? this.add({ k: 'split', outs: [entry, next] }) : entry;
      }
      case 'seq': {
        let e = next;
        const items = node.items;
        if (this.forward) for (let i = items.length - 1; i >= 0; i--) e = this.build(items[i], e);
        else for (const item of items) e = this.build(item, e);
        return e;
      }
      case 'alt':
        return this.add({ k: 'split', outs: node.items.map((item) => this.build(item, next)) });
      case 'assert':
        return this.add({ k: 'assert', kind: node.kind, out: next });
      case 'look':
        return this.add({ k: 'look', id: node.id, out: next });
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
      const loop = this.add({ k: 'split', outs: [] });
      (this.states[loop] as { outs: number[] }).outs.push(this.build(body, loop), next);
      e = loop;
    } else {
      e = next;
      for (let i = min; i < max; i++) e = this.add({ k: 'split', outs: [this.build(body, e), next] });
    }
    for (let i = 0; i < min; i++) e = this.build(body, e);
    return e;
  }
}

/** `\b` word characters in unicode mode without `i`: [A-Za-z0-9_]. */
function isWord(cp: number): boolean {
  return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x30 && cp <= 0x39) || cp === 0x5f;
}

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
    const total = this.main.states.length + this.looks.reduce((sum, l) => sum + l.auto.states.length, 0);
    if (total > MAX_PATTERN_STATES)
      throw new UnsupportedPattern(`more than ${MAX_PATTERN_STATES} states (a counted repetition too large)`, 0);
  }

  /** Whether the whole of `value` matches (as `^(?:pattern)$` with the `v` flag would say). */
  test(value: string): boolean {
    const input = toInput(value);
    const holds: Uint8Array[] = [];
    for (const l of this.looks) {
      const found = run(l.auto, input, holds, true) as Uint8Array;
      if (l.negate) for (let p = 0; p <= input.n; p++) found[p] ^= 1;
      holds.push(found);
    }
    return run(this.main, input, holds, false) as boolean;
  }
}

/**
 * Runs `auto` over the input as a set of states per position. Anchored (`inject` false): from
 * position 0 forwards, whether the match state is reached at the end. Injected: the start state is
 * added at every position and the answer says, per position, whether the match state is there: for
 * a forward body "some match ends here", for a backward one "some match starts here".
 */
function run(auto: Automaton, input: Input, holds: Uint8Array[], inject: boolean): Uint8Array | boolean {
  const { states, start } = auto;
  const n = input.n;
  const cps = input.cps;
  const dir = auto.forward ? 1 : -1;
  // Pieces span up to maxLen code points, so the sets of the next maxLen positions are pending.
  const ring = auto.maxLen + 1;
  const lists = Array.from({ length: ring }, () => new Int32Array(states.length));
  const sizes = new Int32Array(ring);
  const marks = Array.from({ length: ring }, () => new Int32Array(states.length));
  const stamps = new Int32Array(ring).fill(1);
  const stack = new Int32Array(states.length);
  const found = inject ? new Uint8Array(n + 1) : undefined;
  let pending = 0;

  const word = (i: number): boolean => i >= 0 && i < n && isWord(cps[i]);
  const asserts = (kind: '^' | '$' | 'b' | 'B', p: number): boolean =>
    kind === '^' ? p === 0 : kind === '$' ? p === n : (word(p - 1) !== word(p)) === (kind === 'b');

  /** Adds `s0` and what it reaches without reading (its epsilon closure at position p). */
  const add = (slot: number, s0: number, p: number): void => {
    const mark = marks[slot];
    const stamp = stamps[slot];
    const list = lists[slot];
    // Marked when pushed, so each state is on the stack at most once.
    let top = 0;
    mark[s0] = stamp;
    stack[top++] = s0;
    while (top > 0) {
      const s = stack[--top];
      const st = states[s];
      let to = -1;
      if (st.k === 'split') {
        for (const o of st.outs)
          if (mark[o] !== stamp) {
            mark[o] = stamp;
            stack[top++] = o;
          }
      } else if (st.k === 'assert') {
        if (asserts(st.kind, p)) to = st.out;
      } else if (st.k === 'look') {
        if (holds[st.id][p] === 1) to = st.out;
      } else {
        list[sizes[slot]++] = s;
        pending++;
      }
      if (to >= 0 && mark[to] !== stamp) {
        mark[to] = stamp;
        stack[top++] = to;
      }
    }
  };

  const first = auto.forward ? 0 : n;
  for (let step = 0; step <= n; step++) {
    const p = first + dir * step;
    const slot = p % ring;
    if ((inject || step === 0) && marks[slot][start] !== stamps[slot]) add(slot, start, p);
    if (pending === 0 && !inject) return false;
    const list = lists[slot];
    const size = sizes[slot];
    for (let k = 0; k < size; k++) {
      const st = states[list[k]];
      if (st.k === 'match') {
        if (found) found[p] = 1;
        else if (p === n) return true;
        continue;
      }
      if (st.k !== 'char') continue;
      for (let len = 1; len <= st.m.maxLen; len++) {
        const q = p + dir * len;
        if (q < 0 || q > n) break;
        if (dir > 0 ? st.m.test(input, p, q) : st.m.test(input, q, p)) add(q % ring, st.out, q);
      }
    }
    pending -= size;
    sizes[slot] = 0;
    stamps[slot]++;
  }
  return found ?? false;
}
