// Writes a compiled site as static files: every prerendered page, the assets, `kit-routes.json` and
// `kit-assets.json`. The whole tree is written into a fresh temporary directory beside `--out` and
// then renamed into place (`replace-dir.ts`), so a failed build never leaves a half-written output
// and nothing from a previous build survives. `kit build` writes on a thread of its own
// (`write-thread.ts`) while this one renders, and compiles a lazily compiled site page by page,
// keeping no page once written; `writeStaticSite` writes one file at a time on this thread (the
// writers are `output-trees.ts`'s, the manifests' names and assets text `manifests.ts`'s).
// `kit build` with its cache (`cli/build/`) writes a `SiteSource` whose unchanged pages come as the
// files an earlier build made (`KeptFile`), and, when the output in place is that earlier build's,
// only the files whose bytes differ: they are written beside it and moved into the tree
// (`patchInto`), and a build that changes nothing touches nothing.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { sha256Hex } from './assets.js';
import type { CompiledSite } from './compiled.js';
import { EarlyOutput, type EarlyOutputOptions } from './early-output.js';
import { FileWriter, type OutputEntries } from './file-writer.js';
import { ASSETS_MANIFEST, assetsManifestText, ROUTES_MANIFEST } from './manifests.js';
import {
  OutputError,
  PatchTree,
  type PreviousOutput,
  SyncTree,
  ThreadTree,
  type Tree,
  writeError,
} from './output-trees.js';
import {
  checkReplaceable as checkTarget,
  linkInto,
  makeTemp,
  patchInto,
  removeTree,
  removeTreeAsync,
  type ReplaceTarget,
  swapInto,
} from './replace-dir.js';
import {
  compiledSource,
  type OutFile,
  type RenderState,
  type SiteSource,
  siteFiles,
  type WrittenPage,
} from './site-files.js';
import { Utf8Scratch } from './utf8-scratch.js';

export { ASSETS_MANIFEST, ROUTES_MANIFEST } from './manifests.js';
export { OutputError, type PreviousOutput } from './output-trees.js';
export {
  compiledSource,
  IMMUTABLE_CACHE,
  type KeptAsset,
  type KeptFile,
  NOT_FOUND_FILE,
  notFoundSource,
  pagePaths,
  type PageOutput,
  type PlannedFile,
  plannedAsset,
  plannedFiles,
  renderNotFound,
  type RouteManifestEntry,
  type SiteSource,
  type WrittenPage,
} from './site-files.js';

/** A file as written: its output path, its bytes and their `sha256-<hex>` hash. */
export interface WrittenFile {
  rel: string;
  /** Absent for a file taken from an earlier build (`KeptFile`). */
  content?: string | Uint8Array;
  /** `content`'s bytes: valid during the `written` call only (a shared buffer); copy what is kept. */
  bytes?: Uint8Array;
  hash: string;
  size: number;
  /** The page a prerendered file belongs to. */
  page?: WrittenPage;
  /** Rendered and written while the sources loaded (`EarlyOutput`): `content` is absent, the bytes were kept then. */
  early?: true;
}

export interface WriteOptions {
  /** Endpoint rows of the routes report (`kit-routes.json` `endpoints`). */
  endpoints: readonly unknown[];
  /** Whether to take each written file's and directory's entry as it is written (`WriteStats.entries`). */
  entries?: boolean;
  /** Work to do while the writing thread is behind: a slice per call, false once none is left. */
  idle?: () => boolean;
  /**
   * Called once every file went to the writer, before waiting for it to finish: work that needs
   * them all (the build cache's records) overlaps the last writes.
   */
  beforeFinish?: () => void;
  /** Called now and then while pages render: done so far, total. */
  progress?: (done: number, total: number) => void;
  /** Told of every file of the site as it is written, the manifests last (the build cache keeps them). */
  written?: (f: WrittenFile) => void;
  /**
   * The build directory and writing thread made before the sources loaded, with the pages written
   * meanwhile (`EarlyOutput`); taken unless the output is patched in place (`previous`).
   */
  staged?: EarlyOutput;
}

