// Top-level splitting: the file is cut, line by line and without a lexer, into chunks that start at
// line starts. Each chunk is parsed on its own, which keeps errors local (a broken line never hides
// the next declaration) and lets an edit re-parse only the chunks it touches.
import { DECLARATION_KEYWORD_SET } from '#shared/language/facts.js';

/**
 * `line`: a one-line declaration (or anything else outside blocks); `comment`: a `//` line;
 * `markup`: `view {` / `fragment ... {`, ended by a line that is exactly `}`; `braces`: a block whose
 * body ends at the `}` that balances its header (`paths`, `server`, `props`, unsupported blocks);
 * `style`: the same with CSS rules for strings and comments.
 */
export type ChunkKind = 'line' | 'comment' | 'markup' | 'braces' | 'style';

export interface Chunk {
  kind: ChunkKind;
  /** Offset of the first character (a line start). */
  start: number;
  /** Offset just past the chunk: the start of the line after it, or the text length. */
  end: number;
  /** Line index of `start`. */
  line: number;
  /** Line index just past the chunk (the line holding `end` when `end` is a line start). */
  endLine: number;
  /** End of the header line's content (before its line break). */
  headerEnd: number;
  /** Blocks: the start of the line after the header (equals `end` when there is none). */
  bodyStart: number;
  /**
   * Blocks: where the body ends. Markup: the start of the closing `}` line. Braces/style: the start of
   * the closing line when `}` is the first thing on it, else the offset of the closing `}`. For an
   * unterminated block: `end`.
   */
  bodyEnd: number;
  /** Offset of the closing `}`, or -1 when the block is unterminated. */
  close: number;
  /** End of the closing line's content. */
  closeLineEnd: number;
}

export interface SplitSource {
  text: string;
  lineStarts: readonly number[];
}

/** End of line `i`'s content: the offset of its line break, or the text length. */
export function lineContentEnd(src: SplitSource, i: number): number {
  const { text, lineStarts } = src;
  if (i + 1 >= lineStarts.length) return text.length;
  let e = lineStarts[i + 1] - 1;
  if (text.charCodeAt(e) === 10 && e > lineStarts[i] && text.charCodeAt(e - 1) === 13) e--;
  return e;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 12 || c === 11 || c === 0xfeff;
}

function lineStartOf(src: SplitSource, i: number): number {
  return i < src.lineStarts.length ? src.lineStarts[i] : src.text.length;
}

/** Recovery point for unterminated blocks: a top-level keyword at column 0 followed by a space or `{`. */
export function isRecoveryLine(text: string, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c < 97 || c > 122) break;
    i++;
  }
  if (i === start || i >= end) return false;
  const next = text.charCodeAt(i);
  if (next !== 32 && next !== 9 && next !== 123) return false;
  return DECLARATION_KEYWORD_SET.has(text.slice(start, i));
}

/**
 * Scans one header line for strings and a `//` comment: answers whether its last token is `{`, and the
 * first word (for block classification).
 */
function headerInfo(text: string, from: number, end: number): { opens: boolean; word: string; second: string } {
  let last = -1;
  let i = from;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      last = c;
      i++;
      while (i < end) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 47) break;
    if (!isSpace(c)) last = c;
    i++;
  }
  if (last !== 123) return { opens: false, word: '', second: '' };
  const w = /^([A-Za-z_@][\w.@-]*)[ \t]*([A-Za-z_][\w.-]*)?/.exec(text.slice(from, Math.min(end, from + 80)));
  return { opens: true, word: w ? w[1] : '', second: w && w[2] ? w[2] : '' };
}

/** Classifies a block header by its first word(s). */
function blockKind(word: string, second: string): ChunkKind {
  if (word === 'view' || word === 'fragment') return 'markup';
  if (word === 'style') return 'style';
  void second;
  return 'braces';
}

/** Returns the chunk that starts at or after line `lineIdx`, or undefined at the end of the text. */
export function nextChunk(src: SplitSource, lineIdx: number): Chunk | undefined {
  const { text, lineStarts } = src;
  const lineCount = lineStarts.length;
  let i = lineIdx;
  for (; i < lineCount; i++) {
    const s = lineStarts[i];
    const e = lineContentEnd(src, i);
    let f = s;
    while (f < e && isSpace(text.charCodeAt(f))) f++;
    if (f === e) continue; // blank line
    if (text.charCodeAt(f) === 47 && text.charCodeAt(f + 1) === 47) {
      return single('comment', src, i, s, e);
    }
    const h = headerInfo(text, f, e);
    if (!h.opens) return single('line', src, i, s, e);
    const kind = blockKind(h.word, h.second);
    if (kind === 'markup') return markupBlock(src, i, s, e);
    return braceBlock(src, i, s, e, kind);
  }
  return undefined;
}

