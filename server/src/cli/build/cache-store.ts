// `kit build`'s cache on disk, in the project's `.kit/cache/build/` (every file through
// `dev/private-file.ts`: owner-only, written to a temporary file and renamed into place):
//   index        the records of the last build (`core/build/cache-records.ts`): a header line (the
//                format and the kit that wrote it), the SHA-256 of the rest, then one record a line,
//                tab-separated (a line each is ten times quicker to read back than JSON objects)
//   <hex>.pack   the bytes of the files the records name (pages, 404.html, assets), back to back,
//                located by the index; a pack is written once and never changed
// Nothing in it is trusted: an index that cannot be read, fails its checksum, comes from another
// kit or another format, or holds a record that does not parse is ignored with one line of warning,
// and a file's bytes are checked against their hash when read. Two builds at once each write their
// own pack and rename their own index into place; the last one wins, whole. The cache holds what
// the last build used and no more: packs no record names are removed, and packs mostly dead are
// copied into the new one.
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FileKind } from '#grammar/index.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import type { RenderMode } from '#core/model/summary.js';
import { FILE_KINDS, RENDER_MODES } from '#shared/language/facts.js';
import {
  BUILD_CACHE_FORMAT,
  sha256,
  type AssetRecord,
  type PageRecord,
  type SourceRecord,
} from '#core/build/cache-records.js';
import { privateDir, PrivateFileWriter, readPrivateBytes, writePrivateFile } from '../dev/private-file.js';
import { stateDir } from '../dev/project-state.js';

/** Where the cache lives under the project root. */
export const CACHE_DIR = '.kit/cache';
const BUILD_DIR = 'build';
const INDEX_FILE = 'index';
const HEADER = 'kit-build-cache';

/** Where a file's bytes are: which pack, at which offset, how many. */
export interface BlobRef {
  pack: string;
  offset: number;
  size: number;
}

/** What the last build left in the cache. */
export interface BuildIndex {
  /** `globalKey` of its inputs. */
  global: string;
  /** Hash of the config modules' texts. */
  config: string;
  /** `partsKey` of its sources. */
  parts: string;
  /** Whether a build may check it from the records alone: no handler modules, endpoints or SSR pages. */
  fast: boolean;
  /**
   * The output it wrote: its directory (relative to the project root), its assets manifest's hash,
   * how many page files it has, its files (in the manifest's order) and a fingerprint of what the
   * file system says of them and their directories (`output-state.ts`): an output changed since,
   * even by a file added, is not patched.
   */
  output?: {
    dir: string;
    manifest: string;
    pages: number;
    files: string[];
    fingerprint: string;
    /** The source of the page whose error page `404.html` is ('' for none). */
    notFound: string;
  };
  /** The files some page's output is made from besides its own source (layouts, components, css...). */
  shared: Set<string>;
  /** File locations no page names any more, kept by builds that changed pages in place (`patchPages`). */
  dead: number;
  /** Its `.kit` files, in path order. */
  sources: SourceRecord[];
  /** Its handler and config modules: path → hash. */
  modules: Map<string, string>;
  /** The other files its pages were made from (css, js, declared files): path → hash (`missing`). */
  inputs: Map<string, string>;
  /** The page types it wrote, by directory of pages (`core/build/page-types.ts`). */
  types: Map<string, string | null>;
  /** Every diagnostic it reported, as `kit check` orders them. */
  diagnostics: Diagnostic[];
  /** Files a cross-file diagnostic is reported in or points into. */
  cross: Set<string>;
  assets: Map<string, AssetRecord>;
  /** Where the bytes of each file are, by hash (`blobsOf`). */
  blobs: Map<string, BlobRef>;
  /** Its pages by source (`pagesOf`). */
  pages: Map<string, PageRecord>;
  /**
   * The part of the index that holds the pages and where files are, and its checksum, until it is
   * first needed: a build that changed nothing neither checks nor reads it.
   */
  rest?: { bytes: Buffer; sum: string };
}

