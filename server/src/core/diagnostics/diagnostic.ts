// Diagnostics are plain data: the CLI prints them, the language server converts them, tests compare them.
import type { Range } from '#grammar/index.js';

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

/** Stable ordering for every output: file, then position, then code, then message. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.range.start.offset !== b.range.start.offset) return a.range.start.offset - b.range.start.offset;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}
