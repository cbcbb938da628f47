// The syntax of an HTML `pattern` attribute read into a tree the linear matcher (`pattern.ts`) runs.
// Browsers compile `pattern` as `^(?:…)$` with the `v` flag; this reader is only ever given a source
// that `new RegExp` has already accepted that way, so it needs to find where each piece ends, not
// re-implement the rules: every piece that matches characters (a literal, `.`, an escape, a class,
// `\p{…}`) is kept as its source text and tested by the platform's own RegExp on the bounded text
// it could match, which keeps Unicode properties, class set operations and `\q{…}` exactly right.
// What no automaton can match in linear time (backreferences) and what this reader does not know
// (any group syntax a later ECMAScript adds, such as modifiers) is refused with `UnsupportedPattern`.

/** Something that matches a bounded run of characters, tested on the text itself. */
export type CharPiece =
  /** One code point, compared directly. */
  | { k: 'cp'; cp: number }
  /** `.` without the `s` flag: any code point but a line terminator. */
  | { k: 'dot' }
  /**
   * An escape, class or property as written; `maxLen` bounds the code points one match spans (1
   * unless it can match strings: `\q{…}` or a property of strings), `empty` says it matches ''.
   */
  | { k: 'native'; source: string; maxLen: number; empty: boolean };

export type PatternNode =
  | { k: 'empty' }
  | { k: 'char'; piece: CharPiece }
  | { k: 'seq'; items: PatternNode[] }
  | { k: 'alt'; items: PatternNode[] }
  | { k: 'rep'; body: PatternNode; min: number; max: number }
  /** `^` and `$` (no `m` flag: the ends of the value), `\b` and `\B`. */
  | { k: 'assert'; kind: '^' | '$' | 'b' | 'B' }
  /** A lookaround; `id` numbers them inner first, the order they are evaluated in. */
  | { k: 'look'; id: number; ahead: boolean; negate: boolean; body: PatternNode };

/** A valid pattern the linear matcher cannot run; `offset` is where in the source it starts. */
export class UnsupportedPattern extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'UnsupportedPattern';
  }
}

/**
 * Longest string a property of strings matches, in code points. The longest RGI emoji sequences
 * (ZWJ families with skin tones) are 10 code points, tag sequences (subdivision flags) 7; the margin
 * covers later Unicode versions. Classes with `\q{…}` are bounded by their own text instead.
 */
const STRING_PROPERTY_MAX = 32;
const STRING_PROPERTIES = new Set([
  'Basic_Emoji',
  'Emoji_Keycap_Sequence',
  'RGI_Emoji_Modifier_Sequence',
  'RGI_Emoji_Flag_Sequence',
  'RGI_Emoji_Tag_Sequence',
  'RGI_Emoji_ZWJ_Sequence',
  'RGI_Emoji',
]);

export interface ParsedPattern {
  root: PatternNode;
  /** Lookarounds by `id`. */
  looks: Extract<PatternNode, { k: 'look' }>[];
}

