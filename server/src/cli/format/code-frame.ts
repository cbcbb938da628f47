// Code frames for human output: the source line(s) of a range under a gutter of line numbers, the
// range underlined `^~~~` (a multi-line range: its first and last line). Columns are display
// columns: a tab is 4 columns, East Asian wide characters and emoji 2, combining marks 0, so the
// underline sits under the characters on a terminal. A line wider than the frame is clipped to a
// window around the range, `…` on the clipped side. A pure function of the range and the text.
import type { Pos, Range } from '#grammar/index.js';
import { paint } from '../io.js';

const TAB = '    ';

/** Terminal columns a code point takes. */
function charWidth(cp: number): number {
  if (cp === 0x200b || cp === 0x200c || cp === 0x200d || cp === 0xfeff) return 0;
  if ((cp >= 0x0300 && cp <= 0x036f) || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0x20d0 && cp <= 0x20ff)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** One code point as shown: its text (a tab expanded, a control character a space) and its display columns. */
interface Cell {
  text: string;
  /** Display column where the code point starts, counted from the start of the laid-out slice. */
  col: number;
  width: number;
  /** UTF-16 index of the code point in the line, and of the one after it. */
  at: number;
  next: number;
}

/** The cells of `line[from, to)` (`from` and `to` on code point boundaries). */
function layout(line: string, from: number, to: number): Cell[] {
  const cells: Cell[] = [];
  let w = 0;
  for (let i = from; i < to; ) {
    const cp = line.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    let text: string;
    let width: number;
    if (cp === 9) [text, width] = [TAB, TAB.length];
    else if (cp < 0x20 || cp === 0x7f) [text, width] = [' ', 1];
    else [text, width] = [String.fromCodePoint(cp), charWidth(cp)];
    cells.push({ text, col: w, width, at: i, next: i + units });
    w += width;
    i += units;
  }
  return cells;
}

/**
 * Display columns of source a frame line shows at most: a longer line (a minified page, ten
 * thousand tags on one line) is clipped to a window around the range, marked `…` on the clipped
 * side, so that a frame stays one terminal line whatever the file holds.
 */
export const FRAME_WIDTH = 100;
/** Columns of context kept before the range when a line is clipped. */
const CONTEXT_BEFORE = 30;
const ELLIPSIS = '…';
/** A line of these characters only is shown as it is, a column per character. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** `i` moved back off the low half of a surrogate pair, so that a slice never splits a code point. */
function boundary(line: string, i: number): number {
  if (i <= 0 || i >= line.length) return Math.max(0, Math.min(i, line.length));
  const c = line.charCodeAt(i);
  const prev = line.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && prev >= 0xd800 && prev <= 0xdbff ? i - 1 : i;
}

/**
 * A frame line: the shown text and where its underline starts and ends (display columns of the
 * shown text). `from`/`to` are UTF-16 indices in the line; `anchorEnd` keeps the range's end in
 * view rather than its start (the last line of a multi-line range).
 */
function frameText(
  line: string,
  from: number,
  to: number,
  anchorEnd: boolean,
): { shown: string; a: number; b: number } {
  // Most lines are short printable ASCII: one column per UTF-16 unit, nothing to clip or lay out.
  if (line.length <= FRAME_WIDTH && PRINTABLE_ASCII.test(line)) return { shown: line, a: from, b: to };
  // Only a slice around the anchor is laid out, so a frame costs the same on a 50 KB line: a code
  // point takes at most 4 columns and one of 0 columns is rare, so `reach` units either side
  // cover the window.
  const reach = 2 * FRAME_WIDTH;
  const anchor = anchorEnd ? to : from;
  const sliceFrom = boundary(line, anchor - reach);
  const sliceTo = boundary(line, anchor + reach);
  const cells = layout(line, sliceFrom, sliceTo);
  const end = cells.length ? cells[cells.length - 1].col + cells[cells.length - 1].width : 0;
  /** The display column of UTF-16 index `i`: of the code point holding it, or the first after it. */
  const colOf = (i: number): number => {
    let lo = 0;
    let hi = cells.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cells[mid].next <= i) lo = mid + 1;
      else hi = mid;
    }
    return lo < cells.length ? cells[lo].col : end;
  };
  const a = colOf(from);
  const b = colOf(to);
  const cutLeft = sliceFrom > 0;
  const cutRight = sliceTo < line.length;
  if (!cutLeft && !cutRight && end <= FRAME_WIDTH) return { shown: cells.map((c) => c.text).join(''), a, b };
  // The window [lo, hi) in slice columns: the range's start with some context before it (its end,
  // for `anchorEnd`, when the range is wider than the window), moved left when the line ends first.
  let lo = a - CONTEXT_BEFORE;
  if (anchorEnd && b > lo + FRAME_WIDTH - 1) lo = b - (FRAME_WIDTH - CONTEXT_BEFORE);
  if (!cutRight) lo = Math.min(lo, end - FRAME_WIDTH);
  lo = Math.max(0, lo);
  const hi = lo + FRAME_WIDTH;
  const inside = cells.filter((c) => c.col >= lo && c.col + c.width <= hi);
  const left = cutLeft || lo > 0;
  const right = cutRight || end > hi;
  const first = inside.length ? inside[0].col : lo;
  const last = inside.length ? inside[inside.length - 1].col + inside[inside.length - 1].width : lo;
  const shift = (left ? ELLIPSIS.length : 0) - first;
  const clamp = (c: number) => Math.max(first, Math.min(c, last)) + shift;
  return {
    shown: (left ? ELLIPSIS : '') + inside.map((c) => c.text).join('') + (right ? ELLIPSIS : ''),
    a: clamp(a),
    b: clamp(b),
  };
}

