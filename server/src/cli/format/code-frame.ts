// Code frames for human output: the source line(s) of a range under a gutter of line numbers, the
// range underlined `^~~~` (a multi-line range: its first and last line). Columns are display
// columns: a tab is 4 columns, East Asian wide characters and emoji 2, combining marks 0, so the
// underline sits under the characters on a terminal. A pure function of the range and the text.
import type { Pos, Range } from '../../../../grammar/src/ast.js';
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

/** A line as shown (tabs expanded, control characters as spaces) and the display column of each UTF-16 index. */
function layout(line: string): { shown: string; col: number[] } {
  let shown = '';
  const col: number[] = [];
  let w = 0;
  for (let i = 0; i < line.length; ) {
    const cp = line.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    for (let k = 0; k < units; k++) col.push(w);
    if (cp === 9) {
      shown += TAB;
      w += TAB.length;
    } else if (cp < 0x20 || cp === 0x7f) {
      shown += ' ';
      w += 1;
    } else {
      shown += String.fromCodePoint(cp);
      w += charWidth(cp);
    }
    i += units;
  }
  col.push(w);
  return { shown, col };
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
  const frameLine = (n: number, line: string, from: number | undefined, to: number | undefined) => {
    const { shown, col } = layout(line);
    out.push(`${gutter(n + 1)}${shown ? ' ' + shown : ''}`);
    const a = col[Math.min(from ?? 0, line.length)];
    const b = to === undefined ? col[line.length] : col[Math.min(to, line.length)];
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
    frameLine(last, endLine, Math.min(indent, range.end.column), range.end.column);
  }
  return out.map((l) => l + '\n').join('');
}
