// The declaration lexer written out by hand: header lines and record bodies are lexed in many short
// runs (a few per file), where Chevrotain's lexer spent more on starting each run and trying each
// token's regular expression in turn than on the characters. This scanner gives exactly the tokens
// and comments that lexer gives for the definitions in decl-lexer.ts (the first type, in definition
// order, that matches; `error` and `cors` only when no longer word matches; white space skipped),
// token objects of the same shape included, and never fails. A test holds the two to the same output.
import type { ILexingResult, IToken } from 'chevrotain';
import {
  Arrow,
  Colon,
  Comma,
  Equals,
  Junk,
  KwCors,
  KwError,
  LCurly,
  LineCommentTok,
  Newline,
  RCurly,
  StringTok,
  Word,
} from './decl-lexer.js';
import { CR, found, isBlank, isNewline, isWord, LF, QUOTE, quotedStringEnd, scanTokens } from '../common/scan-chars.js';

/** `[\w.\/$-]`: the characters of a word. */
function isWordChar(c: number): boolean {
  return isWord(c) || c === 46 || c === 47 || c === 36 || c === 45;
}

/** `Word` from `i`: word characters, and `:` only between them (`role:admin`, not `slug:`). */
function wordEnd(text: string, i: number): number {
  let p = i;
  while (p < text.length && isWordChar(text.charCodeAt(p))) p++;
  while (text.charCodeAt(p) === 58 && p + 1 < text.length && isWordChar(text.charCodeAt(p + 1))) {
    p += 2;
    while (p < text.length && isWordChar(text.charCodeAt(p))) p++;
  }
  return p;
}

/** Where the token at `i` (not white space) ends; its type is noted (`found`). */
function declToken(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === CR) return found(Newline, text.charCodeAt(i + 1) === LF ? i + 2 : i + 1);
  if (c === LF) return found(Newline, i + 1);
  const next = text.charCodeAt(i + 1);
  if (c === 47 && next === 47) {
    let p = i + 2;
    while (p < text.length && !isNewline(text.charCodeAt(p))) p++;
    return found(LineCommentTok, p);
  }
  if (c === QUOTE) return found(StringTok, quotedStringEnd(text, i));
  if (c === 61) return next === 62 ? found(Arrow, i + 2) : found(Equals, i + 1);
  if (c === 123) return found(LCurly, i + 1);
  if (c === 125) return found(RCurly, i + 1);
  if (c === 44) return found(Comma, i + 1);
  if (c === 58) return found(Colon, i + 1);
  if (isWordChar(c)) {
    const end = wordEnd(text, i);
    // A keyword when the word is exactly it: `errors` or `error.html` is a word.
    if (end === i + 5 && text.startsWith('error', i)) return found(KwError, end);
    if (end === i + 4 && text.startsWith('cors', i)) return found(KwCors, end);
    return found(Word, end);
  }
  return found(Junk, i + 1);
}

/** The tokens of a run of declaration text, comments in their group, as the declaration lexer gives them. */
export function scanDecl(text: string): ILexingResult {
  const tokens: IToken[] = [];
  const comments: IToken[] = [];
  scanTokens(text, isBlank, declToken, (t) => (t.tokenType === LineCommentTok ? comments : tokens).push(t));
  return { tokens, groups: { comments }, errors: [] };
}

/** The declaration lexer: this scanner, in Chevrotain's lexer's place (decl-lexer.ts). */
export const declLexer = { tokenize: scanDecl };
