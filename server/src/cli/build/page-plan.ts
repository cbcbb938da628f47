// What a build with its cache writes and remembers (`incremental.ts`): the site to write, its pages
// kept from the cache or compiled now, and, once written, the cache's new index and records of
// every page, source, asset and output file.
import { sha256, type AssetRecord, type PageRecord } from '#core/build/cache-records.js';
import type { CachedSite } from '#core/build/cached-site.js';
import { ASSETS_MANIFEST, ROUTES_MANIFEST } from '#core/build/manifests.js';
import type {
  CompiledPage,
  CompiledSite,
  KeptFile,
  PreviousOutput,
  WrittenFile,
  WriteStats,
} from '#core/build/index.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import type { Workspace } from '#core/workspace/workspace.js';
import { hex, type BuildContext, type Compiler } from './build-context.js';
import type { BuildIndex } from './cache-index.js';
import type { BuildCache } from './cache-store.js';
import { fingerprintOf, outputEntries, patchedEntries, withRootEntry } from './output-state.js';

/** A plan the cache made for this build: what to write, and how to remember it once written. */
export interface CachedPlan {
  source: CachedSite;
  previous?: PreviousOutput;
  written(f: WrittenFile): void;
  /** Work of the plan's that can wait for the writing thread to be behind (`WriteOptions.idle`). */
  idle?: () => boolean;
  /** The cache's records, made while the writing thread finishes (`WriteOptions.beforeFinish`). */
  beforeFinish?: () => void;
}

/** What the next index holds that the planner knows before writing (`index`: the last build's). */
export type PlannedIndex = Omit<
  BuildIndex,
  'global' | 'inputs' | 'assets' | 'blobs' | 'pages' | 'output' | 'shared' | 'dead'
> & {
  index: BuildIndex | undefined;
};

/**
 * The plan of a build of `site`: the pages of `kept` written as the cache kept them, the others as
 * compiled; and `finish`, which commits the cache's new index once the output is written.
 */