function single(kind: ChunkKind, src: SplitSource, i: number, s: number, e: number): Chunk {
  const end = lineStartOf(src, i + 1);
  return {
    kind,
    start: s,
    end,
    line: i,
    endLine: i + 1,
    headerEnd: e,
    bodyStart: end,
    bodyEnd: end,
    close: -1,
    closeLineEnd: e,
  };
}

function markupBlock(src: SplitSource, i: number, s: number, e: number): Chunk {
  const { text, lineStarts } = src;
  const bodyStart = lineStartOf(src, i + 1);
  for (let j = i + 1; j < lineStarts.length; j++) {
    const ls = lineStarts[j];
    const le = lineContentEnd(src, j);
    if (isRecoveryLine(text, ls, le)) {
      return {
        kind: 'markup',
        start: s,
        end: ls,
        line: i,
        endLine: j,
        headerEnd: e,
        bodyStart,
        bodyEnd: ls,
        close: -1,
        closeLineEnd: ls,
      };
    }
    let f = ls;
    while (f < le && isSpace(text.charCodeAt(f))) f++;
    if (f < le && text.charCodeAt(f) === 125) {
      let g = f + 1;
      while (g < le && isSpace(text.charCodeAt(g))) g++;
      if (g === le) {
        const end = lineStartOf(src, j + 1);
        return {
          kind: 'markup',
          start: s,
          end,
          line: i,
          endLine: j + 1,
          headerEnd: e,
          bodyStart,
          bodyEnd: ls,
          close: f,
          closeLineEnd: le,
        };
      }
    }
  }
  const end = text.length;
  return {
    kind: 'markup',
    start: s,
    end,
    line: i,
    endLine: lineStarts.length,
    headerEnd: e,
    bodyStart,
    bodyEnd: end,
    close: -1,
    closeLineEnd: end,
  };
}

/**
 * A block ended by brace depth. Strings never span lines; `//` comments (record blocks) or `/* *\/`
 * comments and single-quoted strings (CSS) are skipped. At each line start inside the body a
 * recovery line ends an unterminated block.
 */
function braceBlock(src: SplitSource, i: number, s: number, e: number, kind: ChunkKind): Chunk {
  const { text, lineStarts } = src;
  const css = kind === 'style';
  const bodyStart = lineStartOf(src, i + 1);
  let depth = 0;
  let inBlockComment = false;
  for (let j = i; j < lineStarts.length; j++) {
    const ls = lineStarts[j];
    const le = lineContentEnd(src, j);
    if (j > i && !inBlockComment && isRecoveryLine(text, ls, le)) {
      return {
        kind,
        start: s,
        end: ls,
        line: i,
        endLine: j,
        headerEnd: e,
        bodyStart,
        bodyEnd: ls,
        close: -1,
        closeLineEnd: ls,
      };
    }
    let k = ls;
    while (k < le) {
      const c = text.charCodeAt(k);
      if (inBlockComment) {
        if (c === 42 && text.charCodeAt(k + 1) === 47) {
          inBlockComment = false;
          k += 2;
        } else k++;
        continue;
      }
      if (c === 34 || (css && c === 39)) {
        k++;
        while (k < le) {
          const d = text.charCodeAt(k);
          if (d === 92) k += 2;
          else if (d === c) break;
          else k++;
        }
        k++;
        continue;
      }
      if (c === 47) {
        const n = text.charCodeAt(k + 1);
        if (!css && n === 47) break;
        if (css && n === 42) {
          inBlockComment = true;
          k += 2;
          continue;
        }
      }
      if (c === 123) depth++;
      else if (c === 125 && depth > 0) {
        depth--;
        if (depth === 0) {
          let f = ls;
          while (f < k && isSpace(text.charCodeAt(f))) f++;
          const bodyEnd = j === i ? k : f === k ? ls : k;
          const end = lineStartOf(src, j + 1);
          return {
            kind,
            start: s,
            end,
            line: i,
            endLine: j + 1,
            headerEnd: e,
            bodyStart: j === i ? k : bodyStart,
            bodyEnd,
            close: k,
            closeLineEnd: le,
          };
        }
      }
      k++;
    }
  }
  const end = text.length;
  return {
    kind,
    start: s,
    end,
    line: i,
    endLine: lineStarts.length,
    headerEnd: e,
    bodyStart,
    bodyEnd: end,
    close: -1,
    closeLineEnd: end,
  };
}

/** Splits a whole text. */
export function splitAll(src: SplitSource): Chunk[] {
  const chunks: Chunk[] = [];
  let line = 0;
  for (;;) {
    const c = nextChunk(src, line);
    if (!c) break;
    chunks.push(c);
    line = c.endLine;
  }
  return chunks;
}
