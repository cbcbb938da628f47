// `kit build` with its cache (`cache-store.ts`): a build that redoes only what changed.
//
// Every build hashes its sources' bytes, but for a file that shows the state its record kept
// (`core/project/source-bytes.ts`: a `stat` instead of a read). When the last build's records
// allow it (no handler modules, endpoints or SSR pages, the same files, the same kit and options)
// the workspace is validated from them (`planFast`): an unchanged file keeps its diagnostics, and
// a changed one is parsed and checked alone; if what other files can see of it (its shape) is what
// it was and no cross-file diagnostic involves it, no other file's diagnostics can change (the
// workspace's own summary firewall). Only the pages whose key changed are compiled, in a workspace of themselves
// and the layouts and components. Otherwise the workspace is loaded and checked whole and every page
// whose key is unchanged is still not compiled (`planFull`). Either way the output in place, when it
// is the last build's, is patched with the files whose bytes differ, and nothing is touched when
// none does; else it is written whole from the cache's bytes and the pages compiled now.
import { relative, resolve } from 'node:path';
import {
  globalKey,
  pageKey,
  partsKey,
  sha256,
  type AssetRecord,
  type PageRecord,
  type SourceRecord,
} from '#core/build/cache-records.js';
import type { CachedSite } from '#core/build/cached-site.js';
import type { EarlyBodies } from '#core/build/early-bodies.js';
import type {
  CompiledPage,
  CompiledSite,
  KeptFile,
  PreviousOutput,
  WrittenFile,
  WriteStats,
} from '#core/build/index.js';
import { kitRuntimeSource } from '#core/build/runtime-script.js';
import { typesRootOf } from '#core/build/page-types.js';
import { compareDiagnostics, type Diagnostic } from '#core/diagnostics/diagnostic.js';
import { declaredFiles } from '#core/model/asset-files.js';
import type { KitEntry } from '#core/model/entries.js';
import type { CheckOptions } from '#core/model/options.js';
import type { DiscoveredSources } from '#core/project/discover.js';
import { diskFiles } from '#core/project/disk-files.js';
import type { SourceText } from '#core/project/read-source.js';
import type { FileState } from '#core/project/source-bytes.js';
import type { Workspace } from '#core/workspace/workspace.js';
import type { CliIO } from '../io.js';
import { pageOf, pagesOf, type BuildIndex } from './cache-index.js';
import { CacheProblem } from './cache-lines.js';
import { BuildCache, CACHE_DIR } from './cache-store.js';
import { kitIdentity } from './identity.js';
import { SourceLedger } from './source-ledger.js';
import {
  ASSETS_MANIFEST,
  fingerprintOf,
  LastOutput,
  outputEntries,
  patchedEntries,
  withRootEntry,
} from './output-state.js';

/** The output's manifests (`core/build/output.ts`), named here without loading the writer. */
const ROUTES_MANIFEST = 'kit-routes.json';

/**
 * The modules a build that compiles needs, loaded only then: a build that changed nothing checks
 * hashes and the output in place, and initialises neither the workspace nor the compiler.
 */
async function compiler() {
  const [workspace, build, cached, shape, render] = await Promise.all([
    import('#core/workspace/workspace.js'),
    import('#core/build/index.js'),
    import('#core/build/cached-site.js'),
    import('#core/model/cross-shape.js'),
    import('#shared/render/index.js'),
  ]);
  return { ...workspace, ...build, ...cached, ...shape, renderTemplate: render.renderTemplate };
}
type Compiler = Awaited<ReturnType<typeof compiler>>;

/** `sha256-<hex>` → `<hex>`. */
function hex(h: string): string {
  return h.startsWith('sha256-') ? h.slice(7) : h;
}

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

/** Source records made per slice of idle work (a slice stays within a few milliseconds). */
const SOURCES_PER_SLICE = 64;