export interface WriteStats {
  /** Prerendered page files. */
  pages: number;
  /** Of those, the files an earlier build made (`KeptFile`): not rendered. */
  kept: number;
  files: number;
  bytes: number;
  /** Files whose bytes went to disk: all of them, but for an output patched in place (`PreviousOutput`). */
  written: number;
  /** `sha256-<hex>` of the assets manifest written. */
  manifest: string;
  /** Set when the output in place was patched (`PreviousOutput`), not replaced: the files written and removed. */
  patched?: { written: readonly string[]; removed: readonly string[] };
  /**
   * With `WriteOptions.entries`, for an output written whole: what the file system said of each
   * file and directory written (`FileWriter.entries`; the root's is not there), when it could be had.
   */
  entries?: OutputEntries;
}

function outTarget(outDir: string): ReplaceTarget {
  return { flag: '--out', marker: ASSETS_MANIFEST, shown: outDir, error: (m) => new OutputError(m) };
}

/** Checks that `outDir` may be replaced: absent, empty, or the output of an earlier `kit build`. */
export function checkReplaceable(outDir: string): void {
  checkTarget(outDir, outTarget(outDir));
}

/** What was written so far: the assets manifest's hashes and sizes, in write order. */
class Written {
  readonly hashes = new Map<string, string>();
  readonly sizes = new Map<string, number>();
  bytes = 0;

  add(f: OutFile): WrittenFile {
    const c = f.content;
    const bytes = typeof c === 'string' ? utf8.encode(c) : c;
    const size = bytes?.byteLength ?? f.early?.size ?? f.kept!.size;
    const hash = f.hash ?? f.early?.hash ?? f.kept?.sha256 ?? `sha256-${sha256Hex(bytes!)}`;
    this.hashes.set(f.rel, hash);
    this.sizes.set(f.rel, size);
    this.bytes += size;
    const page = f.page ? { page: f.page } : {};
    const early = f.early ? { early: true as const } : {};
    return { rel: f.rel, ...(c !== undefined ? { content: c, bytes } : {}), hash, size, ...page, ...early };
  }
}

const utf8 = new Utf8Scratch();

function routesManifest(state: RenderState, opts: WriteOptions): OutFile {
  return {
    rel: ROUTES_MANIFEST,
    content: JSON.stringify({ version: 1, routes: state.routes, endpoints: opts.endpoints }, null, 2) + '\n',
  };
}

/** The assets manifest lists every other file of the output; it cannot list its own hash. */
function assetsManifest(w: Written, state: RenderState): OutFile {
  return { rel: ASSETS_MANIFEST, content: assetsManifestText(w.hashes, w.sizes, state.cache) };
}

/**
 * Raised instead of writing when compiling the pages of a lazily compiled site found errors (a
 * missing css file, markup nested too deep): nothing is written, as with an eager compile that
 * found them first. `diagnostics` is the site's.
 */
export class SiteErrors extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(`the site has ${diagnostics.length} error(s)`);
    this.name = 'SiteErrors';
  }
}

/**
 * Writes every file of the site through `tree`: the pages and assets, then the manifests. A
 * generator, so that the one sequence serves both writers: each yield is a write to wait for
 * (nothing, for the synchronous writer).
 */
