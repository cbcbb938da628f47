// `kit build` with its cache (`cache-store.ts`): a build that redoes only what changed.
//
// Every build reads and hashes its sources. When the last build's records allow it (no handler
// modules, endpoints or SSR pages, the same files, the same kit and options) the workspace is
// validated from them (`planFast`): an unchanged file keeps its diagnostics, and a changed one is
// parsed and checked alone; if what other files can see of it (its shape) is what it was and no
// cross-file diagnostic involves it, no other file's diagnostics can change (the workspace's own
// summary firewall). Only the pages whose key changed are compiled, in a workspace of themselves
// and the layouts and components. Otherwise the workspace is loaded and checked whole and every page
// whose key is unchanged is still not compiled (`planFull`). Either way the output in place, when it
// is the last build's, is patched with the files whose bytes differ, and nothing is touched when
// none does; else it is written whole from the cache's bytes and the pages compiled now.
import { statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { readFileSync } from 'node:fs';
import {
  globalKey,
  pageKey,
  partsKey,
  sha256,
  sourceHash,
  type AssetRecord,
  type PageRecord,
  type SourceRecord,
} from '../../core/build/cache-records.js';
import { CachedSite, cachedPages } from '../../core/build/cached-site.js';
import {
  ASSETS_MANIFEST,
  compileSite,
  kitRuntimeSource,
  renderNotFound,
  ROUTES_MANIFEST,
  type CompiledPage,
  type CompiledSite,
  type KeptAsset,
  type KeptFile,
  type PreviousOutput,
  type WrittenFile,
  type WriteStats,
} from '../../core/build/index.js';
import { compareDiagnostics, type Diagnostic } from '../../core/diagnostics/diagnostic.js';
import { isAppConfigPath } from '../../core/model/app-config.js';
import { declaredFiles } from '../../core/model/asset-files.js';
import { crossShape } from '../../core/model/cross-shape.js';
import type { KitEntry } from '../../core/model/entries.js';
import type { CheckOptions } from '../../core/model/options.js';
import type { DiscoveredSources } from '../../core/project/discover.js';
import { diskFiles } from '../../core/project/disk-files.js';
import { readSourceFile, type SourceText } from '../../core/project/read-source.js';
import { ReadAhead } from '../../core/project/read-ahead.js';
import { Workspace } from '../../core/workspace/workspace.js';
import { typesRootOf } from '../../core/build/page-types.js';
import type { CliIO } from '../io.js';
import { BuildCache, CacheProblem, CACHE_DIR, pagesOf, type BuildIndex } from './cache-store.js';
import { kitIdentity } from './identity.js';
import { outputFingerprint } from './output-state.js';

/** `sha256-<hex>` → `<hex>`. */
function hex(h: string): string {
  return h.startsWith('sha256-') ? h.slice(7) : h;
}

/** A plan the cache made for this build: what to write, and how to remember it once written. */
export interface CachedPlan {
  source: CachedSite;
  previous?: PreviousOutput;
  written(f: WrittenFile): void;
}

/** The fast path's answer: the build's diagnostics and page types from the records, and its plan. */
export interface FastPlan {
  diagnostics: Diagnostic[];
  types: ReadonlyMap<string, string | null>;
  /** Nothing changed and the output in place is the last build's: nothing to write. */
  unchanged?: { pages: number };
  plan?: CachedPlan;
  /** Looks up a source's text for code frames. */
  text(path: string): string | undefined;
}

export class IncrementalBuild {
  readonly cache: BuildCache;
  private readonly global: string;
  private readonly texts = new Map<string, SourceText>();
  private readonly hashes = new Map<string, string>();
  private warned = false;

  constructor(
    private readonly io: CliIO,
    private readonly root: string,
    options: CheckOptions,
  ) {
    const kit = kitIdentity();
    this.cache = new BuildCache(root, kit);
    this.global = globalKey({
      kit,
      runtime: sha256(kitRuntimeSource()),
      ssr: options.ssr,
      strictBindings: Boolean(options.strictBindings),
      cwd: this.keyPath('.'),
    });
  }

  /** Says once, in one line, that the cache was ignored and why. */
  warnIfIgnored(): void {
    if (this.warned || this.cache.problem === undefined) return;
    this.warned = true;
    const shown = relative(this.io.cwd, resolve(this.root, CACHE_DIR)) || '.';
    this.io.stderr.write(
      `kit build: warning: ignoring the cache in ${shown}: ${this.cache.problem}; building it again\n`,
    );
  }

  /** What was read of the sources so far (`loadProject` takes them instead of reading them again). */
  get sourceTexts(): ReadonlyMap<string, SourceText> {
    return this.texts;
  }

  private readonly keyPaths = new Map<string, string>();

  /** A path as keys hold it: relative to the project root, `/`-separated. */
  private keyPath(p: string): string {
    let k = this.keyPaths.get(p);
    if (k === undefined) {
      const rel = relative(this.root, resolve(this.io.cwd, p));
      this.keyPaths.set(p, (k = sep === '/' ? rel : rel.split(sep).join('/')));
    }
    return k;
  }

  /** Reads the sources not read yet, a thread reading ahead (`ReadAhead`) when they are many. */
  private readAll(paths: readonly string[]): void {
    const todo = paths.filter((p) => !this.texts.has(p));
    const ahead = new ReadAhead(todo.map((p) => resolve(this.io.cwd, p)));
    try {
      for (let i = 0; i < todo.length; i++) {
        const early = ahead.take(i);
        this.texts.set(todo[i], early !== undefined ? { text: early, diagnostics: [] } : this.read(todo[i]));
      }
    } finally {
      ahead.close();
    }
  }

  private read(path: string): SourceText {
    let t = this.texts.get(path);
    if (t === undefined) this.texts.set(path, (t = readSourceFile(resolve(this.io.cwd, path), path)));
    return t;
  }

  /** The content hash of a source (from its text) or of any other file a page read (`missing` when absent). */
  private hashOf(path: string, ws?: Workspace): string {
    let h = this.hashes.get(path);
    if (h !== undefined) return h;
    const entry = ws?.kit(path) ?? ws?.module(path);
    if (entry) h = sourceHash(entry.text, entry.readIssues);
    else if (this.texts.has(path)) {
      const t = this.texts.get(path)!;
      h = sourceHash(t.text, t.diagnostics);
    } else {
      try {
        const abs = resolve(this.io.cwd, path);
        h = statSync(abs).isFile() ? sha256(readFileSync(abs)) : 'missing';
      } catch {
        h = 'missing';
      }
    }
    this.hashes.set(path, h);
    return h;
  }

  private configHash(modules: readonly string[], ws?: Workspace): string {
    return sha256(JSON.stringify(modules.filter(isAppConfigPath).map((m) => [this.keyPath(m), this.hashOf(m, ws)])));
  }

  private keyOf(r: Pick<PageRecord, 'source' | 'deps'>, config: string, parts: string, ws?: Workspace): string {
    return pageKey(
      this.global,
      config,
      parts,
      this.keyPath(r.source),
      r.deps.map((d) => [this.keyPath(d), this.hashOf(d, ws)]),
    );
  }

  /**
   * Whether the output in place is the one the last build wrote: the same directory, its assets
   * manifest's bytes, and nothing changed in it since (`outputFingerprint`).
   */
  private outputInPlace(outAbs: string, x: BuildIndex | undefined): x is BuildIndex & { output: object } {
    const o = x?.output;
    if (o === undefined || o.dir !== this.keyPath(outAbs)) return false;
    try {
      if (sha256(readFileSync(resolve(outAbs, ASSETS_MANIFEST))) !== o.manifest) return false;
    } catch {
      return false;
    }
    return outputFingerprint(outAbs, o.files) === o.fingerprint;
  }

  /** The output in place as the writer patches it, when it is the last build's (`outputInPlace`). */
  private previousOutput(outAbs: string, x: BuildIndex | undefined): PreviousOutput | undefined {
    if (!this.outputInPlace(outAbs, x)) return undefined;
    try {
      const m = JSON.parse(readFileSync(resolve(outAbs, ASSETS_MANIFEST), 'utf8')) as {
        hashes?: Record<string, string>;
      };
      return { hashes: new Map(Object.entries(m.hashes ?? {})), manifest: `sha256-${x.output!.manifest}` };
    } catch {
      return undefined;
    }
  }

  // ---- from the records alone ------------------------------------------------------------------

  /**
   * Validates and plans the build from the last build's records when they allow it (see the top of
   * this file); undefined when the workspace must be loaded whole.
   */
  planFast(found: DiscoveredSources, options: CheckOptions, outAbs: string): FastPlan | undefined {
    const x = this.cache.index;
    if (!x?.fast || x.global !== this.global) return undefined;
    if (found.kitFiles.length !== x.sources.length || found.kitFiles.some((p, i) => x.sources[i].path !== p))
      return undefined;
    if (found.modules.length !== x.modules.size) return undefined;
    const bySource = new Map(x.sources.map((s) => [s.path, s]));
    const changed: string[] = [];
    try {
      this.readAll([...found.modules, ...found.kitFiles]);
      for (const m of found.modules) if (x.modules.get(m) !== this.hashOf(m)) return undefined;
      for (const s of x.sources) if (this.hashOf(s.path) !== s.hash) changed.push(s.path);
    } catch {
      // A source that cannot be read: the whole load reports it.
      return undefined;
    }
    if (changed.some((p) => x.cross.has(p))) return undefined;
    const files = diskFiles(this.io.cwd);
    for (const s of x.sources) for (const [p, was] of s.probes) if (files.isFile(p) !== was) return undefined;
    const types = this.typesOf(x);
    if (types === undefined) return undefined;
    const text = (p: string) => this.texts.get(p)?.text;
    const inputsChanged = [...x.inputs].some(([p, h]) => this.hashOf(p) !== h);
    if (changed.length === 0 && !inputsChanged && this.outputInPlace(outAbs, x))
      return { diagnostics: x.diagnostics, types, unchanged: { pages: x.output!.pages }, text };
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
    // head may have one now).
    const compile = new Set<string>();
    for (const r of pages.values()) if (this.keyOf(r, x.config, x.parts) !== r.key) compile.add(r.source);
    for (const p of changed) if (bySource.get(p)!.kind === 'page') compile.add(p);
    const mini = new Workspace({ ...options, files }, this.io.cwd, { incremental: false });
    const changedSet = new Set(changed);
    for (const s of x.sources)
      if (s.kind !== 'page' || compile.has(s.path) || changedSet.has(s.path)) {
        const t = this.texts.get(s.path)!;
        mini.setKitFile(s.path, t.text, undefined, t.diagnostics);
      }
    const fresh = new Map<string, KitEntry>();
    for (const p of changed) {
      const e = mini.kit(p);
      if (!e || sha256(crossShape(e)) !== bySource.get(p)!.shape) return undefined;
      if (e.local.some((d) => d.severity === 'error')) return undefined;
      fresh.set(p, e);
    }
    const site = compileSite(mini, { cwd: this.io.cwd, lazy: true });
    if (site.diagnostics.length) return undefined;
    const kept = new Map([...pages].filter(([source]) => !compile.has(source)));
    const heads = cachedPages(site, kept);
    if (heads === undefined) return undefined;
    const plan = this.plan(site, kept, heads, outAbs, {
      index: x,
      sources: x.sources.map((s) => (changedSet.has(s.path) ? { ...s, hash: this.hashOf(s.path) } : s)),
      modules: x.modules,
      config: x.config,
      parts: x.parts,
      fast: true,
      types: x.types,
      diagnostics: mergeLocal(x.diagnostics, fresh),
      cross: x.cross,
    });
    return { diagnostics: plan.diagnostics, types, plan: plan.plan, text };
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
  planFull(
    ws: Workspace,
    site: CompiledSite,
    found: DiscoveredSources,
    outAbs: string,
    facts: { diagnostics: Diagnostic[]; types: ReadonlyMap<string, string | null>; fast: boolean },
  ): CachedPlan {
    const files = diskFiles(this.io.cwd);
    const sources: SourceRecord[] = [];
    for (const path of found.kitFiles) {
      const e = ws.kit(path);
      if (!e) continue;
      const s = e.summary;
      const probes: [string, boolean][] = [];
      for (const f of declaredFiles(s)) if (f.path !== undefined) probes.push([f.path, files.isFile(f.path)]);
      sources.push({
        path,
        hash: this.hashOf(path, ws),
        kind: s.kind,
        pkg: s.packageName,
        id: s.ownerId,
        shape: sha256(crossShape(e)),
        probes,
      });
    }
    const modules = new Map(found.modules.map((m) => [m, this.hashOf(m, ws)]));
    const config = this.configHash(found.modules, ws);
    const parts = partsKey(sources);
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
        if (r && this.keyOf(r, config, parts, ws) === r.key) kept.set(p.source, r);
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
    return this.plan(
      site,
      kept,
      site.pages,
      outAbs,
      {
        index: this.cache.index,
        sources,
        modules,
        config,
        parts,
        fast: facts.fast,
        types,
        diagnostics: facts.diagnostics,
        cross,
      },
      ws,
    ).plan;
  }

  // ---- writing and remembering ----------------------------------------------------------------

  private plan(
    site: CompiledSite,
    kept: ReadonlyMap<string, PageRecord>,
    heads: CachedSite['pages'],
    outAbs: string,
    next: Omit<BuildIndex, 'global' | 'inputs' | 'assets' | 'blobs' | 'pages' | 'output'> & {
      index: BuildIndex | undefined;
    },
    ws?: Workspace,
  ): { plan: CachedPlan; diagnostics: Diagnostic[] } {
    const cache = this.cache;
    const x = next.index;
    const source = new CachedSite(
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
    const sizes = new Map<string, [string, number]>();
    const written = (f: WrittenFile) => {
      const h = hex(f.hash);
      sizes.set(f.rel, [h, f.size]);
      if (f.page) {
        let m = byPage.get(f.page.source);
        if (m === undefined) byPage.set(f.page.source, (m = new Map()));
        m.set(f.rel, [h, f.size]);
      }
      if (f.content !== undefined && f.rel !== ROUTES_MANIFEST && f.rel !== ASSETS_MANIFEST) cache.keep(h, f.content);
    };
    const plan: CachedPlan = {
      source,
      previous: this.previousOutput(outAbs, x),
      written,
    };
    this.finish = (stats) => {
      const pages = new Map<string, PageRecord>();
      for (const r of source.used) pages.set(r.source, r);
      const notFound = new Map<string, [string, number]>();
      const notFoundOf = (key: string): [string, number] => {
        let v = notFound.get(key);
        if (v === undefined) {
          const html = renderNotFound(site.errorPages[key]);
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
      for (const r of pages.values())
        for (const d of r.deps) if (!kitSources.has(d) && !next.modules.has(d)) inputs.set(d, this.hashOf(d, ws));
      // The output's files: those the manifest lists, and the manifest.
      const files = [...sizes.keys()].sort();
      const assets = new Map<string, AssetRecord>();
      for (const a of source.assets()) {
        const [h, size] = sizes.get(a.path) ?? [hex(a.sha256), 0];
        assets.set(a.path, { path: a.path, hash: h, size, immutable: a.immutable });
      }
      cache.commit({
        global: this.global,
        config: next.config,
        parts: next.parts,
        fast: next.fast,
        output: {
          dir: this.keyPath(outAbs),
          manifest: hex(stats.manifest),
          pages: stats.pages,
          files,
          fingerprint: outputFingerprint(outAbs, files) ?? '0'.repeat(64),
        },
        sources: next.sources,
        modules: next.modules,
        inputs,
        types: next.types,
        diagnostics: next.diagnostics,
        cross: next.cross,
        assets,
        blobs: new Map(),
        pages,
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
      this.cache.abandon();
      this.io.stderr.write(`kit build: warning: cannot write the cache in ${CACHE_DIR}: ${(e as Error).message}\n`);
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

export type { KeptAsset };