/** Reads a pattern source that `new RegExp(`^(?:${source})$`, 'v')` accepts. */
export function parsePattern(source: string): ParsedPattern {
  const r = new Reader(source);
  const root = r.alternation();
  if (r.i < source.length) throw new UnsupportedPattern(`unexpected "${source[r.i]}"`, r.i);
  return { root, looks: r.looks };
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

class Reader {
  i = 0;
  readonly looks: Extract<PatternNode, { k: 'look' }>[] = [];

  constructor(readonly s: string) {}

  alternation(): PatternNode {
    const items = [this.sequence()];
    while (this.s[this.i] === '|') {
      this.i++;
      items.push(this.sequence());
    }
    return items.length === 1 ? items[0] : { k: 'alt', items };
  }

  private sequence(): PatternNode {
    const items: PatternNode[] = [];
    while (this.i < this.s.length && this.s[this.i] !== '|' && this.s[this.i] !== ')') {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return items.length === 0 ? { k: 'empty' } : items.length === 1 ? items[0] : { k: 'seq', items };
  }

  private quantified(atom: PatternNode): PatternNode {
    const s = this.s;
    let min: number;
    let max: number;
    const c = s[this.i];
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      // In unicode mode a `{` after an atom is always a quantifier (RegExp accepted the source).
      const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.i, this.i + 40));
      if (!m) throw new UnsupportedPattern('unreadable quantifier', this.i);
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return atom;
    this.i++;
    if (s[this.i] === '?') this.i++; // laziness changes which match, not whether one exists
    return { k: 'rep', body: atom, min, max };
  }

  private atom(): PatternNode {
    const s = this.s;
    const at = this.i;
    const c = s[at];
    if (c === '^' || c === '$') {
      this.i++;
      return { k: 'assert', kind: c };
    }
    if (c === '.') {
      this.i++;
      return { k: 'char', piece: { k: 'dot' } };
    }
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '\\') return this.escape();
    const cp = s.codePointAt(at)!;
    this.i += cp > 0xffff ? 2 : 1;
    return { k: 'char', piece: { k: 'cp', cp } };
  }

  private group(): PatternNode {
    const s = this.s;
    const at = this.i;
    let look: { ahead: boolean; negate: boolean } | undefined;
    if (s.startsWith('(?:', at)) this.i += 3;
    else if (s.startsWith('(?=', at) || s.startsWith('(?!', at)) {
      look = { ahead: true, negate: s[at + 2] === '!' };
      this.i += 3;
    } else if (s.startsWith('(?<=', at) || s.startsWith('(?<!', at)) {
      look = { ahead: false, negate: s[at + 3] === '!' };
      this.i += 4;
    } else if (s.startsWith('(?<', at)) {
      const end = s.indexOf('>', at);
      if (end < 0) throw new UnsupportedPattern('unreadable group name', at);
      this.i = end + 1;
    } else if (s[at + 1] === '?') throw new UnsupportedPattern(`the group syntax "${s.slice(at, at + 4)}"`, at);
    else this.i++;
    const body = this.alternation();
    if (s[this.i] !== ')') throw new UnsupportedPattern('an unclosed group', at);
    this.i++;
    if (look === undefined) return body;
    const node = { k: 'look' as const, id: this.looks.length, ahead: look.ahead, negate: look.negate, body };
    this.looks.push(node);
    return node;
  }

  private escape(): PatternNode {
    const s = this.s;
    const at = this.i;
    const c = s[at + 1];
    if (c === 'b' || c === 'B') {
      this.i += 2;
      return { k: 'assert', kind: c };
    }
    if ((isDigit(c) && c !== '0') || c === 'k')
      throw new UnsupportedPattern('a backreference (no automaton matches one in linear time)', at);
    let end = at + 2;
    if (c === 'p' || c === 'P') {
      end = s.indexOf('}', at) + 1;
      const name = s.slice(at + 3, end - 1);
      const strings = c === 'p' && STRING_PROPERTIES.has(name);
      this.i = end;
      return native(s.slice(at, end), strings ? STRING_PROPERTY_MAX : 1, false);
    }
    if (c === 'u' && s[at + 2] === '{') end = s.indexOf('}', at) + 1;
    else if (c === 'u') {
      end = at + 6;
      // A surrogate pair written as two escapes is one code point in unicode mode.
      const hi = parseInt(s.slice(at + 2, end), 16);
      if (hi >= 0xd800 && hi <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(s.slice(end, end + 6))) end += 6;
    } else if (c === 'x') end = at + 4;
    else if (c === 'c') end = at + 3;
    else if (c === undefined) throw new UnsupportedPattern('a trailing backslash', at);
    else if (s.codePointAt(at + 1)! > 0xffff) end = at + 3;
    this.i = end;
    return native(s.slice(at, end), 1, false);
  }

  /** A class `[…]` (classes nest in `v` mode); its `\q{…}` strings bound how long a match is. */
  private charClass(): PatternNode {
    const s = this.s;
    const at = this.i;
    let depth = 0;
    let maxLen = 1;
    let empty = false;
    let j = at;
    for (; j < s.length; j++) {
      const c = s[j];
      if (c === '\\') {
        const e = s[j + 1];
        if ((e === 'q' || e === 'p' || e === 'P') && s[j + 2] === '{') {
          const close = closingBrace(s, j + 3);
          const body = s.slice(j + 3, close);
          if (e === 'q') {
            // Each string's source length bounds its code points (an escape writes at most one).
            for (const alt of splitAlternatives(body)) {
              if (alt.length === 0) empty = true;
              maxLen = Math.max(maxLen, alt.length);
            }
          } else if (e === 'p' && STRING_PROPERTIES.has(body)) maxLen = Math.max(maxLen, STRING_PROPERTY_MAX);
          j = close;
        } else j++;
      } else if (c === '[') depth++;
      else if (c === ']' && --depth === 0) break;
    }
    if (j >= s.length) throw new UnsupportedPattern('an unclosed class', at);
    this.i = j + 1;
    return native(s.slice(at, j + 1), maxLen, empty);
  }
}

function native(source: string, maxLen: number, empty: boolean): PatternNode {
  return { k: 'char', piece: { k: 'native', source, maxLen, empty } };
}

/** The index of the `}` closing a `\q{` or `\p{` body starting at `from` (escapes skipped). */
function closingBrace(s: string, from: number): number {
  for (let j = from; j < s.length; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === '}') return j;
  }
  throw new UnsupportedPattern('an unclosed \\q{…}', from);
}

/** The `|`-separated strings of a `\q{…}` body, as source text. */
function splitAlternatives(body: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let j = 0; j < body.length; j++) {
    if (body[j] === '\\') j++;
    else if (body[j] === '|') {
      out.push(body.slice(start, j));
      start = j + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}