/**
 * The bytes of the line each record was read from (newline included): one written back unchanged
 * (records are never changed once read) is copied, not encoded again.
 */
const lineOf = new WeakMap<object, Buffer>();

/**
 * The lines of a part of the index, each with its bytes in `bytes` (a view, newline included): one
 * decode of the whole text, the byte offsets counted along.
 */
function linesOf(bytes: Buffer): { line: string; raw: Buffer }[] {
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
class LineWriter {
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

/** The lines of an index's second part by what they describe, not decoded yet. */
interface RestLines {
  /** Page lines by source, in order. */
  pages: Map<string, Buffer>;
  /** File location lines by hash, in order. */
  blobs: Map<string, Buffer>;
}

const restLines = new WeakMap<BuildIndex, RestLines>();

/** Checks the second part of an index (once) and finds its lines, decoding none. */
function linesOfRest(x: BuildIndex): RestLines | undefined {
  const rest = x.rest;
  if (rest === undefined) return undefined;
  let lines = restLines.get(x);
  if (lines) return lines;
  if (sha256(rest.bytes) !== rest.sum)
    throw new CacheProblem('it is truncated or corrupt (its checksum does not match)');
  lines = { pages: new Map(), blobs: new Map() };
  for (const { line, raw } of linesOf(rest.bytes)) {
    const tab = line.indexOf('\t', 5);
    if (line.startsWith('page\t') && tab > 5) lines.pages.set(unesc(line.slice(5, tab)), raw);
    else if (line.startsWith('blob\t') && tab > 5) lines.blobs.set(line.slice(5, tab), raw);
    else bad(`an unknown kind (${line.slice(0, 20)})`);
  }
  restLines.set(x, lines);
  return lines;
}

function decodeBlob(raw: Buffer): [string, BlobRef] {
  const f = raw.toString('utf8', 0, raw.length - 1).split('\t');
  if (f.length !== 5) bad('a blob line');
  const b: BlobRef = { pack: PACK.test(f[2]) ? f[2] : bad('a pack name'), offset: count(f[3]), size: count(f[4]) };
  lineOf.set(b, raw);
  return [hash(f[1]), b];
}

function decodePageLine(raw: Buffer): PageRecord {
  const r = decodePage(raw.toString('utf8', 0, raw.length - 1).split('\t'));
  lineOf.set(r, raw);
  return r;
}

/** Reads every page and file location of an index's second part if it was not yet. */
function readRest(x: BuildIndex): void {
  const lines = linesOfRest(x);
  if (lines === undefined) return;
  for (const raw of lines.pages.values()) {
    const r = decodePageLine(raw);
    x.pages.set(r.source, r);
  }
  for (const raw of lines.blobs.values()) {
    const [h, b] = decodeBlob(raw);
    x.blobs.set(h, b);
  }
  x.rest = undefined;
}

/** Where an index's files are, read on first use: only a build that writes or collects reads them. */
export function blobsOf(x: BuildIndex): Map<string, BlobRef> {
  readRest(x);
  return x.blobs;
}

/** The record of one page, read alone when the others are not needed (`BuildCache.commitPages`). */
export function pageOf(x: BuildIndex, source: string): PageRecord | undefined {
  const raw = linesOfRest(x)?.pages.get(source);
  return raw ? decodePageLine(raw) : x.pages.get(source);
}

/** Where one file is, read alone when the others are not needed. */
function blobOf(x: BuildIndex, h: string): BlobRef | undefined {
  const raw = linesOfRest(x)?.blobs.get(h);
  return raw ? decodeBlob(raw)[1] : x.blobs.get(h);
}

/** The pages of an index, read on first use: a build that changed nothing never reads them. */
export function pagesOf(x: BuildIndex): Map<string, PageRecord> {
  readRest(x);
  return x.pages;
}

/** Why a cache was ignored; the message completes "ignoring <dir>: ". */
export class CacheProblem extends Error {}

// ---- the line format -------------------------------------------------------------------------

const LIST = '\u001f';
const PAIR = '\u001e';
const ESCAPED = /[\\\t\n\r\u001e\u001f]/;

function esc(s: string): string {
  if (!ESCAPED.test(s)) return s;
  return s.replace(/[\\\t\n\r\u001e\u001f]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === PAIR ? '\\e' : '\\f',
  );
}

function unesc(s: string): string {
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

const list = (xs: readonly string[]) => xs.map(esc).join(LIST);
const unlist = (s: string) => (s === '' ? [] : s.split(LIST).map(unesc));
const opt = (s: string | undefined) => (s === undefined ? '' : '=' + esc(s));
const unopt = (s: string) => (s === '' ? undefined : s.startsWith('=') ? unesc(s.slice(1)) : bad('an optional field'));

function bad(what: string): never {
  throw new CacheProblem(`it holds a record with ${what} that does not read`);
}

const PACK = /^[0-9a-f]{16}$/;

/** 64 lowercase hex digits (read char by char: a regular expression would copy each sliced string). */
function hash(s: string): string {
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
function key(s: string): string {
  return s.length === 64 ? s : bad('a hash');
}

function count(s: string): number {
  const n = Number(s);
  return s !== '' && Number.isSafeInteger(n) && n >= 0 && String(n) === s ? n : bad('a number');
}

/** An output-relative path: no root, no `.` or `..` segment, no backslash; what the writer may be told to write. */
function outPath(s: string): string {
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

function oneOf<T extends string>(s: string, values: readonly T[]): T {
  return (values as readonly string[]).includes(s) ? (s as T) : bad(`a value out of ${values.join('|')}`);
}

const KINDS: readonly FileKind[] = FILE_KINDS;
const RENDERS: readonly RenderMode[] = RENDER_MODES;

function json<T>(s: string): T {
  try {
    return JSON.parse(s) as T;
  } catch {
    return bad('JSON');
  }
}

function diagnostic(s: string): Diagnostic {
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

function encodePage(r: PageRecord): string {
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

function decodePage(f: string[]): PageRecord {
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

/**
 * The index as bytes: a header line, then two parts, each after a line with its checksum: the
 * sources and what the whole build read and said, then the pages and where the files are.
 */
export function encodeIndex(kit: string, x: BuildIndex): Buffer {
  const lines = new LineWriter();
  const add = (line: string) => lines.add(undefined, () => line);
  add(`global\t${x.global}`);
  add(`config\t${x.config}`);
  add(`parts\t${x.parts}`);
  add(`fast\t${x.fast ? 1 : 0}`);
  add(`dead\t${x.dead}`);
  if (x.output) {
    const o = x.output;
    add(`output\t${esc(o.dir)}\t${o.manifest}\t${o.pages}\t${o.fingerprint}\t${esc(o.notFound)}\t${list(o.files)}`);
  }
  for (const f of x.shared) add(`shared\t${esc(f)}`);
  for (const s of x.sources)
    lines.add(s, () =>
      [
        'source',
        esc(s.path),
        s.hash,
        s.kind,
        esc(s.pkg),
        esc(s.id),
        s.shape,
        s.probes.length ? JSON.stringify(s.probes) : '',
        s.state,
      ].join('\t'),
    );
  for (const [p, h] of x.modules) add(`module\t${esc(p)}\t${h}`);
  for (const [p, h] of x.inputs) add(`input\t${esc(p)}\t${h}`);
  for (const [d, t] of x.types) add(`types\t${esc(d)}\t${JSON.stringify(t)}`);
  for (const d of x.diagnostics) add(`diag\t${JSON.stringify(d)}`);
  for (const f of x.cross) add(`cross\t${esc(f)}`);
  for (const a of x.assets.values()) add(`asset\t${esc(a.path)}\t${a.hash}\t${a.size}\t${a.immutable ? 1 : 0}`);
  const first = lines.bytes();
  let second: Buffer;
  if (x.rest) second = x.rest.bytes;
  else {
    const more = new LineWriter();
    for (const [h, b] of x.blobs) more.add(b, () => `blob\t${h}\t${b.pack}\t${b.offset}\t${b.size}`);
    for (const r of x.pages.values()) more.add(r, () => encodePage(r));
    second = more.bytes();
  }
  return Buffer.concat([
    Buffer.from(`${HEADER}\t${BUILD_CACHE_FORMAT}\t${esc(kit)}\n${sha256(first)}\t${first.byteLength}\n`),
    first,
    Buffer.from(`${sha256(second)}\n`),
    second,
  ]);
}

/** Reads an index back; throws `CacheProblem` saying what is wrong with it. */
export function decodeIndex(kit: string, bytes: Buffer): BuildIndex {
  const nl1 = bytes.indexOf(10);
  const header = bytes.subarray(0, Math.max(nl1, 0)).toString('utf8').split('\t');
  if (nl1 < 0 || header[0] !== HEADER) throw new CacheProblem('it is not a kit build cache');
  if (header[1] !== String(BUILD_CACHE_FORMAT))
    throw new CacheProblem(`it has format ${header[1]}, and this kit reads format ${BUILD_CACHE_FORMAT}`);
  const by = header.length === 3 ? unesc(header[2]) : '?';
  if (by !== kit) {
    const [version, mine] = [by.split('+')[0], kit.split('+')[0]];
    throw new CacheProblem(
      version === mine
        ? `it was written by another build of kit ${mine}`
        : `it was written by kit ${version}, not ${mine}`,
    );
  }
  const corrupt = () => new CacheProblem('it is truncated or corrupt (its checksum does not match)');
  const nl2 = bytes.indexOf(10, nl1 + 1);
  if (nl2 < 0) throw corrupt();
  const [sum, length] = bytes
    .subarray(nl1 + 1, nl2)
    .toString('latin1')
    .split('\t');
  const end = nl2 + 1 + Number(length);
  const first = bytes.subarray(nl2 + 1, end);
  const nl3 = bytes.indexOf(10, end);
  if (!/^\d+$/.test(length ?? '') || end > bytes.length || nl3 < 0 || sha256(first) !== sum) throw corrupt();
  const x: BuildIndex = {
    global: '',
    config: '',
    parts: '',
    fast: false,
    sources: [],
    modules: new Map(),
    inputs: new Map(),
    types: new Map(),
    diagnostics: [],
    cross: new Set(),
    assets: new Map(),
    blobs: new Map(),
    pages: new Map(),
    shared: new Set(),
    dead: 0,
    rest: { bytes: bytes.subarray(nl3 + 1), sum: bytes.subarray(end, nl3).toString('latin1') },
  };
  for (const { line, raw } of linesOf(first)) {
    const f = line.split('\t');
    const n = f.length;
    switch (f[0]) {
      case 'global':
      case 'config':
      case 'parts':
        if (n !== 2) bad(f[0]);
        x[f[0]] = hash(f[1]);
        break;
      case 'fast':
        if (n !== 2) bad(f[0]);
        x.fast = f[1] === '1';
        break;
      case 'output':
        if (n !== 7) bad(f[0]);
        x.output = {
          dir: unesc(f[1]),
          manifest: hash(f[2]),
          pages: count(f[3]),
          fingerprint: hash(f[4]),
          notFound: unesc(f[5]),
          files: unlist(f[6]).map(outPath),
        };
        break;
      case 'dead':
        if (n !== 2) bad(f[0]);
        x.dead = count(f[1]);
        break;
      case 'shared':
        if (n !== 2) bad(f[0]);
        x.shared.add(unesc(f[1]));
        break;
      case 'source':
        if (n !== 9) bad(f[0]);
        x.sources.push({
          path: unesc(f[1]),
          hash: key(f[2]),
          kind: oneOf(f[3], KINDS),
          pkg: unesc(f[4]),
          id: unesc(f[5]),
          shape: key(f[6]),
          probes: f[7] === '' ? [] : probes(f[7]),
          // Only ever compared with a state taken now: a wrong one only means the file is read.
          state: f[8],
        });
        lineOf.set(x.sources[x.sources.length - 1], raw);
        break;
      case 'module':
      case 'input':
        if (n !== 3) bad(f[0]);
        (f[0] === 'module' ? x.modules : x.inputs).set(unesc(f[1]), f[2] === 'missing' ? 'missing' : hash(f[2]));
        break;
      case 'types': {
        if (n !== 3) bad(f[0]);
        const t = json<unknown>(f[2]);
        x.types.set(unesc(f[1]), typeof t === 'string' || t === null ? t : bad('page types'));
        break;
      }
      case 'diag':
        if (n !== 2) bad(f[0]);
        x.diagnostics.push(diagnostic(f[1]));
        break;
      case 'cross':
        if (n !== 2) bad(f[0]);
        x.cross.add(unesc(f[1]));
        break;
      case 'asset': {
        if (n !== 5) bad(f[0]);
        const path = outPath(unesc(f[1]));
        x.assets.set(path, { path, hash: hash(f[2]), size: count(f[3]), immutable: f[4] === '1' });
        break;
      }
      default:
        bad(`an unknown kind (${f[0].slice(0, 20)})`);
    }
  }
  if (!x.global || !x.config || !x.parts) bad('a missing key');
  return x;
}

function probes(s: string): [string, boolean][] {
  const p = json<unknown>(s);
  if (!Array.isArray(p) || !p.every((e) => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'boolean'))
    bad('probes');
  return p as [string, boolean][];
}

// ---- the store -------------------------------------------------------------------------------

/**
 * The cache of one project: the index the last build left (undefined when there is none, or it was
 * ignored: `problem` then says why), the bytes of its files, and a pack for what this build adds.
 */
export class BuildCache {
  readonly dir: string;
  index: BuildIndex | undefined;
  problem: string | undefined;
  private readonly packs = new Map<string, Buffer | null>();
  private pack: PackWriter | undefined;

  constructor(
    private readonly root: string,
    private readonly kit: string,
  ) {
    this.dir = join(root, CACHE_DIR, BUILD_DIR);
    const bytes = readPrivateBytes(join(this.dir, INDEX_FILE));
    if (bytes === undefined) return;
    try {
      this.index = decodeIndex(kit, bytes);
    } catch (e) {
      if (!(e instanceof CacheProblem)) throw e;
      this.problem = e.message;
    }
  }

  /** The cache's directory, made (owner-only, `.kit` ignoring itself) if missing. */
  private made(): string {
    cacheDirOf(this.root);
    return this.dir;
  }

  /** Forgets the index (a file it names turned out bad): this build neither reads nor reuses it. */
  distrust(why: string): void {
    this.index = undefined;
    this.problem ??= why;
  }

  /** The bytes of a file the index names, checked against their hash; throws `CacheProblem` if they are not. */
  bytes(hashHex: string): Uint8Array {
    const ref = (this.index && blobOf(this.index, hashHex)) ?? this.pack?.refs.get(hashHex);
    if (ref === undefined) throw new CacheProblem(`it names a file it does not hold (${hashHex.slice(0, 12)})`);
    let pack = this.packs.get(ref.pack);
    if (pack === undefined) {
      pack = readPrivateBytes(join(this.dir, `${ref.pack}.pack`)) ?? null;
      this.packs.set(ref.pack, pack);
    }
    if (pack === null) throw new CacheProblem(`its pack ${ref.pack} is missing`);
    const out = pack.subarray(ref.offset, ref.offset + ref.size);
    if (out.byteLength !== ref.size || sha256(out) !== hashHex)
      throw new CacheProblem(`its pack ${ref.pack} is truncated or corrupt`);
    // A copy of its own: a view of the pack would take the whole pack along to the writing thread.
    return new Uint8Array(out);
  }

  /** Why this build's files cannot be kept (the cache's folder cannot be written), once that is known. */
  private unwritable: string | undefined;

  /**
   * Keeps the bytes of a file this build made, by hash (once), copied: `content` may be a buffer
   * its caller fills again. Never throws: a cache that cannot be written must not fail the build;
   * `commit` says why.
   */
  keep(hashHex: string, content: string | Uint8Array): void {
    if (this.unwritable !== undefined || (this.index && blobOf(this.index, hashHex) !== undefined)) return;
    try {
      this.pack ??= new PackWriter(this.made());
      this.pack.add(hashHex, content);
    } catch (e) {
      if (e instanceof CacheProblem) throw e;
      this.unwritable = (e as Error).message;
      this.abandon();
    }
  }

  /** Drops what this build added (it failed). */
  abandon(): void {
    this.pack?.abort();
    this.pack = undefined;
  }

  /**
   * Writes `next` as the index, the bytes of every file it names kept: those of the old packs and
   * this build's. Packs nothing names any more are removed (those of a build running meanwhile are
   * spared for a while), and packs mostly dead have their live files copied into this build's.
   */
  commit(next: BuildIndex): void {
    if (this.unwritable !== undefined) throw new Error(this.unwritable);
    const live = new Set<string>();
    for (const r of next.pages.values()) {
      for (const [h] of r.files.values()) live.add(h);
      if (r.notFound) live.add(r.notFound[0]);
    }
    for (const a of next.assets.values()) live.add(a.hash);
    const old = this.index ? blobsOf(this.index) : new Map<string, BlobRef>();
    const packSizes = this.packSizes();
    const liveBytes = new Map<string, number>();
    for (const h of live) {
      const ref = old.get(h);
      if (ref) liveBytes.set(ref.pack, (liveBytes.get(ref.pack) ?? 0) + ref.size);
    }
    // A pack holding more dead bytes than live ones is folded into this build's.
    const fold = new Set([...liveBytes].filter(([p, n]) => n * 2 < (packSizes.get(p) ?? 0)).map(([p]) => p));
    const blobs = new Map<string, BlobRef>();
    for (const h of live) {
      const ref = old.get(h);
      if (ref && !fold.has(ref.pack)) blobs.set(h, ref);
      else if (ref) {
        let bytes: Uint8Array;
        try {
          bytes = this.bytes(h);
        } catch (e) {
          // Left where it is: a build that needs it finds it bad and says so.
          if (!(e instanceof CacheProblem)) throw e;
          blobs.set(h, ref);
          continue;
        }
        this.pack ??= new PackWriter(this.made());
        this.pack.add(h, bytes);
      }
    }
    const written = this.pack?.finish();
    if (written) for (const [h, ref] of written) if (live.has(h)) blobs.set(h, ref);
    this.pack = undefined;
    for (const h of live) if (!blobs.has(h)) throw new CacheProblem(`it lost the bytes of a file (${h.slice(0, 12)})`);
    next.blobs = blobs;
    writePrivateFile(join(this.made(), INDEX_FILE), encodeIndex(this.kit, next), false);
    this.index = next;
    // An index that was ignored left packs no index names: they go at once.
    const before = this.problem === undefined ? new Set([...old.values()].map((b) => b.pack)) : undefined;
    this.collect(new Set([...blobs.values()].map((b) => b.pack)), before);
  }

  /**
   * Writes the index of a build that changed pages in place and nothing else (`patchPages`): `next`
   * as the first part, and the last index's second part with the records of `replaced` pages and the
   * locations of this build's files, the other lines copied as they were. The locations of the
   * replaced pages' earlier files stay, counted as dead, for the next build that collects.
   */
  commitPages(next: Omit<BuildIndex, 'pages' | 'blobs' | 'rest'>, replaced: readonly PageRecord[]): void {
    if (this.unwritable !== undefined) throw new Error(this.unwritable);
    const old = this.index;
    const lines = old && linesOfRest(old);
    if (!old || !lines) throw new Error('build cache: a page-only commit needs the index it was planned from');
    const written = this.pack?.finish();
    this.pack = undefined;
    const more = new LineWriter();
    const byPage = new Map(replaced.map((r) => [r.source, r]));
    for (const [source, raw] of lines.pages) {
      const r = byPage.get(source);
      if (r) more.add(undefined, () => encodePage(r));
      else more.raw(raw);
    }
    for (const raw of lines.blobs.values()) more.raw(raw);
    for (const [h, b] of written ?? []) more.add(undefined, () => `blob\t${h}\t${b.pack}\t${b.offset}\t${b.size}`);
    const second = more.bytes();
    const x: BuildIndex = { ...next, pages: new Map(), blobs: new Map(), rest: { bytes: second, sum: sha256(second) } };
    writePrivateFile(join(this.made(), INDEX_FILE), encodeIndex(this.kit, x), false);
    this.index = x;
  }

  private packSizes(): Map<string, number> {
    const sizes = new Map<string, number>();
    for (const name of this.packNames()) {
      try {
        sizes.set(name, statSync(join(this.dir, `${name}.pack`)).size);
      } catch {
        /* gone */
      }
    }
    return sizes;
  }

  private packNames(): string[] {
    try {
      return readdirSync(this.dir)
        .filter((f) => f.endsWith('.pack'))
        .map((f) => f.slice(0, -5));
    } catch {
      return [];
    }
  }

  /**
   * Removes packs no longer named: those the last index named (`before`; all, after an index that
   * was ignored) at once, others (a build running meanwhile may be writing them) after an hour.
   */
  private collect(named: ReadonlySet<string>, before: ReadonlySet<string> | undefined): void {
    const hourAgo = Date.now() - 3_600_000;
    for (const name of this.packNames()) {
      if (named.has(name)) continue;
      const file = join(this.dir, `${name}.pack`);
      try {
        if (before === undefined || before.has(name) || statSync(file).mtimeMs < hourAgo) unlinkSync(file);
      } catch {
        /* gone already */
      }
    }
  }
}

/** Makes the cache's directory (`.kit/cache/build`, owner-only, `.kit` ignoring itself). */
export function cacheDirOf(root: string): string {
  const kit = stateDir(root);
  return privateDir(join(privateDir(join(kit, 'cache')), BUILD_DIR));
}

/** Bytes a pack is written in at a time. */
const CHUNK_BYTES = 1 << 20;

/** This build's pack: files appended as they come, a chunk at a time; renamed into place when done. */
class PackWriter {
  readonly name = randomBytes(8).toString('hex');
  readonly refs = new Map<string, BlobRef>();
  private readonly file: PrivateFileWriter;
  /**
   * The chunk being filled: files are copied in as they come, so a page's bytes die young (kept
   * in a list until the chunk was written, they outlived a scavenge or two and kept the RSS up).
   */
  private readonly chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private chunkBytes = 0;
  private offset = 0;

  constructor(dir: string) {
    this.file = new PrivateFileWriter(join(dir, `${this.name}.pack`), false);
  }

  add(hashHex: string, content: string | Uint8Array): void {
    if (this.refs.has(hashHex)) return;
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    const size = bytes.byteLength;
    this.refs.set(hashHex, { pack: this.name, offset: this.offset, size });
    this.offset += size;
    if (this.chunkBytes + size > CHUNK_BYTES) this.flush();
    if (size > CHUNK_BYTES) this.file.write(bytes);
    else {
      this.chunk.set(bytes, this.chunkBytes);
      this.chunkBytes += size;
    }
  }

  private flush(): void {
    if (this.chunkBytes === 0) return;
    this.file.write(this.chunk.subarray(0, this.chunkBytes));
    this.chunkBytes = 0;
  }

  /** Renames the pack into place (nothing, if empty) and answers where its files are. */
  finish(): Map<string, BlobRef> {
    if (this.refs.size === 0) {
      this.file.abort();
      return this.refs;
    }
    this.flush();
    this.file.commit();
    return this.refs;
  }

  abort(): void {
    this.file.abort();
  }
}
