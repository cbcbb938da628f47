// The line format of `kit build`'s cache index (`cache-index.ts`): one record a line, its fields
// tab-separated; a field's own tabs, newlines and separators escaped, lists and pairs joined by
// control characters. Each field is checked as it is read back: one that does not read throws
// `CacheProblem`, and the whole cache is then ignored. A line read back is remembered as its bytes
// (`lineOf`), and written back as them while its record is unchanged (`LineWriter`).
import type { FileKind } from '#grammar/index.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import type { RenderMode } from '#core/model/summary.js';
import { FILE_KINDS, RENDER_MODES } from '#shared/language/facts.js';
import type { PageRecord } from '#core/build/cache-records.js';

/** Why a cache was ignored; the message completes "ignoring <dir>: ". */
export class CacheProblem extends Error {}

const LIST = '\u001f';
const PAIR = '\u001e';
const ESCAPED = /[\\\t\n\r\u001e\u001f]/;

export function esc(s: string): string {
  if (!ESCAPED.test(s)) return s;
  return s.replace(/[\\\t\n\r\u001e\u001f]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === PAIR ? '\\e' : '\\f',
  );
}

export function unesc(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(.)/g, (_, c: string) => {
    const out =
      c === '\\'
        ? '\\'
        : c === 't'
          ? '\t'
          : c === 'n'
            ? '\n'
            : c === 'r'
              ? '\r'
              : c === 'e'
                ? PAIR
                : c === 'f'
                  ? LIST
                  : '';
    if (out === '') throw new CacheProblem('it holds a badly escaped field');
    return out;
  });
}

export const list = (xs: readonly string[]) => xs.map(esc).join(LIST);
export const unlist = (s: string) => (s === '' ? [] : s.split(LIST).map(unesc));
const opt = (s: string | undefined) => (s === undefined ? '' : '=' + esc(s));
const unopt = (s: string) => (s === '' ? undefined : s.startsWith('=') ? unesc(s.slice(1)) : bad('an optional field'));

export function bad(what: string): never {
  throw new CacheProblem(`it holds a record with ${what} that does not read`);
}

export const PACK = /^[0-9a-f]{16}$/;

/** 64 lowercase hex digits (read char by char: a regular expression would copy each sliced string). */
export function hash(s: string): string {
  if (s.length !== 64) bad('a hash');
  for (let i = 0; i < 64; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) bad('a hash');
  }
  return s;
}

/**
 * A hash that is only ever compared with one computed now (a source's, a shape's): its length is
 * checked, not each digit (ten thousand sources, two each); a wrong one only differs.
 */
export function key(s: string): string {
  return s.length === 64 ? s : bad('a hash');
}

export function count(s: string): number {
  const n = Number(s);
  return s !== '' && Number.isSafeInteger(n) && n >= 0 && String(n) === s ? n : bad('a number');
}

/** An output-relative path: no root, no `.` or `..` segment, no backslash; what the writer may be told to write. */
export function outPath(s: string): string {
  const ok =
    s !== '' &&
    s[0] !== '/' &&
    s[s.length - 1] !== '/' &&
    !s.includes('\\') &&
    !s.includes('\0') &&
    !s.includes('//') &&
    !s.includes('/./') &&
    !s.includes('/../') &&
    !s.startsWith('./') &&
    !s.startsWith('../') &&
    !s.endsWith('/.') &&
    !s.endsWith('/..') &&
    s !== '.' &&
    s !== '..';
  return ok ? s : bad('an output path');
}

export function oneOf<T extends string>(s: string, values: readonly T[]): T {
  return (values as readonly string[]).includes(s) ? (s as T) : bad(`a value out of ${values.join('|')}`);
}

export const KINDS: readonly FileKind[] = FILE_KINDS;
const RENDERS: readonly RenderMode[] = RENDER_MODES;

export function json<T>(s: string): T {
  try {
    return JSON.parse(s) as T;
  } catch {
    return bad('JSON');
  }
}

