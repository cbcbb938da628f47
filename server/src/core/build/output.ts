// Writes a compiled site as static files: every prerendered page, the assets, `kit-routes.json` and
// `kit-assets.json`. The whole tree is written into a fresh temporary directory beside `--out` and
// then renamed into place (`replace-dir.ts`), so a failed build never leaves a half-written output
// and nothing from a previous build survives.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderTemplate } from '../../../../shared/render/index.js';
import { sha256Hex, type SiteAsset } from './assets.js';
import type { CompiledSite } from './compiled.js';
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

/** The parent directory of an output-relative path, or '' at the root. */
function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash > 0 ? rel.slice(0, slash) : '';
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

/**
 * The files of the site except the manifests, in write order: the assets, then every prerendered
 * page (first declaration of an output file wins). Nothing is rendered until `content()` is called.
 */
export function* plannedFiles(site: CompiledSite): Generator<PlannedFile> {
  for (const a of site.assets) yield plannedAsset(a);
  const planned = new Set<string>();
  for (const page of site.pages) {
    if (page.render === 'ssr') continue;
    for (const pre of page.prerender) {
      if (planned.has(pre.file)) continue;
      planned.add(pre.file);
      yield {
        rel: pre.file,
        ...(page.cache !== undefined ? { cache: page.cache } : {}),
        route: { page: page.pageId, route: page.route, path: pre.path, file: pre.file, render: page.render },
        content: () => renderTemplate(page.ir, pre.params, pre.params),
      };
    }
  }
  const notFound = notFoundPage(site);
  if (notFound !== undefined) yield { rel: NOT_FOUND_FILE, content: () => notFound };
}

/**
 * The files of the site except the manifests, rendered when each is about to be written (a page's
 * HTML is garbage by the next one).
 */
function* siteFiles(site: CompiledSite, opts: WriteOptions, state: RenderState): Generator<OutFile> {
  const total = site.pages.reduce((n, p) => n + p.prerender.length, 0);
  let done = 0;
  for (const f of plannedFiles(site)) {
    if (f.cache !== undefined) state.cache.set(f.rel, f.cache);
    if (f.route) {
      state.routes.push(f.route);
      state.pages++;
      if (opts.progress && (++done & 127) === 0) opts.progress(done, total);
    }
    yield { rel: f.rel, content: f.content(), hash: f.hash };
  }
  state.routes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
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

class SyncTree {
  private readonly dirs = new Set<string>();
  constructor(private readonly root: string) {}

  write(f: OutFile): void {
    const dir = parentOf(f.rel);
    try {
      if (dir !== '' && !this.dirs.has(dir)) {
        mkdirSync(join(this.root, dir), { recursive: true });
        this.dirs.add(dir);
      }
      writeFileSync(join(this.root, f.rel), f.content);
    } catch (e) {
      throw writeError(f.rel, e);
    }
  }
}

/** Writes every file of the site into the fresh directory `tmp`; removes `tmp` on failure. */
function writeTree(site: CompiledSite, tmp: string, opts: WriteOptions): WriteStats {
  try {
    const tree = new SyncTree(tmp);
    const w = new Written();
    const state: RenderState = { routes: [], cache: new Map(), pages: 0 };
    for (const f of siteFiles(site, opts, state)) {
      tree.write(f);
      w.add(f);
    }
    const routes = routesManifest(state, opts);
    tree.write(routes);
    w.add(routes);
    tree.write(assetsManifest(w, state));
    return { pages: state.pages, files: w.hashes.size, bytes: w.bytes };
  } catch (e) {
    removeTree(tmp);
    throw e;
  }
}

/** Renders and writes the site to `outDir`, atomically. Throws `OutputError` on I/O failure. */
export function writeStaticSite(site: CompiledSite, outDir: string, opts: WriteOptions): WriteStats {
  const out = resolve(outDir);
  const target = outTarget(outDir);
  checkTarget(out, target);
  const { tmp, suffix } = makeTemp(out, 'build', target);
  const stats = writeTree(site, tmp, opts);
  swapInto(tmp, out, suffix, target);
  return stats;
}

/**
 * `writeStaticSite`, with the replaced output deleted by `removeTreeAsync`. The files are written
 * one at a time on purpose: creating files and directories costs CPU in the kernel, and writes in
 * parallel cost more of it (measured: 1.5–2x the system time on ext4), while removing directories
 * mostly waits on the disk, which parallel removal hides. `kit build` uses this one.
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
  const stats = writeTree(site, tmp, opts);
  const old = swapInto(tmp, out, suffix, target, false);
  if (old) await removeTreeAsync(old);
  return stats;
}

export { removeTree } from './replace-dir.js';