/** The fast path's answer: the build's diagnostics and page types from the records, and its plan. */
export interface FastPlan {
  diagnostics: Diagnostic[];
  types: ReadonlyMap<string, string | null>;
  /** Nothing changed and the output in place is the last build's: nothing to write. */
  unchanged?: { pages: number };
  plan?: CachedPlan;
  /**
   * Only pages changed, and only in their bytes (the same files, routes, layouts, components and
   * assets): their files are written into the output in place (`writeChangedFiles`), and their
   * records replaced. Answers the summary's counts.
   */
  pagesOnly?: () => { pages: number; kept: number };
  /** Looks up a source's text for code frames. */
  text(path: string): string | undefined;
}

export class IncrementalBuild {
  readonly cache: BuildCache;
  private readonly global: string;
  /** What this build knows of its sources and the other files its pages read. */
  private readonly sources: SourceLedger;
  private warned = false;

  constructor(
    private readonly io: CliIO,
    private readonly root: string,
    options: CheckOptions,
  ) {
    const kit = kitIdentity();
    this.sources = new SourceLedger(io.cwd, root);
    this.cache = new BuildCache(root, kit);
    this.global = globalKey({
      kit,
      runtime: sha256(kitRuntimeSource()),
      ssr: options.ssr,
      strictBindings: Boolean(options.strictBindings),
      cwd: this.sources.keyPath('.'),
    });
  }

  /** Says once, in one line, that the cache was ignored and why. */
  warnIfIgnored(): void {
    if (this.warned || this.cache.problem === undefined) return;
    this.warned = true;
    this.io.stderr.write(
      `kit build: warning: ignoring the cache in ${this.shown}: ${this.cache.problem}; building it again\n`,
    );
  }

  /** The cache's folder as messages name it. */
  private get shown(): string {
    return relative(this.io.cwd, resolve(this.root, CACHE_DIR)) || '.';
  }

  /** Says, in one line, that the cache could not be written (the build itself is done). */
  private warnUnwritten(e: unknown): void {
    this.cache.abandon();
    this.io.stderr.write(`kit build: warning: cannot write the cache in ${this.shown}: ${(e as Error).message}\n`);
  }

  /** What was read of the sources so far (`loadProject` takes them instead of reading them again). */
  get sourceTexts(): ReadonlyMap<string, SourceText> {
    return this.sources.texts;
  }

  /** What the file system said of each source the load read (`LoadOptions.states`), for the records. */
  get readStates(): Map<string, FileState> {
    return this.sources.readStates;
  }

  private keyOf(r: Pick<PageRecord, 'source' | 'deps'>, config: string, parts: string, ws?: Workspace): string {
    return pageKey(
      this.global,
      config,
      parts,
      this.sources.keyPath(r.source),
      r.deps.map((d) => [this.sources.keyPath(d), this.sources.hashOf(d, ws)]),
    );
  }

  /** The output directory as the last build left it (`output-state.ts`), checked once. */
  private lastOutput(outAbs: string, x: BuildIndex | undefined): LastOutput {
    this.last ??= new LastOutput(outAbs, this.sources.keyPath(outAbs), x?.output);
    return this.last;
  }

  private last: LastOutput | undefined;

  // ---- from the records alone ------------------------------------------------------------------

