// Writes a compiled site as static files: every prerendered page, the assets, `kit-routes.json` and
// `kit-assets.json`. The whole tree is written into a fresh temporary directory beside `--out` and
// then renamed into place (`replace-dir.ts`), so a failed build never leaves a half-written output
// and nothing from a previous build survives. `kit build` writes on a thread of its own
// (`write-thread.ts`) while this one renders, and compiles a lazily compiled site page by page,
// keeping no page once written; `writeStaticSite` writes one file at a time on this thread.
import { resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { renderTemplate } from '#shared/render/index.js';
import { sha256Hex, type SiteAsset } from './assets.js';
import type { CompiledPage, CompiledSite, PrerenderPath } from './compiled.js';
import { FileWriter } from './file-writer.js';
import { WriteFailed, WriteThread } from './write-thread.js';
import {
  checkReplaceable as checkTarget,
  makeTemp,
  removeTree,
  removeTreeAsync,
  type ReplaceTarget,
  swapInto,
} from './replace-dir.js';

export const ROUTES_MANIFEST = 'kit-routes.json';
export const ASSETS_MANIFEST = 'kit-assets.json';
/** Cache policy of content-hashed asset files. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

export class OutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputError';
  }
}

export interface RouteManifestEntry {
  page: string;
  route: string;
  path: string;
  file: string;
  render: 'spa' | 'hybrid';
}

export interface WriteOptions {
  /** Endpoint rows of the routes report (`kit-routes.json` `endpoints`). */
  endpoints: readonly unknown[];
  /** Called now and then while pages render: done so far, total. */
  progress?: (done: number, total: number) => void;
}

export interface WriteStats {
  pages: number;
  files: number;
  bytes: number;
}

function sortKeys<T>(m: Map<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of [...m.keys()].sort()) out[k] = m.get(k)!;
  return out;
}

function outTarget(outDir: string): ReplaceTarget {
  return { flag: '--out', marker: ASSETS_MANIFEST, shown: outDir, error: (m) => new OutputError(m) };
}

/** Checks that `outDir` may be replaced: absent, empty, or the output of an earlier `kit build`. */
export function checkReplaceable(outDir: string): void {
  checkTarget(outDir, outTarget(outDir));
}

/** One file of the output: its path, its bytes, and its hash when already known (assets). */
interface OutFile {
  rel: string;
  content: string | Uint8Array;
  hash?: string;
}

/** What was written so far: the assets manifest's hashes and sizes, in write order. */
class Written {
  readonly hashes = new Map<string, string>();
  readonly sizes = new Map<string, number>();
  bytes = 0;

  add(f: OutFile): void {
    const size = typeof f.content === 'string' ? Buffer.byteLength(f.content) : f.content.byteLength;
    this.hashes.set(f.rel, f.hash ?? `sha256-${sha256Hex(f.content)}`);
    this.sizes.set(f.rel, size);
    this.bytes += size;
  }
}

