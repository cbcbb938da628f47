// Maps spans inside string literals (route segments, attribute values) to document ranges.
import { type KitFile, type Range, type StringLit, positionAt, valueOffset } from '#grammar/index.js';
import type { Span } from '#shared/route/index.js';

/** Document range of `span` (offsets into `lit.value`). Falls back to the literal's range. */
export function stringSpanRange(file: Pick<KitFile, 'lineStarts'>, lit: StringLit, span: Span | undefined): Range {
  if (!span) return lit.range;
  const offs = lit.valueOffsets;
  if (offs !== undefined && offs.length !== lit.value.length + 1) return lit.range;
  const s = Math.max(0, Math.min(span.start, lit.value.length));
  const e = Math.max(s, Math.min(span.end, lit.value.length));
  return { start: positionAt(file, valueOffset(lit, s)), end: positionAt(file, valueOffset(lit, e)) };
}

/**
 * The part of `range` between its quotes when the text there is exactly `value` (an attribute's
 * range holds its quotes; a value written with escapes or references reads otherwise in the text).
 */
export function unquotedRange(text: string, range: Range, value: string): Range | undefined {
  const { start, end } = range;
  const q = text[start.offset];
  if ((q !== '"' && q !== "'") || end.offset - start.offset < 2 || text[end.offset - 1] !== q) return undefined;
  if (text.slice(start.offset + 1, end.offset - 1) !== value) return undefined;
  return {
    start: { offset: start.offset + 1, line: start.line, column: start.column + 1 },
    end: { offset: end.offset - 1, line: end.line, column: end.column - 1 },
  };
}
