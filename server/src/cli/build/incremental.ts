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
//
// The changed files' checks and the pages-only edit are in `edited-pages.ts`; what a build writes
// and then remembers, in `page-plan.ts`; what those parts read of the build, in `build-context.ts`.
import { relative, resolve } from 'node:path';
import { globalKey, pageKey, sha256, type PageRecord, type SourceRecord, partsKey } from '#core/build/cache-records.js';
import type { CompiledSite, WriteStats } from '#core/build/index.js';
import { kitRuntimeSource } from '#core/build/runtime-script.js';
import { typesRootOf } from '#core/build/page-types.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import { declaredFiles } from '#core/model/asset-files.js';
import type { CheckOptions } from '#core/model/options.js';
import type { DiscoveredSources } from '#core/project/discover.js';
import { diskFiles } from '#core/project/disk-files.js';
import type { SourceText } from '#core/project/read-source.js';
import type { FileState } from '#core/project/source-bytes.js';
import type { Workspace } from '#core/workspace/workspace.js';
import type { CliIO } from '../io.js';
import { type BuildContext, compiler } from './build-context.js';
import { pagesOf, type BuildIndex } from './cache-index.js';
import { CacheProblem } from './cache-lines.js';
import { BuildCache, CACHE_DIR } from './cache-store.js';
import { checkChanged, mergeLocal, pagesOnly } from './edited-pages.js';
import { kitIdentity } from './identity.js';
import { type CachedPlan, planWrite } from './page-plan.js';
import { SourceLedger } from './source-ledger.js';
import { LastOutput } from './output-state.js';

export type { CachedPlan } from './page-plan.js';

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

export class IncrementalBuild implements BuildContext {
  readonly cache: BuildCache;
  readonly global: string;
  /** What this build knows of its sources and the other files its pages read. */
  readonly sources: SourceLedger;
  private warned = false;

  constructor(
    readonly io: CliIO,
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
  warnUnwritten(e: unknown): void {
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

  keyOf(r: Pick<PageRecord, 'source' | 'deps'>, config: string, parts: string, ws?: Workspace): string {
    return pageKey(
      this.global,
      config,
      parts,
      this.sources.keyPath(r.source),
      r.deps.map((d) => [this.sources.keyPath(d), this.sources.hashOf(d, ws)]),
    );
  }

  /** The output directory as the last build left it (`output-state.ts`), checked once. */
  lastOutput(outAbs: string, x: BuildIndex | undefined): LastOutput {
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
      const only = await pagesOnly(this, x, changed, bySource, options, outAbs, inPlace && !inputsChanged);
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
    const checked = checkChanged(this, c, x, bySource, compile, changed, options);
    if (checked === undefined) return undefined;
    const site = c.compileSite(checked.mini, { cwd: this.io.cwd, lazy: true }, checked.early);
    if (site.diagnostics.length) return undefined;
    const kept = new Map([...pages].filter(([source]) => !compile.has(source)));
    const heads = c.cachedPages(site, kept);
    if (heads === undefined) return undefined;
    const planned = planWrite(this, c, site, kept, heads, outAbs, {
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
    this.finish = planned.finish;
    return { diagnostics: planned.diagnostics, types, plan: planned.plan, text };
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
    const planned = planWrite(this, c, site, kept, site.pages, outAbs, next, ws);
    this.finish = planned.finish;
    const plan = planned.plan;
    plan.idle = slice;
    return plan;
  }

  // ---- writing and remembering ----------------------------------------------------------------

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