export function planWrite(
  b: BuildContext,
  c: Compiler,
  site: CompiledSite,
  kept: ReadonlyMap<string, PageRecord>,
  heads: CachedSite['pages'],
  outAbs: string,
  next: PlannedIndex,
  ws?: Workspace,
): { plan: CachedPlan; diagnostics: Diagnostic[]; finish: (stats: WriteStats) => void } {
  const cache = b.cache;
  const x = next.index;
  const source = new c.CachedSite(
    {
      site,
      kept,
      file: (h, size) => keptFile(cache, h, size),
      asset: (path) => {
        const a = x?.assets.get(path);
        return a && { ...keptFile(cache, a.hash, a.size), path, immutable: a.immutable };
      },
    },
    heads,
  );
  const byPage = new Map<string, Map<string, [string, number]>>();
  /** Every file of the output, with its hash. */
  const sizes = new Map<string, string>();
  const written = (f: WrittenFile) => {
    sizes.set(f.rel, f.hash);
    // A kept file is in the cache already, and its page's record stays as it is.
    if (f.content === undefined && !f.early) return;
    const h = hex(f.hash);
    if (f.page) {
      let m = byPage.get(f.page.source);
      if (m === undefined) byPage.set(f.page.source, (m = new Map()));
      m.set(f.rel, [h, f.size]);
    }
    // A file written while the sources loaded was kept then (`EarlyOutputOptions.keep`).
    if (f.content !== undefined && f.rel !== ROUTES_MANIFEST && f.rel !== ASSETS_MANIFEST)
      cache.keep(h, f.bytes ?? f.content);
  };
  const plan: CachedPlan = {
    source,
    previous: b.lastOutput(outAbs, x).previous(),
    written,
  };
  // The index but for the output's entry, made once every file went to the writer: while the
  // writing thread finishes (`WriteOptions.beforeFinish`), or else when the build is remembered.
  let prepared: { index: Omit<BuildIndex, 'output'>; files: string[] } | undefined;
  const prepare = (): { index: Omit<BuildIndex, 'output'>; files: string[] } => {
    if (prepared) return prepared;
    const pages = new Map<string, PageRecord>();
    for (const r of source.used) pages.set(r.source, r);
    const notFound = new Map<string, [string, number]>();
    const notFoundOf = (key: string): [string, number] => {
      let v = notFound.get(key);
      if (v === undefined) {
        const html = c.renderNotFound(site.errorPages[key]);
        const h = sha256(html);
        cache.keep(h, html);
        notFound.set(key, (v = [h, Buffer.byteLength(html)]));
      }
      return v;
    };
    for (const [page, body] of source.compiled) {
      const r = pageRecord(b, page, body.dependsOn, byPage.get(page.source) ?? new Map(), next.config, next.parts, ws);
      r.kitJs = body.kitJs;
      r.assets = body.assets;
      if (page.errorPage !== undefined) r.notFound = notFoundOf(page.errorPage);
      pages.set(r.source, r);
    }
    const kitSources = new Set(next.sources.map((s) => s.path));
    const inputs = new Map<string, string>();
    const shared = new Set<string>();
    for (const r of pages.values())
      for (const d of r.deps) {
        if (d !== r.source) shared.add(d);
        if (!kitSources.has(d) && !next.modules.has(d)) inputs.set(d, b.sources.hashOf(d, ws));
      }
    const assets = new Map<string, AssetRecord>();
    for (const a of source.assets()) {
      const size =
        'size' in a ? a.size : typeof a.content === 'string' ? Buffer.byteLength(a.content) : a.content.byteLength;
      assets.set(a.path, { path: a.path, hash: hex(a.sha256), size, immutable: a.immutable });
    }
    const index = {
      global: b.global,
      config: next.config,
      parts: next.parts,
      fast: next.fast,
      shared,
      dead: 0,
      sources: next.sources,
      modules: next.modules,
      inputs,
      types: next.types,
      diagnostics: next.diagnostics,
      cross: next.cross,
      assets,
      blobs: new Map(),
      pages,
    };
    // The output's files: those the manifest lists, and the manifest.
    return (prepared = { index, files: [...sizes.keys()].sort() });
  };
  plan.beforeFinish = () => void prepare();
  const finish = (stats: WriteStats): void => {
    const { index, files } = prepare();
    // What the file system says of the output's files now (after a patch, of those it changed).
    const fingerprint = () => {
      const p = stats.patched;
      const before = b.lastOutput(outAbs, x).entries;
      const entries =
        p && before
          ? patchedEntries(outAbs, before, p.written, p.removed)
          : stats.entries
            ? withRootEntry(outAbs, stats.entries)
            : outputEntries(outAbs, files);
      return entries ? fingerprintOf(entries, files) : '0'.repeat(64);
    };
    cache.commit({
      ...index,
      output: {
        dir: b.sources.keyPath(outAbs),
        manifest: hex(stats.manifest),
        pages: stats.pages,
        files,
        fingerprint: fingerprint(),
        notFound: c.notFoundSource(source.pages)?.source ?? '',
      },
    });
  };
  return { plan, diagnostics: next.diagnostics, finish };
}

function pageRecord(
  b: BuildContext,
  page: CompiledPage,
  deps: string[],
  files: Map<string, [string, number]>,
  config: string,
  parts: string,
  ws?: Workspace,
): PageRecord {
  const r: PageRecord = {
    source: page.source,
    key: '',
    deps,
    pageId: page.pageId,
    route: page.route,
    render: page.render,
    prerender: page.prerender.map((p) => [p.path, p.file]),
    files,
    kitJs: false,
    assets: [],
  };
  if (page.cache !== undefined) r.cache = page.cache;
  if (page.errorPage !== undefined) r.errorPage = page.errorPage;
  r.key = b.keyOf(r, config, parts, ws);
  return r;
}

function keptFile(cache: BuildCache, h: string, size: number): KeptFile {
  return { sha256: `sha256-${h}`, size, bytes: () => cache.bytes(h) };
}
