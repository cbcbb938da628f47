// The files of a site, before they are written: each page's prerendered paths in the site's order
// (the first page to declare a file writes it), rendered from its template, taken from the files
// an earlier build made (`KeptFile`) or written already while the sources loaded (`EarlyFile`);
// then `404.html` and the assets. The static writer (`output.ts`) writes them, `kit dev` serves
// them (`plannedFiles`), and the build cache's site (`cached-site.ts`) is such a source.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { renderTemplate, type Template } from '#shared/render/index.js';
import type { SiteAsset } from './assets.js';
import type { CompiledPage, CompiledSite, PrerenderPath } from './compiled.js';
import type { EarlyFile, EarlyOutput } from './early-output.js';

export interface RouteManifestEntry {
  page: string;
  route: string;
  path: string;
  file: string;
  render: 'spa' | 'hybrid';
}

/**
 * A file an earlier build made, as the build cache keeps it: its hash and size, and its bytes,
 * read only when they have to be written.
 */
export interface KeptFile {
  /** `sha256-<hex>`. */
  sha256: string;
  size: number;
  bytes(): Uint8Array;
}

/** An asset file an earlier build made. */
export interface KeptAsset extends KeptFile {
  path: string;
  immutable: boolean;
}

/** Cache-Control of hashed asset names, whose content never changes. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** One file of the output: its path, and its bytes or the kept file; its hash when already known (assets). */
export interface OutFile {
  rel: string;
  content?: string | Uint8Array;
  kept?: KeptFile;
  hash?: string;
  page?: WrittenPage;
  /** Written already, while the sources loaded. */
  early?: EarlyFile;
}

/** What writing the pages gathers for the manifests: routes, cache policies and counts. */
export interface RenderState {
  routes: RouteManifestEntry[];
  cache: Map<string, string>;
  pages: number;
  kept: number;
}

/** What writing reads of a page: its route, the files it is prerendered to, its error page. */
export type WrittenPage = Pick<
  CompiledPage,
  'pageId' | 'source' | 'route' | 'render' | 'cache' | 'prerender' | 'errorPage'
>;

/** A page's body as the writer takes it: its template, or the files an earlier build made of it, by file. */
export type PageOutput = { ir: Template } | { kept: ReadonlyMap<string, KeptFile> };

/**
 * What the static writer writes: the pages in order (by page ID, then source), each body asked
 * for once, then the site's 404 document and its assets. `compiledSource` makes one of a
 * `CompiledSite`; the build cache makes one of a compiled site and the pages it kept.
 */
