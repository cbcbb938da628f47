// Maps spans inside string literals (route segments, attribute values) to document ranges.
import { type KitFile, type Range, type StringLit, positionAt, valueOffset } from '../../../../grammar/src/index.js';
import type { Span } from '../../../../shared/route/index.js';

/** Document range of `span` (offsets into `lit.value`). Falls back to the literal's range. */
export function stringSpanRange(file: Pick<KitFile, 'lineStarts'>, lit: StringLit, span: Span | undefined): Range {
  if (!span) return lit.range;
  const offs = lit.valueOffsets;
  if (offs !== undefined && offs.length !== lit.value.length + 1) return lit.range;
  const s = Math.max(0, Math.min(span.start, lit.value.length));
  const e = Math.max(s, Math.min(span.end, lit.value.length));
  return { start: positionAt(file, valueOffset(lit, s)), end: positionAt(file, valueOffset(lit, e)) };
}
