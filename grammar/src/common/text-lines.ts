// Offset ↔ position conversion. Line breaks are `\n`, `\r\n` and a lone `\r`, as in the LSP, and
// columns count UTF-16 code units, which is what JavaScript string indices already are.
import type { Pos, Range } from '../ast.js';

/**
 * `a` with no spare capacity. Arrays grown by `push` keep room for more (17 slots after the first
 * push); an AST holds hundreds of short arrays, so the parser hands over exact-size copies.
 */
export function exact<T>(a: T[]): T[] {
  return a.length === 0 ? [] : a.slice();
}

/** Offsets at which each line starts; the first entry is always 0. */
export function computeLineStarts(text: string): number[] {
  const starts = [0];
  const n = text.length;
  let i = text.indexOf('\n');
  if (text.indexOf('\r') < 0) {
    // The common case: only `\n` breaks, found with the engine's fast search.
    while (i >= 0) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    return starts;
  }
  for (i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (i + 1 < n && text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** Index of the line holding `offset` (the last line start ≤ offset). */
export function lineIndexAt(lineStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Position of an offset, clamped into [0, length] when a length is known. */
export function positionAt(file: { lineStarts: readonly number[]; length?: number }, offset: number): Pos {
  let off = Number.isFinite(offset) ? Math.floor(offset) : 0;
  if (off < 0) off = 0;
  if (file.length !== undefined && off > file.length) off = file.length;
  const line = lineIndexAt(file.lineStarts, off);
  return { offset: off, line, column: off - file.lineStarts[line] };
}

/**
 * Offset of a (line, column) position. Out-of-range lines clamp to the first/last line; a column past
 * the end of its line clamps to the line's end (before its line break) when the length is known.
 */
export function offsetAt(
  file: { lineStarts: readonly number[]; length?: number },
  line: number,
  column: number,
): number {
  const starts = file.lineStarts;
  if (!(line >= 0)) return 0;
  if (line >= starts.length) return file.length ?? starts[starts.length - 1];
  const start = starts[line];
  let off = start + Math.max(0, Math.floor(column) || 0);
  const next = line + 1 < starts.length ? starts[line + 1] : file.length;
  if (next !== undefined && off > next) off = next;
  return off;
}

/**
 * Builds positions for one source text. Parsing asks for offsets in mostly increasing order, so the
 * line of the previous answer is tried first before a binary search.
 */
export class PosMaker {
  private hint = 0;
  constructor(
    readonly lineStarts: readonly number[],
    readonly length: number,
  ) {}

  pos(offset: number): Pos {
    const off = this.clamp(offset);
    const line = this.lineOf(off);
    return { offset: off, line, column: off - this.lineStarts[line] };
  }

  range(start: number, end: number): Range {
    const so = this.clamp(start);
    const sl = this.lineOf(so);
    const eo = end < start ? so : this.clamp(end);
    const el = this.lineOf(eo);
    return new Span(so, sl, so - this.lineStarts[sl], eo, el, eo - this.lineStarts[el]);
  }

  private clamp(offset: number): number {
    // Defensive: a token inserted by parser recovery has no offset; never produce NaN.
    if (!(offset >= 0)) return 0;
    return offset > this.length ? this.length : offset;
  }

  private lineOf(off: number): number {
    const starts = this.lineStarts;
    let line = this.hint;
    if (!(starts[line] <= off && (line + 1 >= starts.length || starts[line + 1] > off))) {
      if (line + 1 < starts.length && starts[line + 1] <= off && (line + 2 >= starts.length || starts[line + 2] > off))
        line++;
      else line = lineIndexAt(starts, off);
      this.hint = line;
    }
    return line;
  }
}

/**
 * The parser's ranges: one object of six numbers instead of a range and two positions. A parsed file
 * holds a few hundred ranges; as plain objects they were half of its AST's memory and allocations.
 * `start`/`end` answer fresh `Pos` objects, so readers see the `Range` shape; JSON shows it too.
 * Only `Shifter` moves a span (in place, after an edit).
 */
export class Span implements Range {
  constructor(
    public so: number,
    public sl: number,
    public sc: number,
    public eo: number,
    public el: number,
    public ec: number,
  ) {}

  get start(): Pos {
    return { offset: this.so, line: this.sl, column: this.sc };
  }

  get end(): Pos {
    return { offset: this.eo, line: this.el, column: this.ec };
  }

  toJSON(): Range {
    return { start: this.start, end: this.end };
  }
}
