// Whole-file parsing and incremental re-parsing. A file is the concatenation of its chunks' results;
// the chunks of the last parse are remembered on the KitFile so that `reparseKit` can keep the
// chunks an edit did not touch.
import type { Declaration, FileKind, KitFile, LineComment, SyntaxDiagnostic } from './ast.js';
import { lexChunks, lexRuns, parseChunk, trimEnd, type ChunkResult } from './declarations/declarations.js';
import { diag } from './common/diagnostics.js';
import { reparseInsideMarkup } from './markup/markup-reuse.js';
import { Shifter } from './chunking/shift.js';
import { nextChunk, splitAll, type Chunk, type SplitSource } from './chunking/split.js';
import { computeLineStarts, lineIndexAt, PosMaker } from './common/text-lines.js';

interface ParsedChunk {
  chunk: Chunk;
  result: ChunkResult;
}

// The chunks of a parse ride on the KitFile under a non-enumerable symbol: invisible to equality
// checks, JSON and structured cloning, and (unlike a WeakMap, whose entries V8's young-generation
// collector keeps alive) free for the garbage collector.
const CHUNKS = Symbol('kit.chunks');
type WithChunks = KitFile & { [CHUNKS]?: ParsedChunk[] };

function chunksOf(file: KitFile): ParsedChunk[] | undefined {
  return (file as WithChunks)[CHUNKS];
}
/**
 * True when `reparseKit` can re-parse `file` by its chunks: it was parsed with `incremental` (the
 * default) and not consumed by a later re-parse. Any other tree is re-parsed in full.
 */
export function isReparseable(file: KitFile): boolean {
  return chunksOf(file) !== undefined;
}

/** Answers false when the file cannot carry them (a frozen copy, say): it is then re-parsed in full. */
function setChunks(file: KitFile, chunks: ParsedChunk[] | undefined): boolean {
  try {
    Object.defineProperty(file, CHUNKS, { value: chunks, enumerable: false, writable: true, configurable: true });
    return true;
  } catch {
    return false;
  }
}

export function fileKindFromPath(path: string): FileKind {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const base = path.slice(slash + 1);
  if (base.endsWith('.cmp.kit')) return 'component';
  if (base.endsWith('.layout.kit')) return 'layout';
  return 'page';
}

function assemble(path: string, text: string, lineStarts: number[], parsed: ParsedChunk[], keepChunks = true): KitFile {
  const declarations: Declaration[] = [];
  const comments: LineComment[] = [];
  const diagnostics: SyntaxDiagnostic[] = [];
  let kind = fileKindFromPath(path);
  for (const { result } of parsed) {
    for (const d of result.decls) {
      declarations.push(d);
      if (d.kind === 'component') kind = 'component';
    }
    for (const c of result.comments) comments.push(c);
    for (const d of result.diags) diagnostics.push(d);
  }
  const file: KitFile = { path, kind, declarations, comments, diagnostics, lineStarts, length: text.length };
  if (keepChunks) setChunks(file, parsed);
  return file;
}

function failed(path: string, text: string, e: unknown): KitFile {
  // Never reached by design; a parse must not throw whatever the input.
  const lineStarts = computeLineStarts(text);
  const pm = new PosMaker(lineStarts, text.length);
  const message = `internal parser error: ${(e as Error)?.message ?? String(e)}`;
  return {
    path,
    kind: fileKindFromPath(path),
    declarations: [],
    comments: [],
    diagnostics: [
      diag('parse_error', message, pm.range(0, trimEnd(text, 0, Math.min(text.length, lineStarts[1] ?? text.length)))),
    ],
    lineStarts,
    length: text.length,
  };
}

export interface ParseOptions {
  /**
   * Keep what `reparseKit` needs to re-parse only the chunks an edit touches (default true). A
   * one-shot reader (the command line) passes false and saves a tenth of the tree's memory.
   */
  incremental?: boolean;
}