  /**
   * Validates and plans the build from the last build's records when they allow it (see the top of
   * this file); undefined when the workspace must be loaded whole.
   */
  async planFast(found: DiscoveredSources, options: CheckOptions, outAbs: string): Promise<FastPlan | undefined> {
    const x = this.cache.index;
    if (!x?.fast || x.global !== this.global) return undefined;
    if (found.kitFiles.length !== x.sources.length || found.kitFiles.some((p, i) => x.sources[i].path !== p))
      return undefined;
    if (found.modules.length !== x.modules.size) return undefined;
    const bySource = new Map(x.sources.map((s) => [s.path, s]));
    const changed: string[] = [];
    // A file's text is read only when needed: a changed file, a layout or component to compile
    // with, a file with diagnostics to show.
    if (!this.sources.hashSources([...found.modules, ...found.kitFiles], bySource, found.irregular)) return undefined;
    const inPlace = this.lastOutput(outAbs, x).isLast();
    for (const m of found.modules) if (x.modules.get(m) !== this.sources.hashOf(m)) return undefined;
    for (const s of x.sources) if (this.sources.hashOf(s.path) !== s.hash) changed.push(s.path);
    if (changed.some((p) => x.cross.has(p))) return undefined;
    const files = diskFiles(this.io.cwd);
    for (const s of x.sources) for (const [p, was] of s.probes) if (files.isFile(p) !== was) return undefined;
    const types = this.typesOf(x);
    if (types === undefined) return undefined;
    const text = (p: string) => {
      try {
        return this.sources.read(p).text;
      } catch {
        return undefined;
      }
    };
    const inputsChanged = [...x.inputs].some(([p, h]) => this.sources.hashOf(p) !== h);
    if (changed.length === 0 && !inputsChanged && inPlace)
      return { diagnostics: x.diagnostics, types, unchanged: { pages: x.output!.pages }, text };
    try {
      const only = await this.pagesOnly(x, changed, bySource, options, outAbs, inPlace && !inputsChanged);
      if (only) return { diagnostics: only.diagnostics, types, pagesOnly: only.run, text };
    } catch (e) {
      if (!(e instanceof CacheProblem)) throw e;
      this.cache.distrust(e.message);
      this.warnIfIgnored();
      return undefined;
    }
    let pages: Map<string, PageRecord>;
    try {
      pages = pagesOf(x);
    } catch (e) {
      if (!(e instanceof CacheProblem)) throw e;
      this.cache.distrust(e.message);
      this.warnIfIgnored();
      return undefined;
    }
    // The pages to compile: those whose key changed, and every changed page file (one that had no
    // head may have one now). With the same kit, flags, config and component and layout names, a
    // page's key changes exactly when a file it was made from did.
    const changedFiles = new Set(changed);
    for (const [p, h] of x.inputs) if (this.sources.hashOf(p) !== h) changedFiles.add(p);
    const compile = new Set<string>();
    for (const r of pages.values()) if (r.deps.some((d) => changedFiles.has(d))) compile.add(r.source);
    for (const p of changed) if (bySource.get(p)!.kind === 'page') compile.add(p);
    const c = await compiler();
    const checked = this.checkChanged(c, x, bySource, compile, changed, options);
    if (checked === undefined) return undefined;
    const site = c.compileSite(checked.mini, { cwd: this.io.cwd, lazy: true }, checked.early);
    if (site.diagnostics.length) return undefined;
    const kept = new Map([...pages].filter(([source]) => !compile.has(source)));
    const heads = c.cachedPages(site, kept);
    if (heads === undefined) return undefined;
    const plan = this.plan(c, site, kept, heads, outAbs, {
      index: x,
      sources: x.sources.map((s) => this.sources.updated(s)),
      modules: x.modules,
      config: x.config,
      parts: x.parts,
      fast: true,
      types: x.types,
      diagnostics: mergeLocal(x.diagnostics, checked.fresh),
      cross: x.cross,
    });
    return { diagnostics: plan.diagnostics, types, plan: plan.plan, text };
  }

  /**
   * A workspace of the layouts, the components and the pages `compile`, with each changed file
   * checked alone: undefined when one changed what other files see of it (its shape) or has an error.
   */
  private checkChanged(
    c: Compiler,
    x: BuildIndex,
    bySource: ReadonlyMap<string, SourceRecord>,
    compile: ReadonlySet<string>,
    changed: readonly string[],
    options: CheckOptions,
  ): { mini: Workspace; fresh: Map<string, KitEntry>; early: EarlyBodies } | undefined {
    // Each page compiled as it is read, and its tree let go of then (`EarlyBodies`), as in a whole
    // build: a layout edit compiles every page again, and holding all their trees until the writer
    // compiled each (10,000 pages) took the heap to 550 MB and a third of the build collecting it.
    const early = new c.EarlyBodies(this.io.cwd);
    const mini = new c.Workspace({ ...options, files: diskFiles(this.io.cwd) }, this.io.cwd, c.ONE_SHOT, early);
    const changedSet = new Set(changed);
    const pages = x.sources.filter((s) => s.kind === 'page' && (compile.has(s.path) || changedSet.has(s.path)));
    try {
      // Layouts and components first: a page read before its parts waits for them with its tree.
      for (const s of [...x.sources.filter((s) => s.kind !== 'page'), ...pages]) {
        const t = this.sources.read(s.path);
        mini.setKitFile(s.path, t.text, undefined, t.diagnostics);
      }
    } catch {
      // A file that cannot be read as text (no longer UTF-8 without NUL bytes): the whole load reports it.
      return undefined;
    }
    const fresh = new Map<string, KitEntry>();
    for (const p of changed) {
      const e = mini.kit(p);
      if (!e || sha256(c.crossShape(e)) !== bySource.get(p)!.shape) return undefined;
      if (e.local.some((d) => d.severity === 'error')) return undefined;
      fresh.set(p, e);
    }
    return { mini, fresh, early };
  }

