// The markup lexer's `content` and `tag` modes written out by hand: a view's body is most of a
// page's text, and Chevrotain's lexer, which tries each token type's regular expression in turn
// at every offset, was the largest single cost of parsing it. This scanner gives exactly the
// tokens that lexer gives for the definitions in markup-lexer.ts (the first type, in definition
// order, whose pattern matches; `<name`, `</` and `<{` enter tag mode, `>` and `/>` leave it;
// white space in a tag skipped), token objects of the same shape included, and, like it, never
// fails: every character starts some token in either mode. So are the `attr` mode (below) and the
// `expr` mode (expr-scanner.ts). A test holds them to Chevrotain's lexer.
import type { ILexingResult, IToken } from 'chevrotain';
import {
  AttrEq,
  AttrString,
  BlockSyntax,
  ClassShort,
  CloseTag,
  CloseTagOpen,
  IdShort,
  Interp,
  LtText,
  MComment,
  MCommentOpen,
  Name,
  SelfClose,
  SingleQuoted,
  TagClose,
  TagJunk,
  TagOpen,
  TagStart,
  Text,
  AttrText,
} from './markup-lexer.js';
import { scanExpr } from '../expressions/expr-scanner.js';
import {
  BACKSLASH,
  found,
  isLetter,
  isNewline,
  isSpace,
  isWord,
  offsetToken,
  QUOTE,
  quotedStringEnd,
  scanned,
} from '../common/scan-chars.js';

const LT = 60;
const GT = 62;
const LBRACE = 123;
const RBRACE = 125;
const APOS = 39;

/** `[\w.:@$-]`: the characters of a tag or attribute name after its first. */
function isNameChar(c: number): boolean {
  return isWord(c) || c === 46 || c === 58 || c === 64 || c === 36 || c === 45;
}

/** The end of the name characters from `i`. */
function nameCharsEnd(text: string, i: number): number {
  while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
  return i;
}

/** `Interp` from the `{` at `i`: up to the first `}` outside a string, never past a line end. */
function interpEnd(text: string, i: number): number {
  const n = text.length;
  let p = i + 1;
  while (p < n) {
    const c = text.charCodeAt(p);
    if (c === RBRACE) return p + 1;
    if (isNewline(c)) return p;
    p++;
    if (c !== QUOTE) continue;
    // A string: escapes taken in pairs, ended by its quote, a line end or an escaped line end.
    while (p < n) {
      const s = text.charCodeAt(p);
      if (s === QUOTE) {
        p++;
        break;
      }
      if (isNewline(s)) break;
      if (s === BACKSLASH) {
        if (p + 1 >= n || isNewline(text.charCodeAt(p + 1))) break;
        p += 2;
      } else p++;
    }
  }
  return p;
}

/** `BlockSyntax` (`{#if}`, `{/if}`, `{:else}`, `{@html}`) from the `{` at `i`, or -1. */
function blockSyntaxEnd(text: string, i: number): number {
  const k = text.charCodeAt(i + 1);
  if (k !== 35 && k !== 47 && k !== 58 && k !== 64) return -1;
  let p = i + 2;
  while (p < text.length) {
    const c = text.charCodeAt(p);
    if (c === RBRACE) return p + 1;
    if (isNewline(c)) break;
    p++;
  }
  return p;
}

/** `Name` from `i` (its first character already checked): `g:on:input.debounce(300ms)` included. */
function nameEnd(text: string, i: number): number {
  let p = nameCharsEnd(text, i + 1);
  while (text.charCodeAt(p) === 40) {
    let q = p + 1;
    while (q < text.length && (isWord(text.charCodeAt(q)) || text.charCodeAt(q) === 46)) q++;
    if (text.charCodeAt(q) !== 41) break;
    p = nameCharsEnd(text, q + 1);
  }
  return p;
}

