// `kit build`'s cache on disk, in the project's `.kit/cache/build/` (every file through
// `dev/private-file.ts`: owner-only, written to a temporary file and renamed into place):
//   index        the records of the last build (`core/build/cache-records.ts`), written and read by
//                `cache-index.ts`: a header line (the format and the kit that wrote it), the SHA-256
//                of the rest, then one record a line, tab-separated (`cache-lines.ts`; a line each is
//                ten times quicker to read back than JSON objects)
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
import { sha256, type PageRecord } from '#core/build/cache-records.js';
import { privateDir, PrivateFileWriter, readPrivateBytes, writePrivateFile } from '../dev/private-file.js';
import { stateDir } from '../dev/project-state.js';
import {
  blobOf,
  blobsOf,
  decodeIndex,
  encodeIndex,
  linesOfRest,
  type BlobRef,
  type BuildIndex,
} from './cache-index.js';
import { CacheProblem, encodePage, LineWriter } from './cache-lines.js';

/** Where the cache lives under the project root. */
export const CACHE_DIR = '.kit/cache';
const BUILD_DIR = 'build';
const INDEX_FILE = 'index';

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