  /**
   * The build of an edit that changed pages only in their bytes: only page files changed, none that
   * another page is made from, none whose error page is `404.html`, and each still compiles to the
   * same head (route, files, cache policy, error page) from the same files with the same assets. Its
   * other pages' records are not even read. Undefined when the edit is not of that kind.
   */
  private async pagesOnly(
    x: BuildIndex,
    changed: readonly string[],
    bySource: ReadonlyMap<string, SourceRecord>,
    options: CheckOptions,
    outAbs: string,
    inPlace: boolean,
  ): Promise<{ diagnostics: Diagnostic[]; run: () => { pages: number; kept: number } } | undefined> {
    const o = x.output;
    // Locations no page names pile up until a build collects them: past a tenth, this one does.
    if (!inPlace || o === undefined || x.dead > Math.max(64, x.sources.length / 10)) return undefined;
    if (!changed.every((p) => bySource.get(p)!.kind === 'page' && !x.shared.has(p) && p !== o.notFound))
      return undefined;
    const records = new Map<string, PageRecord>();
    for (const p of changed) {
      const r = pageOf(x, p);
      if (r === undefined) return undefined;
      records.set(p, r);
    }
    const c = await compiler();
    const checked = this.checkChanged(c, x, bySource, new Set(records.keys()), changed, options);
    if (checked === undefined) return undefined;
    const site = c.compileSite(checked.mini, { cwd: this.io.cwd, lazy: true }, checked.early);
    if (site.diagnostics.length || site.pages.length !== records.size) return undefined;
    const files: { rel: string; content: string }[] = [];
    const replaced: PageRecord[] = [];
    for (const page of site.pages) {
      const r = records.get(page.source);
      if (r === undefined || !sameHead(page, r)) return undefined;
      const body = site.lazy!.once(page);
      if (site.diagnostics.length) return undefined;
      if (!same(body.dependsOn, r.deps) || body.kitJs !== r.kitJs || !same(body.assets, r.assets)) return undefined;
      const written = new Map<string, [string, number]>();
      for (const pre of page.prerender) {
        if (!r.files.has(pre.file)) continue;
        const html = c.renderTemplate(body.ir, pre.params, pre.params);
        files.push({ rel: pre.file, content: html });
        written.set(pre.file, [sha256(html), Buffer.byteLength(html)]);
      }
      if (written.size !== r.files.size) return undefined;
      replaced.push({ ...r, key: this.keyOf(r, x.config, x.parts), files: written });
    }
    const diagnostics = mergeLocal(x.diagnostics, checked.fresh);
    const previous = this.lastOutput(outAbs, x).previous();
    if (previous === undefined) return undefined;
    const run = () => {
      const done = c.writeChangedFiles(outAbs, previous, files);
      const fresh = new Set(done.written);
      let dead = x.dead;
      for (const f of files)
        if (fresh.has(f.rel)) {
          this.cache.keep(sha256(f.content), f.content);
          dead++;
        }
      const before = this.lastOutput(outAbs, x).entries;
      const entries = before && patchedEntries(outAbs, before, done.written, []);
      try {
        this.cache.commitPages(
          {
            ...x,
            sources: x.sources.map((s) => this.sources.updated(s)),
            diagnostics,
            dead,
            output: {
              ...o,
              manifest: hex(done.manifest),
              fingerprint: entries ? fingerprintOf(entries, o.files) : '0'.repeat(64),
            },
          },
          replaced,
        );
      } catch (e) {
        this.warnUnwritten(e);
      }
      return { pages: o.pages, kept: o.pages - files.length };
    };
    return { diagnostics, run };
  }