function* writeTree(
  site: SiteSource,
  tree: Tree,
  opts: WriteOptions,
  staged?: EarlyOutput,
): Generator<unknown, WriteStats> {
  const errorsBefore = site.diagnostics.length;
  const w = new Written();
  const state: RenderState = { routes: [], cache: new Map(), pages: 0, kept: 0 };
  const put = function* (f: OutFile): Generator<unknown, WrittenFile> {
    const done = w.add(f);
    yield tree.write(f, done.hash);
    opts.written?.(done);
    return done;
  };
  for (const f of siteFiles(site, opts.progress, state, staged)) yield* put(f);
  if (site.diagnostics.length > errorsBefore) throw new SiteErrors(site.diagnostics);
  const stray = staged?.stray(w.hashes) ?? [];
  if (stray.length > 0) yield tree.remove!(stray);
  yield* put(routesManifest(state, opts));
  const manifest = assetsManifest(w, state);
  const hash = `sha256-${sha256Hex(manifest.content!)}`;
  yield tree.write(manifest, hash);
  opts.written?.({ rel: manifest.rel, content: manifest.content, hash, size: Buffer.byteLength(manifest.content!) });
  opts.beforeFinish?.();
  const entries = (yield tree.finish()) as OutputEntries | undefined;
  return {
    ...(entries ? { entries } : {}),
    pages: state.pages,
    kept: state.kept,
    files: w.hashes.size,
    bytes: w.bytes,
    written: written(tree, w.hashes.size + 1),
    manifest: hash,
  };
}

function written(tree: Tree, all: number): number {
  return tree instanceof PatchTree ? tree.staged.length : all;
}

/**
 * Above this share of the output's files, a patch rebuilds the tree instead (the unchanged files
 * linked from the output in place): moving files one by one into the output, which is set aside
 * meanwhile, would leave it absent for longer than two renames.
 */
const PATCH_SHARE = 8;

/** Renders and writes the site to `outDir`, atomically. Throws `OutputError` on I/O failure. */
export function writeStaticSite(site: CompiledSite, outDir: string, opts: WriteOptions): WriteStats {
  const out = resolve(outDir);
  const target = outTarget(outDir);
  checkTarget(out, target);
  const { tmp, suffix } = makeTemp(out, 'build', target);
  let stats: WriteStats;
  try {
    const steps = writeTree(compiledSource(site), new SyncTree(tmp), opts);
    let step = steps.next();
    while (!step.done) step = steps.next();
    stats = step.value;
  } catch (e) {
    removeTree(tmp);
    throw e;
  }
  swapInto(tmp, out, suffix, target);
  return stats;
}

/**
 * `writeStaticSite` with the files written on a thread of their own (`write-thread.ts`) while this
 * one compiles and renders, and the replaced output deleted by `removeTreeAsync`;
 * `kit build` uses this one. A lazily compiled site (`CompileSiteOptions.lazy`) is compiled page by
 * page as it is written, each page let go of once written; when compiling finds errors, nothing is
 * written and `SiteErrors` is thrown.
 */
export function writeStaticSiteAsync(site: CompiledSite, outDir: string, opts: WriteOptions): Promise<WriteStats> {
  return writeSiteAsync(compiledSource(site), outDir, opts);
}

/**
 * Writes a `SiteSource` to `outDir` as `writeStaticSiteAsync` does. With `previous` (the output in
 * place is the one described), only the files whose bytes differ are written and moved into it,
 * and the files it no longer has removed; nothing is touched when nothing differs.
 */
