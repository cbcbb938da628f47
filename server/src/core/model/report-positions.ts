// Report positions: 1-based lines and columns, columns counted in Unicode code points (the LSP
// converts to UTF-16 itself; the AST counts UTF-16 units).
import type { Pos, Range } from '#grammar/index.js';

export interface ReportPos {
  line: number;
  column: number;
}
export interface ReportRange {
  start: ReportPos;
  end: ReportPos;
}

/** Text lookup for a file's source, so that columns can be converted to code points. */
export type SourceLookup = (file: string) => string | undefined;

/**
 * The last column counted: diagnostics come in position order, so the next one on the same line
 * counts on from here instead of from the line's start (ten thousand errors on one 50 KB line
 * would otherwise cost a count of the whole line each).
 */
let last: { text: string; lineStart: number; offset: number; n: number } | undefined;

/** Whether the last text asked about holds a surrogate (most hold none: a code point per unit). */
let surrogates: { text: string; has: boolean } | undefined;

function hasSurrogates(text: string): boolean {
  if (surrogates?.text !== text) surrogates = { text, has: /[\ud800-\udfff]/.test(text) };
  return surrogates.has;
}

function codePointColumn(text: string | undefined, p: Pos): number {
  if (!text) return p.column + 1;
  const lineStart = p.offset - p.column;
  if (lineStart < 0) return p.column + 1;
  // Every unit a code point of its own: the column is the count of units, no need to walk the line.
  if (p.offset <= text.length && !hasSurrogates(text)) return p.column + 1;
  const resume = last && last.text === text && last.lineStart === lineStart && last.offset <= p.offset;
  let n = resume ? last!.n : 0;
  const from = resume ? last!.offset : lineStart;
  for (let i = from; i < p.offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    // The low half of a surrogate pair is part of the previous code point.
    if (c >= 0xdc00 && c <= 0xdfff && i > lineStart) {
      const prev = text.charCodeAt(i - 1);
      if (prev >= 0xd800 && prev <= 0xdbff) continue;
    }
    n++;
  }
  last = { text, lineStart, offset: p.offset, n };
  return n + 1;
}

export function reportPos(text: string | undefined, p: Pos): ReportPos {
  return { line: p.line + 1, column: codePointColumn(text, p) };
}

export function reportRange(text: string | undefined, r: Range): ReportRange {
  return { start: reportPos(text, r.start), end: reportPos(text, r.end) };
}
