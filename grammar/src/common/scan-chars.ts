// What the hand-written scanners (markup-, expr- and decl-scanner.ts) share: character classes of
// the token patterns they follow, the double-quoted string both lexers define alike, and the token
// object Chevrotain's lexers make with `positionTracking: 'onlyOffset'`.
import type { IToken, TokenType } from 'chevrotain';

export const QUOTE = 34;
export const BACKSLASH = 92;
export const CR = 13;
export const LF = 10;

export function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** `\w`: ASCII letters, digits and `_`. */
export function isWord(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 95;
}

export function isNewline(c: number): boolean {
  return c === CR || c === LF;
}

/** `[ \t\f\v\uFEFF]`: white space within a line. */
export function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 12 || c === 11 || c === 0xfeff;
}

/** `[ \t\f\v\r\n\uFEFF]`: white space, line breaks included (inside a tag or a `{...}`). */
export function isSpace(c: number): boolean {
  return isBlank(c) || isNewline(c);
}

/**
 * `/"(?:[^"\\\r\n]|\\[^\r\n])*(?:"|\\)?/` from the `"` at `i`: escapes in pairs, ended by the
 * closing quote or the line's end; a lone backslash before the line's end is kept.
 */
export function quotedStringEnd(text: string, i: number): number {
  const n = text.length;
  let p = i + 1;
  while (p < n) {
    const c = text.charCodeAt(p);
    if (c === QUOTE || c === BACKSLASH) {
      if (c === BACKSLASH && p + 1 < n && !isNewline(text.charCodeAt(p + 1))) {
        p += 2;
        continue;
      }
      return p + 1;
    }
    if (isNewline(c)) return p;
    p++;
  }
  return p;
}

/** A token as Chevrotain's offset-only lexers make it (the same properties, in the same order). */
export function offsetToken(text: string, start: number, end: number, type: TokenType): IToken {
  return {
    image: text.slice(start, end),
    startOffset: start,
    tokenTypeIdx: type.tokenTypeIdx!,
    tokenType: type,
  } as IToken;
}

/**
 * The type of the token a scanner's step last read; the step answers where the token ends. A pair
 * per token was a tenth of all that parsing a page allocated.
 */
export let scanned: TokenType;

/** Notes `type` as the token just read and answers `end`. */
export function found(type: TokenType, end: number): number {
  scanned = type;
  return end;
}

/**
 * Runs a one-mode scanner over `text`: characters `skip` accepts are passed over (the skipped white
 * space group), `next` reads the token at a position, `take` receives each token in order.
 */
export function scanTokens(
  text: string,
  skip: (c: number) => boolean,
  next: (text: string, i: number) => number,
  take: (token: IToken) => void,
): void {
  let i = 0;
  while (i < text.length) {
    if (skip(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const end = next(text, i);
    take(offsetToken(text, i, end, scanned));
    i = end;
  }
}
