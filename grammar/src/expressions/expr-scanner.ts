// The markup lexer's `expr` mode (the inside of one `{...}`) written out by hand, as its `content`
// and `tag` modes are (markup-scanner.ts): the same tokens as Chevrotain's lexer for the definitions
// in markup-lexer.ts (the first type, in definition order, that matches; `true`, `false` and `in`
// only when no longer identifier matches; white space skipped), and never an error.
import type { ILexingResult, IToken } from 'chevrotain';
import {
  AndAnd,
  Dot,
  EqEq,
  ExprComma,
  ExprJunk,
  ExprString,
  False,
  Ge,
  Gt,
  Ident,
  In,
  Le,
  LParen,
  Lt,
  Not,
  NotEq,
  NumberLit,
  OrOr,
  RParen,
  Spread,
  True,
} from '../markup/markup-lexer.js';
import { found, isLetter, isSpace, isWord, QUOTE, quotedStringEnd, scanTokens } from '../common/scan-chars.js';

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** `[A-Za-z_$][\w$]*` from `i` (its first character already checked). */
function identEnd(text: string, i: number): number {
  let p = i + 1;
  while (p < text.length && (isWord(text.charCodeAt(p)) || text.charCodeAt(p) === 36)) p++;
  return p;
}

/** Where the token at `i` (not white space) ends; its type is noted (`found`). */
function exprToken(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const next = text.charCodeAt(i + 1);
  switch (c) {
    case 46:
      return next === 46 && text.charCodeAt(i + 2) === 46 ? found(Spread, i + 3) : found(Dot, i + 1);
    case 40:
      return found(LParen, i + 1);
    case 41:
      return found(RParen, i + 1);
    case 44:
      return found(ExprComma, i + 1);
    case 61:
      if (next === 61) return found(EqEq, i + 2);
      break;
    case 33:
      return next === 61 ? found(NotEq, i + 2) : found(Not, i + 1);
    case 38:
      if (next === 38) return found(AndAnd, i + 2);
      break;
    case 124:
      if (next === 124) return found(OrOr, i + 2);
      break;
    case 60:
      return next === 61 ? found(Le, i + 2) : found(Lt, i + 1);
    case 62:
      return next === 61 ? found(Ge, i + 2) : found(Gt, i + 1);
    case QUOTE:
      return found(ExprString, quotedStringEnd(text, i));
  }
  if (isDigit(c)) {
    let p = i + 1;
    while (p < text.length && isDigit(text.charCodeAt(p))) p++;
    if (text.charCodeAt(p) === 46 && isDigit(text.charCodeAt(p + 1))) {
      p += 2;
      while (p < text.length && isDigit(text.charCodeAt(p))) p++;
    }
    return found(NumberLit, p);
  }
  if (isLetter(c) || c === 95 || c === 36) {
    const end = identEnd(text, i);
    const word = end - i;
    // A keyword when the identifier is exactly it: `trueish` and `items` are identifiers.
    if (word === 4 && text.startsWith('true', i)) return found(True, end);
    if (word === 5 && text.startsWith('false', i)) return found(False, end);
    if (word === 2 && text.startsWith('in', i)) return found(In, end);
    return found(Ident, end);
  }
  return found(ExprJunk, i + 1);
}

/** The tokens of the inside of one `{...}`, as the markup lexer's `expr` mode gives them. */
export function scanExpr(text: string): ILexingResult {
  const tokens: IToken[] = [];
  scanTokens(text, isSpace, exprToken, (t) => tokens.push(t));
  return { tokens, groups: {}, errors: [] };
}