  /**
   * The page types the records hold, for every directory of pages that has a types root now;
   * undefined when one has a root and no text (its tsconfig.json mapped `.kit-types` in since).
   */
  private typesOf(x: BuildIndex): ReadonlyMap<string, string | null> | undefined {
    const dirs = new Set<string>();
    for (const s of x.sources) if (s.kind === 'page') dirs.add(s.path.slice(0, Math.max(0, s.path.lastIndexOf('/'))));
    const seen = new Map<string, string | undefined>();
    for (const d of dirs)
      if (typesRootOf(resolve(this.io.cwd, d), seen) !== undefined && !x.types.has(d)) return undefined;
    return x.types;
  }

  // ---- after a whole load ---------------------------------------------------------------------

  /**
   * Plans a build of a loaded, checked workspace: every page whose key is the one remembered is
   * written as the cache kept it, the others as compiled (`site`).
   */
  async planFull(
    ws: Workspace,
    site: CompiledSite,
    found: DiscoveredSources,
    outAbs: string,
    facts: { diagnostics: Diagnostic[]; types: ReadonlyMap<string, string | null>; fast: boolean },
  ): Promise<CachedPlan> {
    const c = await compiler();
    const files = diskFiles(this.io.cwd);
    // The sources' records, made in order, a slice at a time while the writing thread is behind
    // (`CachedPlan.idle`); the rest when first needed.
    const sources: SourceRecord[] = [];
    let recorded = 0;
    const slice = (): boolean => {
      for (let n = 0; n < SOURCES_PER_SLICE && recorded < found.kitFiles.length; n++) {
        const path = found.kitFiles[recorded++];
        const e = ws.kit(path);
        if (!e) continue;
        const s = e.summary;
        const probes: [string, boolean][] = [];
        for (const f of declaredFiles(s)) if (f.path !== undefined) probes.push([f.path, files.isFile(f.path)]);
        sources.push({
          path,
          hash: this.sources.hashOf(path, ws),
          kind: s.kind,
          pkg: s.packageName,
          id: s.ownerId,
          shape: sha256(c.crossShape(e)),
          probes,
          state: this.sources.recordState(path),
        });
      }
      return recorded < found.kitFiles.length;
    };
    const allSources = (): SourceRecord[] => {
      while (slice());
      return sources;
    };
    let parts: string | undefined;
    const partsOf = (): string => (parts ??= partsKey(allSources()));
    const modules = new Map(found.modules.map((m) => [m, this.sources.hashOf(m, ws)]));
    const config = this.sources.configHash(found.modules, ws);
    const x = this.cache.index;
    const kept = new Map<string, PageRecord>();
    if (x !== undefined) {
      let records: Map<string, PageRecord> | undefined;
      try {
        records = pagesOf(x);
      } catch (e) {
        if (!(e instanceof CacheProblem)) throw e;
        this.cache.distrust(e.message);
        this.warnIfIgnored();
      }
      for (const p of site.pages) {
        const r = records?.get(p.source);
        if (r && this.keyOf(r, config, partsOf(), ws) === r.key) kept.set(p.source, r);
      }
    }
    // Local diagnostics are the files' own; the others are cross-file facts.
    const local = new Set<Diagnostic>();
    for (const path of [...found.kitFiles, ...found.modules])
      for (const d of (ws.kit(path) ?? ws.module(path))?.local ?? []) local.add(d);
    const cross = new Set<string>();
    for (const d of facts.diagnostics) {
      if (local.has(d)) continue;
      cross.add(d.file);
      for (const r of d.related ?? []) cross.add(r.file);
    }
    const seen = new Map<string, string | undefined>();
    const types = new Map([...facts.types].filter(([d]) => typesRootOf(resolve(this.io.cwd, d), seen) !== undefined));
    const next = {
      index: this.cache.index,
      get sources() {
        return allSources();
      },
      modules,
      config,
      get parts() {
        return partsOf();
      },
      fast: facts.fast,
      types,
      diagnostics: facts.diagnostics,
      cross,
    };
    const plan = this.plan(c, site, kept, site.pages, outAbs, next, ws).plan;
    plan.idle = slice;
    return plan;
  }

