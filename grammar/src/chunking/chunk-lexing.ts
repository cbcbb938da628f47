// Lexing of chunk runs: the declaration tokens of consecutive chunks in one lexer call, and the
// token count of the lexing-only baseline.
import type { IToken } from 'chevrotain';
import { declLexer } from '../declarations/decl-scanner.js';
import { AttrString, Interp } from '../markup/markup-lexer.js';
import { markupLexer } from '../markup/markup-scanner.js';
import type { Chunk } from './split.js';
import { resolveEscapes } from '../common/string-literal.js';

/**
 * Declaration tokens of a run of chunks, lexed in one call: the declaration lexer's tokens never
 * cross a line break, so lexing a span of whole lines equals lexing its chunks one by one, without
 * the lexer's fixed cost per call.
 */
export interface PreLexed {
  base: number;
  end: number;
  tokens: IToken[];
  comments: IToken[];
}

/** Tokens (sorted by offset) starting in [from, to), relative offsets. */
export function tokensIn(tokens: IToken[], from: number, to: number): IToken[] {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].startOffset < from) lo = mid + 1;
    else hi = mid;
  }
  let e = lo;
  while (e < tokens.length && tokens[e].startOffset < to) e++;
  return tokens.slice(lo, e);
}

/**
 * Groups chunks into runs whose declaration text is lexed together: line, comment and brace-block
 * chunks, plus the header line of the view, fragment or style block that ends the run.
 */
export function lexRuns(
  text: string,
  chunks: readonly Chunk[],
  each: (pre: PreLexed, from: number, to: number) => void,
): void {
  let i = 0;
  while (i < chunks.length) {
    let k = i;
    while (
      k < chunks.length &&
      (chunks[k].kind === 'line' || chunks[k].kind === 'comment' || chunks[k].kind === 'braces')
    )
      k++;
    const base = chunks[i].start;
    const end = k < chunks.length ? chunks[k].headerEnd : chunks[k - 1].end;
    const res = declLexer.tokenize(text.slice(base, end));
    each(
      { base, end, tokens: res.tokens, comments: (res.groups.comments as IToken[] | undefined) ?? [] },
      i,
      Math.min(k + 1, chunks.length),
    );
    i = k + 1;
  }
}

/** Token count of all chunks, for the lexing-only baseline: the same lexer calls `parseKit` makes. */
export function lexChunks(text: string, chunks: readonly Chunk[]): number {
  let n = 0;
  lexRuns(text, chunks, (pre, from, to) => {
    n += pre.tokens.length + pre.comments.length;
    for (let i = from; i < to; i++) {
      const c = chunks[i];
      if (c.kind === 'markup') n += lexMarkup(text.slice(c.bodyStart, c.bodyEnd));
    }
  });
  return n;
}

/**
 * Every token of a markup body: the body itself, then the inside of each `{...}` (expression tokens)
 * and each quoted attribute value that holds one (after escapes are resolved), as a lexer with no
 * parser would have to produce them.
 */
function lexMarkup(body: string): number {
  const toks = markupLexer.tokenize(body).tokens;
  let n = toks.length;
  for (const t of toks) {
    if (t.tokenType === Interp) n += lexInterp(t.image);
    else if (t.tokenType === AttrString && t.image.indexOf('{') >= 0) {
      const value = resolveEscapes(t.image, (i) => i).value;
      for (const v of markupLexer.tokenize(value, 'attr').tokens) {
        n += 1 + (v.tokenType === Interp ? lexInterp(v.image) : 0);
      }
    }
  }
  return n;
}

function lexInterp(image: string): number {
  const closed = image.charCodeAt(image.length - 1) === 125 && image.length >= 2;
  return markupLexer.tokenize(image.slice(1, closed ? -1 : undefined), 'expr').tokens.length;
}