/** Parses a `.kit` source. Never throws; problems are `diagnostics`. */
export function parseKit(text: string, path: string, options?: ParseOptions): KitFile {
  return parseWhole(text, path, true, options?.incremental !== false);
}

/**
 * The declarations of a `.kit` source: every view is parsed without its markup (an empty `body`,
 * no markup diagnostics), and the tree is one-shot (`reparseKit` parses it again in full). For a
 * reader that needs the declarations first and the markup of a few files only (`kit dev`
 * answering its first page); `parseKit` on the same text gives the whole tree. Fragments keep
 * their markup: their bodies are endpoints' answers.
 */
export function parseKitDeclarations(text: string, path: string): KitFile {
  return parseWhole(text, path, false, false);
}

function parseWhole(text: string, path: string, views: boolean, incremental: boolean): KitFile {
  try {
    const lineStarts = computeLineStarts(text);
    const pm = new PosMaker(lineStarts, text.length);
    const chunks = splitAll({ text, lineStarts });
    const parsed: ParsedChunk[] = new Array(chunks.length);
    lexRuns(text, chunks, (pre, from, to) => {
      for (let i = from; i < to; i++)
        parsed[i] = { chunk: chunks[i], result: parseChunk(text, pm, chunks[i], pre, views) };
    });
    return assemble(path, text, lineStarts, parsed, views && incremental);
  } catch (e) {
    return failed(path, text, e);
  }
}

/** Runs the same lexers as `parseKit` over the same chunks and answers the token count. */
export function lexOnly(text: string): number {
  const lineStarts = computeLineStarts(text);
  return lexChunks(text, splitAll({ text, lineStarts }));
}

// ---------------------------------------------------------------------------------------------
// Incremental

/** Moves a chunk of the previous parse: new bookkeeping, its AST shifted in place. */
function moveChunk(p: ParsedChunk, shifter: Shifter): ParsedChunk {
  const c = p.chunk;
  const d = shifter.d;
  const ld = shifter.ld;
  shifter.chunk(p.result);
  return {
    chunk: {
      kind: c.kind,
      start: c.start + d,
      end: c.end + d,
      line: c.line + ld,
      endLine: c.endLine + ld,
      headerEnd: c.headerEnd + d,
      bodyStart: c.bodyStart + d,
      bodyEnd: c.bodyEnd + d,
      close: c.close < 0 ? c.close : c.close + d,
      closeLineEnd: c.closeLineEnd + d,
    },
    result: p.result,
  };
}

/** A block that ended early at a recovery line: its extent depends on the line that follows it. */
function isCut(c: Chunk, oldLength: number): boolean {
  return c.kind !== 'line' && c.kind !== 'comment' && c.close < 0 && c.end < oldLength;
}

/**
 * Re-parses `text`, reusing the chunks of `previous` that the edit (found as the difference between
 * `previousText` and `text`) did not touch. The result deep-equals `parseKit(text, previous.path)`.
 *
 * `previous` is consumed: the declarations before the edit are shared with the result as they are,
 * and those after it are moved into the result with their positions shifted in place. Keep the
 * result and drop `previous`; passing the same `previous` again falls back to a full parse.
 */
export function reparseKit(previous: KitFile, previousText: string, text: string): KitFile {
  const old = chunksOf(previous);
  if (old === undefined || previous.length !== previousText.length) return parseKit(text, previous.path);
  if (text === previousText) return previous;
  if (!setChunks(previous, undefined)) return parseKit(text, previous.path);
  try {
    return reparse(previous, old, previousText, text);
  } catch {
    return parseKit(text, previous.path);
  }
}

// The edited region is found by comparing growing blocks of both texts natively (string equality)
// and only the block holding the first difference character by character.
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let lo = 0;
  let block = 512;
  while (lo < n) {
    const hi = Math.min(n, lo + block);
    if (a.slice(lo, hi) === b.slice(lo, hi)) {
      lo = hi;
      block *= 2;
    } else if (hi - lo > 64) block = (hi - lo) >> 1;
    else {
      while (lo < hi && a.charCodeAt(lo) === b.charCodeAt(lo)) lo++;
      return lo;
    }
  }
  return lo;
}

