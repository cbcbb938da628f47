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

/** Wide positions are `WIDE + line * WIDE_UNIT + column`: above any small integer, exact as a double. */
const WIDE = 2 ** 31;
const WIDE_UNIT = 2 ** 24;

/**
 * A line and a column as one small integer, which V8 keeps in the object itself (within 30 bits and
 * a sign, small on every V8 build): `line * 65536 + column` up to line 16383 and column 65535, else
 * `-1 - (line * 1024 + column)` up to line 1048575 and column 1023 (a long source of short lines).
 * Past both (a long line deep in a long source) it is a larger number (`WIDE`), a heap number of
 * its own that only such positions pay for; a column past 2^24 (no source has one) or anything but
 * a non-negative integer is the string `line:column`. Every form is exact, so equal positions make
 * equal spans (tests compare trees by their own properties).
 */
function pack(line: number, column: number): number | string {
  if (line >= 0 && column >= 0) {
    if (line < 1 << 14 && column < 1 << 16) return (line << 16) | column;
    if (line < 1 << 20 && column < 1 << 10) return -1 - ((line << 10) | column);
    if (Number.isInteger(line) && Number.isInteger(column) && column < WIDE_UNIT)
      return WIDE + line * WIDE_UNIT + column;
  }
  return `${line}:${column}`;
}

function lineOf(p: number | string): number {
  if (typeof p === 'string') return Number(p.slice(0, p.indexOf(':')));
  if (p < 0) return (-1 - p) >>> 10;
  return p < WIDE ? p >>> 16 : Math.floor((p - WIDE) / WIDE_UNIT);
}

function columnOf(p: number | string): number {
  if (typeof p === 'string') return Number(p.slice(p.indexOf(':') + 1));
  if (p < 0) return (-1 - p) & 1023;
  return p < WIDE ? p & 0xffff : (p - WIDE) % WIDE_UNIT;
}

/**
 * The parser's ranges: one object of four fields instead of a range and two positions. A parsed file
 * holds a few hundred ranges, and a workspace keeps hundreds of thousands (as plain objects they
 * were half of an AST's memory and allocations): the two offsets, and each end's line and column
 * packed into one field (`pack`), make 56 bytes where six fields made 72. `start`/`end` answer
 * fresh `Pos` objects, so readers see the `Range` shape; JSON shows it too. Only `Shifter` moves a
 * span (in place, after an edit), through `sl`, `sc`, `el` and `ec`.
 */
export class Span implements Range {
  // Assigned by the constructor only (`declare`): no first store of `undefined` per field.
  declare so: number;
  /** The start's line and column (`pack`). */
  declare sp: number | string;
  declare eo: number;
  /** The end's line and column (`pack`). */
  declare ep: number | string;

  constructor(so: number, sl: number, sc: number, eo: number, el: number, ec: number) {
    this.so = so;
    this.sp = pack(sl, sc);
    this.eo = eo;
    this.ep = pack(el, ec);
  }

  get sl(): number {
    return lineOf(this.sp);
  }

  set sl(line: number) {
    this.sp = pack(line, columnOf(this.sp));
  }

  get sc(): number {
    return columnOf(this.sp);
  }

  set sc(column: number) {
    this.sp = pack(lineOf(this.sp), column);
  }

  get el(): number {
    return lineOf(this.ep);
  }

  set el(line: number) {
    this.ep = pack(line, columnOf(this.ep));
  }

  get ec(): number {
    return columnOf(this.ep);
  }

  set ec(column: number) {
    this.ep = pack(lineOf(this.ep), column);
  }

  get start(): Pos {
    return { offset: this.so, line: lineOf(this.sp), column: columnOf(this.sp) };
  }

  get end(): Pos {
    return { offset: this.eo, line: lineOf(this.ep), column: columnOf(this.ep) };
  }

  toJSON(): Range {
    return { start: this.start, end: this.end };
  }
}

// A field V8 has only seen small integers in holds them unboxed; the first wide position (a heap
// number) would then make every span's fields boxed doubles, 16 bytes more each. A string stored
// once makes them tagged from the start: small integers stay in the object, numbers are boxed alone.
const warm = new Span(0, 0, 0, 0, 0, 0);
warm.sp = '';
warm.ep = '';
