// The index of `kit build`'s cache (`cache-store.ts`): a header line (the format and the kit that
// wrote it), then two parts, each after the SHA-256 of its bytes: the sources and what the whole
// build read and said, then the pages and where their files' bytes are. The second part is checked
// and read only when first needed (a build that changed nothing reads neither its pages nor its
// files), and a line read back unchanged is written back as the bytes it was read as.
import {
  BUILD_CACHE_FORMAT,
  sha256,
  type AssetRecord,
  type PageRecord,
  type SourceRecord,
} from '#core/build/cache-records.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import {
  bad,
  CacheProblem,
  count,
  decodePage,
  diagnostic,
  encodePage,
  esc,
  hash,
  json,
  key,
  KINDS,
  lineOf,
  LineWriter,
  linesOf,
  list,
  oneOf,
  outPath,
  PACK,
  probes,
  unesc,
  unlist,
} from './cache-lines.js';

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

/** The lines of an index's second part by what they describe, not decoded yet. */
interface RestLines {
  /** Page lines by source, in order. */
  pages: Map<string, Buffer>;
  /** File location lines by hash, in order. */
  blobs: Map<string, Buffer>;
}

const restLines = new WeakMap<BuildIndex, RestLines>();

/** Checks the second part of an index (once) and finds its lines, decoding none. */
export function linesOfRest(x: BuildIndex): RestLines | undefined {
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
export function blobOf(x: BuildIndex, h: string): BlobRef | undefined {
  const raw = linesOfRest(x)?.blobs.get(h);
  return raw ? decodeBlob(raw)[1] : x.blobs.get(h);
}

/** The pages of an index, read on first use: a build that changed nothing never reads them. */
export function pagesOf(x: BuildIndex): Map<string, PageRecord> {
  readRest(x);
  return x.pages;
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