/** Length of the common suffix of `a` and `b` that does not reach back before offset `floor`. */
function commonSuffix(a: string, b: string, floor: number): number {
  const n = Math.min(a.length, b.length) - floor;
  let len = 0;
  let block = 512;
  while (len < n) {
    const next = Math.min(n, len + block);
    if (a.slice(a.length - next, a.length - len) === b.slice(b.length - next, b.length - len)) {
      len = next;
      block *= 2;
    } else if (next - len > 64) block = (next - len) >> 1;
    else {
      while (len < next && a.charCodeAt(a.length - 1 - len) === b.charCodeAt(b.length - 1 - len)) len++;
      return len;
    }
  }
  return len;
}

function reparse(previous: KitFile, old: ParsedChunk[], a: string, b: string): KitFile {
  const p = commonPrefix(a, b);
  const suffix = commonSuffix(a, b, p);
  const ea = a.length - suffix;
  const eb = b.length - suffix;
  const delta = eb - ea;

  // First chunk to re-split: the one holding the character before the edit (its end may move), or
  // the block before it when that block was cut short by the line the edit may change.
  let r = -1;
  const probe = p - 1;
  {
    let lo = 0;
    let hi = old.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (old[mid].chunk.start <= probe) {
        r = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
  }
  if (r > 0 && isCut(old[r - 1].chunk, a.length)) r--;
  // Before the first chunk (or no chunks at all): start from the top.
  let line = 0;
  if (r < 0) r = 0;
  else line = old[r].chunk.line;

  const lineStarts = computeLineStarts(b);
  const pm = new PosMaker(lineStarts, b.length);
  const src: SplitSource = { text: b, lineStarts };
  const out: ParsedChunk[] = old.slice(0, r);
  let j = r;
  let o = r;
  for (;;) {
    const c = nextChunk(src, line);
    if (c === undefined) break;
    if (c.start >= eb) {
      const target = c.start - delta;
      while (j < old.length && old[j].chunk.start < target) j++;
      if (j < old.length && old[j].chunk.start === target && target >= ea) {
        const ld = lineIndexAt(lineStarts, c.start) - old[j].chunk.line;
        const shifter = new Shifter(delta, ld);
        for (let k = j; k < old.length; k++) out.push(delta === 0 && ld === 0 ? old[k] : moveChunk(old[k], shifter));
        return assemble(previous.path, b, lineStarts, out);
      }
    }
    let result: ChunkResult | undefined;
    if (c.kind === 'markup' && c.start < p && c.close >= 0) {
      // A view or fragment holding the edit: try re-parsing just the element the edit is in.
      while (o < old.length && old[o].chunk.start < c.start) o++;
      const oc = o < old.length ? old[o].chunk : undefined;
      if (
        oc !== undefined &&
        oc.start === c.start &&
        oc.kind === 'markup' &&
        oc.close >= 0 &&
        oc.headerEnd === c.headerEnd &&
        oc.bodyStart === c.bodyStart &&
        c.bodyEnd === oc.bodyEnd + delta &&
        c.end === oc.end + delta &&
        p >= oc.bodyStart &&
        ea <= oc.bodyEnd
      ) {
        const toLine = lineIndexAt(previous.lineStarts, ea);
        const columnDelta = eb - lineStarts[lineIndexAt(lineStarts, eb)] - (ea - previous.lineStarts[toLine]);
        const lineDelta = lineStarts.length - previous.lineStarts.length;
        result = reparseInsideMarkup(old[o].result, b, pm, { from: p, to: ea, delta, lineDelta, toLine, columnDelta });
      }
    }
    out.push({ chunk: c, result: result ?? parseChunk(b, pm, c) });
    line = c.endLine;
  }
  return assemble(previous.path, b, lineStarts, out);
}