export function diagnostic(s: string): Diagnostic {
  const d = json<Diagnostic>(s);
  const pos = (p: unknown) =>
    typeof p === 'object' &&
    p !== null &&
    ['offset', 'line', 'column'].every((k) => Number.isInteger((p as Record<string, unknown>)[k]));
  if (
    typeof d !== 'object' ||
    d === null ||
    typeof d.code !== 'string' ||
    typeof d.message !== 'string' ||
    typeof d.file !== 'string' ||
    !['error', 'warning', 'info'].includes(d.severity) ||
    !pos(d.range?.start) ||
    !pos(d.range?.end)
  )
    bad('a diagnostic');
  return d;
}

export function encodePage(r: PageRecord): string {
  return [
    'page',
    esc(r.source),
    r.key,
    list(r.deps),
    esc(r.pageId),
    esc(r.route),
    r.render,
    opt(r.cache),
    opt(r.errorPage),
    r.prerender.map(([p, f]) => esc(p) + PAIR + esc(f)).join(LIST),
    [...r.files].map(([f, [h, n]]) => esc(f) + PAIR + h + PAIR + n).join(LIST),
    r.kitJs ? '1' : '0',
    list(r.assets),
    r.notFound ? `${r.notFound[0]}${PAIR}${r.notFound[1]}` : '',
  ].join('\t');
}

function pairs(s: string, n: number): string[][] {
  return s === ''
    ? []
    : s.split(LIST).map((item) => {
        const parts = item.split(PAIR);
        return parts.length === n ? parts : bad('a list');
      });
}

export function decodePage(f: string[]): PageRecord {
  if (f.length !== 14) bad('a page');
  const notFound = pairs(f[13], 2)[0];
  const r: PageRecord = {
    source: unesc(f[1]),
    key: hash(f[2]),
    deps: unlist(f[3]),
    pageId: unesc(f[4]),
    route: unesc(f[5]),
    render: oneOf(f[6], RENDERS),
    prerender: pairs(f[9], 2).map(([p, file]) => [unesc(p), outPath(unesc(file))]),
    files: new Map(pairs(f[10], 3).map(([file, h, n]) => [outPath(unesc(file)), [hash(h), count(n)]])),
    kitJs: f[11] === '1',
    assets: unlist(f[12]),
    ...(notFound ? { notFound: [hash(notFound[0]), count(notFound[1])] } : {}),
  };
  const cache = unopt(f[7]);
  const errorPage = unopt(f[8]);
  if (cache !== undefined) r.cache = cache;
  if (errorPage !== undefined) r.errorPage = errorPage;
  for (const a of r.assets) if (!a.startsWith('/')) bad('an asset URL');
  return r;
}

export function probes(s: string): [string, boolean][] {
  const p = json<unknown>(s);
  if (!Array.isArray(p) || !p.every((e) => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'boolean'))
    bad('probes');
  return p as [string, boolean][];
}

/**
 * The bytes of the line each record was read from (newline included): one written back unchanged
 * (records are never changed once read) is copied, not encoded again.
 */
export const lineOf = new WeakMap<object, Buffer>();

/**
 * The lines of a part of the index, each with its bytes in `bytes` (a view, newline included): one
 * decode of the whole text, the byte offsets counted along.
 */
export function linesOf(bytes: Buffer): { line: string; raw: Buffer }[] {
  const text = bytes.toString('utf8');
  if (text !== '' && !text.endsWith('\n')) bad('a last line');
  const out: { line: string; raw: Buffer }[] = [];
  let off = 0;
  for (const line of text.split('\n')) {
    const end = off + Buffer.byteLength(line) + 1;
    if (end > bytes.length) break;
    out.push({ line, raw: bytes.subarray(off, end) });
    off = end;
  }
  return out;
}

/** Lines to write: new ones as text, unchanged ones as the bytes they were read from. */
export class LineWriter {
  private readonly chunks: Buffer[] = [];
  private text: string[] = [];

  add(record: object | undefined, make: () => string): void {
    const raw = record && lineOf.get(record);
    if (raw === undefined) this.text.push(make());
    else this.raw(raw);
  }

  /** A line as the bytes it was read as. */
  raw(raw: Buffer): void {
    this.flush();
    this.chunks.push(raw);
  }

  private flush(): void {
    if (this.text.length === 0) return;
    this.chunks.push(Buffer.from(this.text.join('\n') + '\n'));
    this.text = [];
  }

  bytes(): Buffer {
    this.flush();
    return Buffer.concat(this.chunks);
  }
}
