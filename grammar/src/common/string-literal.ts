// Double-quoted strings: escapes resolved, with the document offset of every resolved character.
import type { StringLit } from '../ast.js';
import type { PosMaker } from './text-lines.js';

/**
 * Resolves a string token. `raw` is the token image (starting with `"`), `map(i)` gives the document
 * offset of `raw[i]` (plain `base + i` in most places; through an enclosing string's offsets when the
 * string sits inside a quoted attribute value). `\n`, `\t`, `\r` and `\0` are control characters;
 * any other escaped character stands for itself (`\"`, `\\`, `\{`).
 */
export function resolveString(
  raw: string,
  map: (i: number) => number,
  pm: PosMaker,
  /** When given, `raw` in the result is this document's text over the string's range. */
  doc?: string,
): StringLit {
  const { value, valueOffsets, terminated, start, end } = resolveEscapes(raw, map);
  const lit: StringLit = {
    value,
    raw: doc === undefined ? raw : doc.slice(start, end),
    range: pm.range(start, end),
    terminated,
  };
  // Kept only when the characters do not follow the opening quote one to one.
  for (let i = 0; i < valueOffsets.length; i++) {
    if (valueOffsets[i] !== start + 1 + i) {
      lit.valueOffsets = valueOffsets;
      break;
    }
  }
  return lit;
}

/** Document offset of `lit.value[i]` (`i === value.length`: just past the last character). */
export function valueOffset(lit: StringLit, i: number): number {
  return lit.valueOffsets === undefined ? lit.range.start.offset + 1 + i : lit.valueOffsets[i];
}

export interface ResolvedString {
  value: string;
  valueOffsets: number[];
  terminated: boolean;
  /** Document offsets of the opening quote and just past the string. */
  start: number;
  end: number;
}

/** The escape-resolving core of `resolveString`, without building ranges. */
export function resolveEscapes(raw: string, map: (i: number) => number): ResolvedString {
  let value = '';
  const valueOffsets: number[] = [];
  const n = raw.length;
  let i = 1;
  let terminated = false;
  let plainFrom = 1;
  while (i < n) {
    const c = raw.charCodeAt(i);
    if (c === 34) {
      terminated = true;
      break;
    }
    if (c === 92) {
      if (i > plainFrom) {
        value += raw.slice(plainFrom, i);
        for (let k = plainFrom; k < i; k++) valueOffsets.push(map(k));
      }
      if (i + 1 >= n) {
        // A trailing backslash before the end of the line: the string is unterminated.
        plainFrom = n;
        i = n;
        break;
      }
      const e = raw[i + 1];
      value += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e === '0' ? '\0' : e;
      valueOffsets.push(map(i));
      i += 2;
      plainFrom = i;
      continue;
    }
    i++;
  }
  const stop = Math.min(i, n);
  if (stop > plainFrom) {
    value += raw.slice(plainFrom, stop);
    for (let k = plainFrom; k < stop; k++) valueOffsets.push(map(k));
  }
  valueOffsets.push(map(stop));
  const start = map(0);
  // The end is where the next source character would start: an escaped closing quote is two long.
  const end = terminated ? map(stop + 1) : map(n);
  return { value, valueOffsets, terminated, start, end };
}

/** Fast path for the common case: a string token at a plain document offset. */
export function stringAt(raw: string, base: number, pm: PosMaker): StringLit {
  if (raw.indexOf('\\') < 0 && raw.length >= 2 && raw.charCodeAt(raw.length - 1) === 34) {
    return { value: raw.slice(1, -1), raw, range: pm.range(base, base + raw.length), terminated: true };
  }
  return resolveString(raw, (i) => base + i, pm);
}
