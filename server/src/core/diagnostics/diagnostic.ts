// Diagnostics are plain data: the CLI prints them, the language server converts them, tests compare them.
import { Span, type Range } from '#grammar/index.js';

export type Severity = 'error' | 'warning' | 'info';

export interface RelatedLocation {
  file: string;
  range: Range;
  message: string;
}

export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  file: string;
  range: Range;
  related?: RelatedLocation[];
  suggestion?: string;
}

/** Where a range starts: a parser's `Span` answers without making a `Pos` (sorts compare thousands). */
function startOffset(r: Range): number {
  return r instanceof Span ? r.so : r.start.offset;
}

/** Stable ordering for every output: file, then position, then code, then message. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  const as = startOffset(a.range);
  const bs = startOffset(b.range);
  if (as !== bs) return as - bs;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}
