// The site `kit build` writes with its cache: the pages compiled now (a `CompiledSite`: the whole
// workspace's, or only the pages that changed) and the pages whose key the cache holds, written as
// the files it kept (`cache-records.ts`). What is global to the site is made again from all of
// them, as a clean build makes it: the order of the pages and which page writes a file, the routes,
// `404.html` and the assets, those of the kept pages adopted as `kit dev` adopts a reused page's.
import {
  pagePaths,
  notFoundSource,
  renderNotFound,
  type KeptAsset,
  type KeptFile,
  type SiteSource,
} from './site-files.js';
import type { WrittenPage, PageOutput } from './site-files.js';
import type { CompiledPage, CompiledSite, PageBody, PrerenderPath } from './compiled.js';
import type { PageRecord } from './cache-records.js';
import type { SiteAsset } from './assets.js';
import { KIT_JS_PATH } from './runtime-script.js';
import { comparePages } from './document.js';

export interface CachedSiteOptions {
  site: CompiledSite;
  /**
   * The pages to write as the cache kept them, by source. A page of `site` keeps its head from the
   * compile; a page `site` does not have takes its head from the record.
   */
  kept: ReadonlyMap<string, PageRecord>;
  /** A file the cache holds, by hash and size. */
  file(hash: string, size: number): KeptFile;
  /** An asset file the cache holds, by output path. */
  asset(path: string): KeptAsset | undefined;
}

/** The head of a page the cache kept, as the writer reads it. */
function recordHead(r: PageRecord): WrittenPage {
  return {
    pageId: r.pageId,
    source: r.source,
    route: r.route,
    render: r.render,
    ...(r.cache !== undefined ? { cache: r.cache } : {}),
    ...(r.errorPage !== undefined ? { errorPage: r.errorPage } : {}),
    // A kept page is never rendered: its params are not needed.
    prerender: r.prerender.map(([path, file]) => ({ path, file, params: {} })),
  };
}

/**
 * The pages of `site` and the kept pages it does not have, in the site's order. Answers undefined
 * when a kept page lacks a file it is to write (a file another page took before and let go of
 * since): the cache cannot write it without compiling the page.
 */
export function cachedPages(site: CompiledSite, kept: ReadonlyMap<string, PageRecord>): WrittenPage[] | undefined {
  const compiled = new Set(site.pages.map((p) => p.source));
  const pages: WrittenPage[] = [...site.pages];
  for (const r of kept.values()) if (!compiled.has(r.source)) pages.push(recordHead(r));
  pages.sort(comparePages);
  for (const [page, paths] of pagePaths(pages)) {
    if (compiled.has(page.source)) continue;
    const r = kept.get(page.source)!;
    if (paths.some((p) => !r.files.has(p.file))) return undefined;
  }
  return pages;
}

/** What a page's cache record keeps of its compiled body. */
export type BodyFacts = Pick<PageBody, 'dependsOn' | 'kitJs' | 'assets'>;

export class CachedSite implements SiteSource {
  readonly pages: readonly WrittenPage[];
  /**
   * The pages compiled for this build, with what their records keep of their bodies (not the
   * template: held here until the build ends, every page's template stayed in the heap).
   */
  readonly compiled = new Map<CompiledPage, BodyFacts>();
  /** The records of the pages written as kept. */
  readonly used: PageRecord[] = [];
  private readonly ofSite: Set<WrittenPage>;

  constructor(
    private readonly o: CachedSiteOptions,
    pages: readonly WrittenPage[],
  ) {
    this.pages = pages;
    this.ofSite = new Set(o.site.pages);
  }

  get diagnostics(): CompiledSite['diagnostics'] {
    return this.o.site.diagnostics;
  }

  body(page: WrittenPage, files: readonly PrerenderPath[]): PageOutput {
    const r = this.o.kept.get(page.source);
    if (r && files.every((f) => r.files.has(f.file))) {
      this.used.push(r);
      const kept = new Map<string, KeptFile>();
      for (const f of files) {
        const [hash, size] = r.files.get(f.file)!;
        kept.set(f.file, this.o.file(hash, size));
      }
      return { kept };
    }
    if (!this.ofSite.has(page)) throw new Error(`${page.source}: neither compiled nor kept by the build cache`);
    const p = page as CompiledPage;
    const site = this.o.site;
    const body = site.lazy ? site.lazy.once(p) : p;
    this.compiled.set(p, { dependsOn: body.dependsOn, kitJs: body.kitJs, assets: body.assets });
    return { ir: body.ir };
  }

  notFound(): string | KeptFile | undefined {
    const page = notFoundSource(this.pages);
    if (page?.errorPage === undefined) return undefined;
    if (this.ofSite.has(page)) return renderNotFound(this.o.site.errorPages[page.errorPage]);
    const found = this.o.kept.get(page.source)?.notFound;
    if (found === undefined) throw new Error(`${page.source}: the build cache has no 404 page of it`);
    return this.o.file(...found);
  }

  /** The compiled site's assets and those of the kept pages (which a clean build would have registered). */
  assets(): readonly (SiteAsset | KeptAsset)[] {
    const byPath = new Map<string, SiteAsset | KeptAsset>();
    for (const a of this.o.site.assets) byPath.set(a.path, a);
    const adopt = (path: string) => {
      if (byPath.has(path)) return;
      const a = this.o.asset(path);
      if (a === undefined) throw new Error(`the build cache has no asset ${path}`);
      byPath.set(path, a);
    };
    for (const r of this.used) {
      for (const href of r.assets) adopt(href.slice(1));
      if (r.kitJs) adopt(KIT_JS_PATH);
    }
    return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}