/** The text of line `n` (0-based) that `p` lies on, found from the position's own offset and column. */
function lineAt(text: string, p: Pos): string {
  const start = Math.max(0, Math.min(text.length, p.offset - p.column));
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return text.slice(start, end);
}

function underline(from: number, to: number): string {
  return ' '.repeat(from) + '^' + '~'.repeat(Math.max(0, to - from - 1));
}

export interface FrameStyle {
  color: boolean;
  /** ANSI code of the underline (the severity's colour). */
  mark: string;
}

/** The frame of `range` in `text`, each line ending in a line break; '' when the text is unknown. */
export function codeFrame(text: string | undefined, range: Range, style: FrameStyle): string {
  if (text === undefined || range.start.offset > text.length) return '';
  const first = range.start.line;
  const last = Math.max(first, range.end.line);
  const width = String(last + 1).length;
  const gutter = (n?: number) =>
    paint(style.color, '34;1', `${n === undefined ? ' '.repeat(width) : String(n).padStart(width)} |`);
  const out: string[] = [];
  const frameLine = (n: number, line: string, from: number, to: number | undefined, anchorEnd = false) => {
    const f = Math.min(from, line.length);
    const { shown, a, b } = frameText(line, f, to === undefined ? line.length : Math.min(to, line.length), anchorEnd);
    out.push(`${gutter(n + 1)}${shown ? ' ' + shown : ''}`);
    out.push(`${gutter()} ${paint(style.color, style.mark, underline(a, Math.max(b, a + 1)))}`);
  };
  out.push(gutter());
  const startLine = lineAt(text, range.start);
  if (last === first) {
    frameLine(first, startLine, range.start.column, range.end.column);
  } else {
    frameLine(first, startLine, range.start.column, undefined);
    if (last > first + 1) out.push(paint(style.color, '34;1', `${' '.repeat(width)}...`));
    const endLine = lineAt(text, range.end);
    const indent = endLine.length - endLine.trimStart().length;
    frameLine(last, endLine, Math.min(indent, range.end.column), range.end.column, true);
  }
  return out.map((l) => l + '\n').join('');
}