export interface SiteSource {
  pages: readonly WrittenPage[];
  /** The body of `page`, which writes `files` (its prerendered paths no earlier page took). */
  body(page: WrittenPage, files: readonly PrerenderPath[]): PageOutput;
  /** Once every body was asked for: `404.html`, if the site has one. */
  notFound(): string | KeptFile | undefined;
  /** Once every body was asked for: the asset files, sorted by path. */
  assets(): readonly (SiteAsset | KeptAsset)[];
  /** Compile errors; these grow as bodies compile. */
  readonly diagnostics: readonly Diagnostic[];
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

/** The route entry of a prerendered page file (`page` is no SSR page). */
export function routeEntry(page: WrittenPage, pre: PrerenderPath): RouteManifestEntry {
  const render = page.render as RouteManifestEntry['render'];
  return { page: page.pageId, route: page.route, path: pre.path, file: pre.file, render };
}

/** A prerendered page file as planned (`page` is no SSR page): its route entry, and how to render it. */
function plannedPage(page: CompiledPage, pre: PrerenderPath): PlannedFile {
  return {
    rel: pre.file,
    ...(page.cache !== undefined ? { cache: page.cache } : {}),
    route: routeEntry(page, pre),
    content: () => renderTemplate(page.ir, pre.params, pre.params),
  };
}

/**
 * Every page with the prerendered paths it writes (the first declaration of an output file wins);
 * SSR pages and pages whose files are all taken come with none.
 */
export function* pagePaths<P extends WrittenPage>(pages: readonly P[]): Generator<[P, PrerenderPath[]]> {
  const planned = new Set<string>();
  for (const page of pages) {
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
  for (const [page, paths] of pagePaths(site.pages)) for (const pre of paths) yield plannedPage(page, pre);
  const notFound = notFoundPage(site);
  if (notFound !== undefined) yield { rel: NOT_FOUND_FILE, content: () => notFound };
}

function isKept(a: SiteAsset | KeptAsset): a is KeptAsset {
  return 'bytes' in a;
}

/**
 * The files of the site except the manifests, each rendered when it is about to be written (a
 * page's HTML is garbage by the next one): the pages, then the assets they registered. Every
 * page's body is asked for, prerendered or not, so that a lazily compiled site finds every
 * diagnostic of an eager compile; a lazy page's body is compiled for this once and kept nowhere
 * (`CompiledSite.lazy.once`).
 */
export function* siteFiles(
  site: SiteSource,
  progress: ((done: number, total: number) => void) | undefined,
  state: RenderState,
  staged: EarlyOutput | undefined,
): Generator<OutFile> {
  const total = site.pages.reduce((n, p) => n + p.prerender.length, 0);
  let done = 0;
  for (const [page, paths] of pagePaths(site.pages)) {
    const body = site.body(page, paths);
    // The files rendered from this very template while the sources loaded: the same bytes.
    const early = 'ir' in body ? staged?.filesOf(body.ir) : undefined;
    for (const pre of paths) {
      if (page.cache !== undefined) state.cache.set(pre.file, page.cache);
      state.routes.push(routeEntry(page, pre));
      state.pages++;
      if (progress && (++done & 127) === 0) progress(done, total);
      if ('ir' in body) {
        const e = early?.get(pre.file);
        yield e?.pre === pre
          ? { rel: pre.file, early: e, page }
          : { rel: pre.file, content: renderTemplate(body.ir, pre.params, pre.params), page };
        continue;
      }
      const kept = body.kept.get(pre.file);
      if (kept === undefined) throw new Error(`${page.source}: the build cache has no ${pre.file}`);
      state.kept++;
      yield { rel: pre.file, kept, page };
    }
  }
  state.routes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const notFound = site.notFound();
  if (notFound !== undefined)
    yield typeof notFound === 'string'
      ? { rel: NOT_FOUND_FILE, content: notFound }
      : { rel: NOT_FOUND_FILE, kept: notFound };
  for (const a of site.assets()) {
    if (a.immutable) state.cache.set(a.path, IMMUTABLE_CACHE);
    yield isKept(a) ? { rel: a.path, kept: a } : { rel: a.path, content: a.content, hash: a.sha256 };
  }
}

/** What static hosts answer unknown paths with (and the app too, before its routes are known). */
export const NOT_FOUND_FILE = '404.html';

/** The page whose error page `404.html` is: the page at `/`, else the first page (by ID) that has one. */
export function notFoundSource<P extends WrittenPage>(pages: readonly P[]): P | undefined {
  const withPage = pages.filter((p) => p.errorPage !== undefined);
  return withPage.find((p) => p.route === '/') ?? withPage[0];
}

/** An error page rendered as `404.html` is: status 404 with the generic message the app uses. */
export function renderNotFound(errorPage: Template): string {
  return renderTemplate(errorPage, { status: 404, message: 'page not found' });
}

/** `404.html` of a compiled site, if it has one (`notFoundSource`). */
function notFoundPage(site: CompiledSite): string | undefined {
  const page = notFoundSource(site.pages);
  return page?.errorPage === undefined ? undefined : renderNotFound(site.errorPages[page.errorPage]);
}

/** The writer's view of a compiled site: each page's body compiled when it is written. */
export function compiledSource(site: CompiledSite): SiteSource {
  return {
    pages: site.pages,
    body: (page) => ({ ir: site.lazy ? site.lazy.once(page as CompiledPage).ir : (page as CompiledPage).ir }),
    notFound: () => notFoundPage(site),
    assets: () => site.assets,
    diagnostics: site.diagnostics,
  };
}