/** Where the content-mode token at `i` ends; its type is noted (`found`). */
function contentToken(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === LT) {
    const next = text.charCodeAt(i + 1);
    if (next === 33 && text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      return close >= 0 ? found(MComment, close + 3) : found(MCommentOpen, text.length);
    }
    if (next === 47) {
      if (isLetter(text.charCodeAt(i + 2))) {
        let p = nameCharsEnd(text, i + 3);
        while (text.charCodeAt(p) === 32 || text.charCodeAt(p) === 9) p++;
        if (text.charCodeAt(p) === GT) return found(CloseTag, p + 1);
      }
      return found(CloseTagOpen, i + 2);
    }
    if (isLetter(next)) return found(TagStart, nameCharsEnd(text, i + 2));
    if (next === LBRACE) return found(TagOpen, i + 1);
    return found(LtText, i + 1);
  }
  if (c === LBRACE) {
    const block = blockSyntaxEnd(text, i);
    return block >= 0 ? found(BlockSyntax, block) : found(Interp, interpEnd(text, i));
  }
  let p = i + 1;
  while (p < text.length) {
    const k = text.charCodeAt(p);
    if (k === LT || k === LBRACE) break;
    p++;
  }
  return found(Text, p);
}

/** `.x` and `#x` from `i`: `[\w:-]` after the sigil (none: the sigil alone is junk). */
function shorthandEnd(text: string, i: number): number {
  let p = i + 1;
  while (p < text.length && (isWord(text.charCodeAt(p)) || text.charCodeAt(p) === 58 || text.charCodeAt(p) === 45)) p++;
  return p;
}

/** Where the tag-mode token at `i` (not white space) ends; its type is noted (`found`). */
function tagToken(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (isLetter(c) || c === 95 || c === 64 || c === 58 || c === 36) return found(Name, nameEnd(text, i));
  const next = text.charCodeAt(i + 1);
  if (c === 46 || c === 35) {
    const end = shorthandEnd(text, i);
    if (end > i + 1) return found(c === 46 ? ClassShort : IdShort, end);
  }
  if (c === 61) return found(AttrEq, i + 1);
  if (c === QUOTE) return found(AttrString, quotedStringEnd(text, i));
  if (c === APOS) {
    let p = i + 1;
    while (p < text.length && text.charCodeAt(p) !== APOS && !isNewline(text.charCodeAt(p))) p++;
    return found(SingleQuoted, text.charCodeAt(p) === APOS ? p + 1 : p);
  }
  if (c === 47 && next === GT) return found(SelfClose, i + 2);
  if (c === GT) return found(TagClose, i + 1);
  if (c === LBRACE) return found(Interp, interpEnd(text, i));
  return found(TagJunk, i + 1);
}

/** The tokens of a markup body, as the markup lexer's default (`content`) mode gives them. */
export function scanMarkup(text: string): ILexingResult {
  const tokens: IToken[] = [];
  let tag = false;
  let i = 0;
  while (i < text.length) {
    if (tag && isSpace(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const end = tag ? tagToken(text, i) : contentToken(text, i);
    const type = scanned;
    tokens.push(offsetToken(text, i, end, type));
    if (type === TagStart || type === CloseTagOpen || type === TagOpen) tag = true;
    else if (type === TagClose || type === SelfClose) tag = false;
    i = end;
  }
  return { tokens, groups: {}, errors: [] };
}

/** The tokens of a quoted attribute's resolved value, as the markup lexer's `attr` mode gives them. */
export function scanAttrValue(text: string): ILexingResult {
  const tokens: IToken[] = [];
  let i = 0;
  while (i < text.length) {
    let end: number;
    if (text.charCodeAt(i) === LBRACE) {
      const block = blockSyntaxEnd(text, i);
      end = block >= 0 ? found(BlockSyntax, block) : found(Interp, interpEnd(text, i));
    } else {
      const brace = text.indexOf('{', i);
      end = found(AttrText, brace < 0 ? text.length : brace);
    }
    tokens.push(offsetToken(text, i, end, scanned));
    i = end;
  }
  return { tokens, groups: {}, errors: [] };
}

/**
 * The markup lexer, every mode by hand: `content` (the default, entering and leaving `tag`), `expr`
 * (expr-scanner.ts) and `attr`. Chevrotain's lexer for the same definitions (markup-lexer.ts) is
 * what the tests hold it to.
 */
export const markupLexer = {
  tokenize(text: string, mode?: 'content' | 'expr' | 'attr'): ILexingResult {
    if (mode === 'expr') return scanExpr(text);
    if (mode === 'attr') return scanAttrValue(text);
    return scanMarkup(text);
  },
};
