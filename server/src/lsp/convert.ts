// Conversions between the core's plain data and LSP shapes. The core's ranges already count UTF-16
// units (as the LSP does), so positions convert field by field; offsets of an LSP position come from
// the parsed file's line table.
import {
  DiagnosticSeverity,
  type Diagnostic as LspDiagnostic,
  type DiagnosticRelatedInformation,
  type Position,
  type Range as LspRange,
} from 'vscode-languageserver';
import { type Pos, type Range, offsetAt, positionAt } from '#grammar/index.js';
import { URI } from 'vscode-uri';
import type { Diagnostic, Severity } from '#core/diagnostics/diagnostic.js';

/** Keys of documents that are not files are their URIs (`untitled:Untitled-1`), never a drive path. */
export function isUriKey(key: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]+:/.test(key) && !/^[A-Za-z]:[\\/]/.test(key);
}

/** The file path of a document URI; documents that are not files (untitled buffers) are named by their URI. */
export function fsPathOf(uri: string): string {
  const u = URI.parse(uri);
  return u.scheme === 'file' ? u.fsPath : uri;
}

/** Maps a workspace path (as the core spells it) to the URI the client knows it by. */
export type UriOf = (path: string) => string;

export function toPosition(p: Pos): Position {
  return { line: p.line, character: p.column };
}

export function toRange(r: Range): LspRange {
  return { start: toPosition(r.start), end: toPosition(r.end) };
}

/** Offset of an LSP position in a file with the given line table (clamped into the text). */
export function offsetOf(file: { lineStarts: readonly number[]; length: number }, p: Position): number {
  return offsetAt(file, p.line, p.character);
}

export function rangeOfOffsets(
  file: { lineStarts: readonly number[]; length: number },
  start: number,
  end: number,
): LspRange {
  return { start: toPosition(positionAt(file, start)), end: toPosition(positionAt(file, end)) };
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

export function toLspDiagnostic(d: Diagnostic, uriOf: UriOf): LspDiagnostic {
  const out: LspDiagnostic = {
    range: toRange(d.range),
    severity: SEVERITY[d.severity],
    code: d.code,
    source: 'kit',
    message: d.suggestion ? `${d.message}\n${d.suggestion}` : d.message,
  };
  if (d.related?.length) {
    out.relatedInformation = d.related.map(
      (r): DiagnosticRelatedInformation => ({
        location: { uri: uriOf(r.file), range: toRange(r.range) },
        message: r.message,
      }),
    );
  }
  return out;
}

/** Does `offset` fall inside `r` (end inclusive, so a cursor right after a word still hits it)? */
export function contains(r: Range, offset: number): boolean {
  return r.start.offset <= offset && offset <= r.end.offset;
}