function writeError(rel: string, e: unknown): OutputError {
  return new OutputError(`cannot write ${rel}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
}

interface RenderState {
  routes: RouteManifestEntry[];
  cache: Map<string, string>;
  pages: number;
}

/**
 * One file of a site before it is rendered: where it goes, its cache policy, and how to make its
 * bytes. The static build renders each as it writes it; `kit dev` renders a page when it is asked
 * for.
 */
export interface PlannedFile {
  rel: string;
  /** Cache-Control the app serves it with (absent: `no-cache`). */
  cache?: string;
  /** The page and path a prerendered page file answers. */
  route?: RouteManifestEntry;
  /** Known for assets. */
  hash?: string;
  content(): string | Uint8Array;
}

/** An asset file as planned: hashed names are cached for good. */
export function plannedAsset(a: SiteAsset): PlannedFile {
  return { rel: a.path, hash: a.sha256, content: () => a.content, ...(a.immutable ? { cache: IMMUTABLE_CACHE } : {}) };
}

/** A prerendered page file as planned (`page` is no SSR page): its route entry, and how to render it. */
function plannedPage(page: CompiledPage, pre: PrerenderPath): PlannedFile {
  const render = page.render as RouteManifestEntry['render'];
  return {
    rel: pre.file,
    ...(page.cache !== undefined ? { cache: page.cache } : {}),
    route: { page: page.pageId, route: page.route, path: pre.path, file: pre.file, render },
    content: () => renderTemplate(page.ir, pre.params, pre.params),
  };
}

/**
 * Every page with the prerendered paths it writes (the first declaration of an output file wins);
 * SSR pages and pages whose files are all taken come with none.
 */
function* pagePaths(site: CompiledSite): Generator<[CompiledPage, PrerenderPath[]]> {
  const planned = new Set<string>();
  for (const page of site.pages) {
    const paths: PrerenderPath[] = [];
    if (page.render !== 'ssr')
      for (const pre of page.prerender) {
        if (planned.has(pre.file)) continue;
        planned.add(pre.file);
        paths.push(pre);
      }
    yield [page, paths];
  }
}

/**
 * The files of the site except the manifests, in the order `kit dev` serves them: the assets, then
 * every prerendered page. Nothing is rendered until `content()` is called.
 */
export function* plannedFiles(site: CompiledSite): Generator<PlannedFile> {
  for (const a of site.assets) yield plannedAsset(a);
  for (const [page, paths] of pagePaths(site)) for (const pre of paths) yield plannedPage(page, pre);
  const notFound = notFoundPage(site);
  if (notFound !== undefined) yield { rel: NOT_FOUND_FILE, content: () => notFound };
}

/**
 * The files of the site except the manifests, each rendered when it is about to be written (a
 * page's HTML is garbage by the next one): the pages, then the assets they registered. Every page
 * is compiled, prerendered or not, so that a lazily compiled site finds every diagnostic of an eager
 * compile; a lazy page's body is compiled for this once and kept nowhere (`CompiledSite.lazy.once`).
 */
function* siteFiles(site: CompiledSite, opts: WriteOptions, state: RenderState): Generator<OutFile> {
  const total = site.pages.reduce((n, p) => n + p.prerender.length, 0);
  let done = 0;
  for (const [page, paths] of pagePaths(site)) {
    const ir = site.lazy ? site.lazy.once(page).ir : page.ir;
    for (const pre of paths) {
      const f = plannedPage(page, pre);
      if (f.cache !== undefined) state.cache.set(f.rel, f.cache);
      state.routes.push(f.route!);
      state.pages++;
      if (opts.progress && (++done & 127) === 0) opts.progress(done, total);
      yield { rel: f.rel, content: renderTemplate(ir, pre.params, pre.params) };
    }
  }
  state.routes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const notFound = notFoundPage(site);
  if (notFound !== undefined) yield { rel: NOT_FOUND_FILE, content: notFound };
  for (const a of site.assets) {
    const f = plannedAsset(a);
    if (f.cache !== undefined) state.cache.set(f.rel, f.cache);
    yield { rel: f.rel, content: f.content(), hash: f.hash };
  }
}

/** What static hosts answer unknown paths with (and the app too, before its routes are known). */
export const NOT_FOUND_FILE = '404.html';

/**
 * `404.html`: the error page of the page at `/` (else of the first page, by ID, that has one),
 * rendered for status 404 with the generic message the app uses.
 */
function notFoundPage(site: CompiledSite): string | undefined {
  const withPage = site.pages.filter((p) => p.errorPage !== undefined);
  const page = withPage.find((p) => p.route === '/') ?? withPage[0];
  if (page?.errorPage === undefined) return undefined;
  return renderTemplate(site.errorPages[page.errorPage], { status: 404, message: 'page not found' });
}

function routesManifest(state: RenderState, opts: WriteOptions): OutFile {
  return {
    rel: ROUTES_MANIFEST,
    content: JSON.stringify({ version: 1, routes: state.routes, endpoints: opts.endpoints }, null, 2) + '\n',
  };
}

/** The assets manifest lists every other file of the output; it cannot list its own hash. */
function assetsManifest(w: Written, state: RenderState): OutFile {
  const files = [...w.hashes.keys()].sort();
  const manifest = {
    version: 1,
    files,
    hashes: sortKeys(w.hashes),
    sizes: sortKeys(w.sizes),
    cache: sortKeys(state.cache),
  };
  return { rel: ASSETS_MANIFEST, content: JSON.stringify(manifest, null, 2) + '\n' };
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

interface Tree {
  write(f: OutFile): void | Promise<void>;
  finish(): void | Promise<void>;
}

/**
 * Writes every file of the site into the fresh directory `tmp` through `tree`: the pages and
 * assets, then the manifests. A generator, so that the one sequence serves both writers: each
 * yield is a write to wait for (nothing, for the synchronous writer).
 */
function* writeTree(site: CompiledSite, tree: Tree, opts: WriteOptions): Generator<unknown, WriteStats> {
  const errorsBefore = site.diagnostics.length;
  const w = new Written();
  const state: RenderState = { routes: [], cache: new Map(), pages: 0 };
  for (const f of siteFiles(site, opts, state)) {
    yield tree.write(f);
    w.add(f);
  }
  if (site.diagnostics.length > errorsBefore) throw new SiteErrors(site.diagnostics);
  const routes = routesManifest(state, opts);
  yield tree.write(routes);
  w.add(routes);
  yield tree.write(assetsManifest(w, state));
  yield tree.finish();
  return { pages: state.pages, files: w.hashes.size, bytes: w.bytes };
}

/** The synchronous writer: one file at a time on this thread. */
class SyncTree implements Tree {
  private readonly files: FileWriter;
  constructor(root: string) {
    this.files = new FileWriter(root);
  }

  write(f: OutFile): void {
    try {
      this.files.write(f.rel, f.content);
    } catch (e) {
      throw writeError(f.rel, e);
    }
  }

  finish(): void {}
}

/** `kit build`'s writer: the files written on a thread of their own (`write-thread.ts`). */
class ThreadTree implements Tree {
  private readonly thread: WriteThread;
  constructor(root: string) {
    this.thread = new WriteThread(root);
  }

  write(f: OutFile): Promise<void> {
    return this.thread.write(f.rel, f.content).catch(threadError);
  }

  finish(): Promise<void> {
    return this.thread.finish().catch(threadError);
  }
}

function threadError(e: unknown): never {
  if (e instanceof WriteFailed) throw new OutputError(e.message);
  throw new OutputError(`cannot write the output: ${(e as Error).message}`);
}

/** Renders and writes the site to `outDir`, atomically. Throws `OutputError` on I/O failure. */
export function writeStaticSite(site: CompiledSite, outDir: string, opts: WriteOptions): WriteStats {
  const out = resolve(outDir);
  const target = outTarget(outDir);
  checkTarget(out, target);
  const { tmp, suffix } = makeTemp(out, 'build', target);
  let stats: WriteStats;
  try {
    const steps = writeTree(site, new SyncTree(tmp), opts);
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
export async function writeStaticSiteAsync(
  site: CompiledSite,
  outDir: string,
  opts: WriteOptions,
): Promise<WriteStats> {
  const out = resolve(outDir);
  const target = outTarget(outDir);
  checkTarget(out, target);
  const { tmp, suffix } = makeTemp(out, 'build', target);
  const tree = new ThreadTree(tmp);
  let stats: WriteStats;
  try {
    const steps = writeTree(site, tree, opts);
    let step = steps.next();
    while (!step.done) step = steps.next(await step.value);
    stats = step.value;
  } catch (e) {
    // Writes still in flight finish (or fail) before their directory goes.
    await tree.finish().catch(() => undefined);
    await removeTreeAsync(tmp);
    throw e;
  }
  const old = swapInto(tmp, out, suffix, target, false);
  if (old) await removeTreeAsync(old);
  return stats;
}

export { removeTree } from './replace-dir.js';