  // ---- writing and remembering ----------------------------------------------------------------

  private plan(
    c: Compiler,
    site: CompiledSite,
    kept: ReadonlyMap<string, PageRecord>,
    heads: CachedSite['pages'],
    outAbs: string,
    next: Omit<BuildIndex, 'global' | 'inputs' | 'assets' | 'blobs' | 'pages' | 'output' | 'shared' | 'dead'> & {
      index: BuildIndex | undefined;
    },
    ws?: Workspace,
  ): { plan: CachedPlan; diagnostics: Diagnostic[] } {
    const cache = this.cache;
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
      previous: this.lastOutput(outAbs, x).previous(),
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
        const r = this.record(page, body.dependsOn, byPage.get(page.source) ?? new Map(), next.config, next.parts, ws);
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
          if (!kitSources.has(d) && !next.modules.has(d)) inputs.set(d, this.sources.hashOf(d, ws));
        }
      const assets = new Map<string, AssetRecord>();
      for (const a of source.assets()) {
        const size =
          'size' in a ? a.size : typeof a.content === 'string' ? Buffer.byteLength(a.content) : a.content.byteLength;
        assets.set(a.path, { path: a.path, hash: hex(a.sha256), size, immutable: a.immutable });
      }
      const index = {
        global: this.global,
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
    this.finish = (stats) => {
      const { index, files } = prepare();
      // What the file system says of the output's files now (after a patch, of those it changed).
      const fingerprint = () => {
        const p = stats.patched;
        const before = this.last?.entries;
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
          dir: this.sources.keyPath(outAbs),
          manifest: hex(stats.manifest),
          pages: stats.pages,
          files,
          fingerprint: fingerprint(),
          notFound: c.notFoundSource(source.pages)?.source ?? '',
        },
      });
    };
    return { plan, diagnostics: next.diagnostics };
  }

  private record(
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
    r.key = this.keyOf(r, config, parts, ws);
    return r;
  }

  private finish: ((stats: WriteStats) => void) | undefined;

  /** Remembers the build just written (its plan's); a cache that cannot be written is a warning. */
  remember(stats: WriteStats): void {
    const finish = this.finish;
    this.finish = undefined;
    try {
      finish?.(stats);
    } catch (e) {
      this.warnUnwritten(e);
    }
  }

  /** Drops what a build that failed added to the cache. */
  abandon(): void {
    this.finish = undefined;
    this.cache.abandon();
  }
}

function keptFile(cache: BuildCache, h: string, size: number): KeptFile {
  return { sha256: `sha256-${h}`, size, bytes: () => cache.bytes(h) };
}

/** The same strings in the same order. */
function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Whether a page compiled now has the head its record has: the same route, files, cache policy and error page. */
function sameHead(p: CompiledPage, r: PageRecord): boolean {
  return (
    p.pageId === r.pageId &&
    p.route === r.route &&
    p.render === r.render &&
    p.cache === r.cache &&
    p.errorPage === r.errorPage &&
    p.prerender.length === r.prerender.length &&
    p.prerender.every((pre, i) => pre.path === r.prerender[i][0] && pre.file === r.prerender[i][1])
  );
}

/** The diagnostics of the last build with those of the changed files (their own, and only those) replaced. */
function mergeLocal(all: readonly Diagnostic[], fresh: ReadonlyMap<string, KitEntry>): Diagnostic[] {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of all) {
    if (fresh.has(d.file)) continue;
    const list = byFile.get(d.file);
    if (list) list.push(d);
    else byFile.set(d.file, [d]);
  }
  for (const [path, e] of fresh) if (e.local.length) byFile.set(path, [...e.local].sort(compareDiagnostics));
  const out: Diagnostic[] = [];
  for (const file of [...byFile.keys()].sort()) for (const d of byFile.get(file)!) out.push(d);
  return out;
}