export async function writeSiteAsync(
  site: SiteSource,
  outDir: string,
  opts: WriteOptions & { previous?: PreviousOutput },
): Promise<WriteStats> {
  const out = resolve(outDir);
  const target = outTarget(outDir);
  checkTarget(out, target);
  // An output patched in place has no use for files written ahead into a fresh directory.
  const staged = opts.previous ? undefined : opts.staged?.take(out, Boolean(opts.entries));
  await opts.staged?.discard();
  const { tmp, suffix } = staged ?? makeTemp(out, 'build', target);
  const tree = opts.previous
    ? new PatchTree(tmp, opts.previous)
    : new ThreadTree(tmp, opts.entries, opts.idle, staged?.thread);
  let stats: WriteStats;
  try {
    const steps = writeTree(site, tree, opts, staged);
    let step = steps.next();
    while (!step.done) step = steps.next(await step.value);
    stats = step.value;
  } catch (e) {
    // Writes still in flight finish (or fail) before their directory goes.
    await tree.finish().catch(() => undefined);
    await removeTreeAsync(tmp);
    throw e;
  }
  try {
    if (tree instanceof PatchTree) {
      const removed = tree.removed();
      const patched = { ...stats, patched: { written: tree.staged, removed } };
      if (tree.staged.length === 0 && removed.length === 0) {
        await removeTreeAsync(tmp);
        return patched;
      }
      if (tree.staged.length + removed.length <= Math.max(64, stats.files / PATCH_SHARE)) {
        patchInto(tmp, out, suffix, tree.staged, removed, target);
        await removeTreeAsync(tmp);
        return patched;
      }
      const staged = new Set(tree.staged);
      linkInto(
        out,
        tmp,
        [...tree.seen].filter((rel) => !staged.has(rel)),
        target,
      );
    }
  } catch (e) {
    await removeTreeAsync(tmp);
    throw e;
  }
  const old = swapInto(tmp, out, suffix, target, false);
  if (old) await removeTreeAsync(old);
  return stats;
}

/**
 * The build directory of the output `outDir`, made now, before the sources load, with a writing
 * thread for the pages written meanwhile (`EarlyOutput`). Undefined where `writeSiteAsync` would
 * fail to make it (it then says why), or where making it would create the output's parent: a build
 * that fails leaves nothing behind.
 */
export function stageOutput(outDir: string, options: EarlyOutputOptions): EarlyOutput | undefined {
  const out = resolve(outDir);
  const target = outTarget(outDir);
  if (!existsSync(dirname(out))) return undefined;
  let made;
  try {
    checkTarget(out, target);
    made = makeTemp(out, 'build', target);
  } catch {
    return undefined;
  }
  return new EarlyOutput(out, made.tmp, made.suffix, options);
}

/**
 * Writes into the output in place (`previous`, the last build's) the files `files`, when the site
 * differs from that output only in their bytes: the same files, routes and cache policies (the
 * build cache knows when). The routes manifest stays as it is; the assets manifest is the previous
 * one with their hashes and sizes, made by the same function as a whole build's. Only the files
 * whose bytes differ are written, beside the output, and moved in (`patchInto`). Throws
 * `OutputError` on I/O failure, and an `Error` for a file the output does not have.
 */
export function writeChangedFiles(
  outDir: string,
  previous: PreviousOutput,
  files: readonly { rel: string; content: string | Uint8Array }[],
): { written: string[]; manifest: string } {
  const hashes = new Map(previous.hashes);
  const sizes = new Map(previous.sizes);
  const changed = files.filter((f) => {
    if (!hashes.has(f.rel)) throw new Error(`${f.rel} is not a file of the output in place`);
    const hash = `sha256-${sha256Hex(f.content)}`;
    if (hashes.get(f.rel) === hash) return false;
    hashes.set(f.rel, hash);
    sizes.set(f.rel, typeof f.content === 'string' ? Buffer.byteLength(f.content) : f.content.byteLength);
    return true;
  });
  if (changed.length === 0) return { written: [], manifest: previous.manifest };
  const manifest = assetsManifestText(hashes, sizes, previous.cache);
  const out = resolve(outDir);
  const target = outTarget(outDir);
  const { tmp, suffix } = makeTemp(out, 'build', target);
  const written = [...changed.map((f) => f.rel), ASSETS_MANIFEST];
  try {
    const w = new FileWriter(tmp);
    for (const f of changed) {
      try {
        w.write(f.rel, f.content);
      } catch (e) {
        throw writeError(f.rel, e);
      }
    }
    w.write(ASSETS_MANIFEST, manifest);
    patchInto(tmp, out, suffix, written, [], target);
  } finally {
    removeTree(tmp);
  }
  return { written, manifest: `sha256-${sha256Hex(manifest)}` };
}

export { removeTree } from './replace-dir.js';
