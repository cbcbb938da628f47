// The state of a `kit dev` run: one workspace kept current file by file (the language server's
// incremental core), the last compile of the site, and the app answering requests — the generated
// app's own runtime (`shared/app`) built from a route table in memory, with pages rendered on
// request from the current templates instead of read from an output directory. A change that
// leaves errors keeps the last good app serving; the errors are shown beside it.
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { KitApp } from '#shared/app/app.js';
import type { Collector, Tracer } from '#shared/trace/index.js';
import { buildRouteTable, type RouteTable } from '#core/app/route-table.js';
import { compileSite, type CompiledSite } from '#core/build/index.js';
import { PageTypesWriter, type TypesWrite } from '#core/build/page-types.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import { discoverSources, displayPath } from '#core/project/discover.js';
import { loadProject } from '#core/project/load.js';
import { DEV_START, type Workspace } from '#core/workspace/workspace.js';
import { HandlerLoader, type CompileProblem } from './handler-loader.js';
import { pageChanges, sameRoutes, type ChangeReport } from './changes.js';
import { memorySource } from './memory-source.js';
import { readChanges } from './read-changes.js';

export interface DevSessionOptions {
  /** The directory `kit dev` serves (absolute). */
  root: string;
  cwd: string;
  ssr: boolean;
  /** The config module (absolute) whose `ssr` the session follows as it is edited (no `--ssr` given). */
  followConfig?: string;
  /** Told of each write of the generated page types (`.kit-types/`, kept current as pages change). */
  onTypes?: (result: TypesWrite) => void;
  csrfSecret: string;
  /**
   * The directory (absolute, above every source) span sources are named relative to: the trace
   * collector's `sourceRoot`, so that its viewer links them into the editor.
   */
  sourceRoot?: string;
  tracer?: Tracer;
  collector?: Collector;
  log: (line: string) => void;
  appName: string;
  /** Told of each thrown value a request answered with a 5xx (the overlay shows its stack). */
  onFault?: (err: unknown, res: ServerResponse) => void;
}

/** Cross-file buckets evaluated per event-loop turn while the start's checks run (a few ms of work). */
const CHECK_SLICE = 100;
/** Files whose own rules run per event-loop turn while the start's checks run (a few ms of work). */
const LOCAL_SLICE = 50;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const isBind = (key: string) => key.startsWith('bind:');

/**
 * Whether a line the app logs as it is made is a warning the checks gave already: the app warns of
 * a guard the config does not register, which is the checks' `unknown_guard`, and `kit dev` prints
 * the checks' warnings (once each): the app's would say it twice.
 */
function saidByChecks(line: string, diags: readonly Diagnostic[]): boolean {
  const m = /^kit: warning: guard ("(?:[^"\\]|\\.)*") is not registered in the app config/.exec(line);
  return m !== null && diags.some((d) => d.code === 'unknown_guard' && d.message.includes(`guard ${m[1]} is not`));
}

export class DevSession {
  readonly ws: Workspace;
  private readonly handlers: HandlerLoader;
  private readonly types: PageTypesWriter;
  private site: CompiledSite | undefined;
  private current: KitApp | undefined;
  private table: RouteTable | undefined;
  private errors: Diagnostic[] = [];
  private handlerProblem: CompileProblem | undefined;
  private modulePaths = '';
  /** Set while the start's checks run (`finishStart`): the app answers without handler bindings yet. */
  private startChecks:
    | {
        compiled?: () => Promise<CompileProblem | undefined>;
        /**
         * What the app built before the checks said as it was made: it has no handler modules or
         * app config yet, so its warnings (a guard the config registers, say) may not hold.
         */
        said: string[];
      }
    | undefined;
  private closed = false;

  private constructor(
    private readonly opts: DevSessionOptions,
    ws: Workspace,
    handlers: HandlerLoader,
  ) {
    this.ws = ws;
    this.handlers = handlers;
    this.types = new PageTypesWriter(opts.cwd, opts.onTypes);
  }

  /**
   * Loads the sources and builds the first app (or records why it cannot). The first page is
   * answered before any rule ran and before most views were parsed (`finishStart` does the rest):
   * routing needs the declarations only, so page views are read without their markup
   * (`DEV_START`) and the app is built from them without handler bindings; a page's markup is
   * parsed and the page compiled when it is first asked for (`compileSite` with `lazy`). Pages and
   * endpoints that need a handler wait for `finishStart`: the dev server holds their requests.
   * Measured on the 1,000-page site: parsing the markup was half of parsing, compiling every page
   * 75 ms, about 150 ms of 640 to the first page. When the site's routes cannot be built, everything
   * runs first, as after a save.
   */
  static async start(opts: DevSessionOptions): Promise<{ session: DevSession; report: ChangeReport }> {
    const started = performance.now();
    const sources = discoverSources([opts.root], opts.cwd);
    const handlers = new HandlerLoader(opts.cwd);
    // esbuild compiles the handler modules in its own process while this one parses the .kit files.
    const modules = [...sources.modules].sort();
    const compiled = await handlers.begin(modules);
    // Binding stays in this thread (no binding worker): the first handler edit would load the
    // TypeScript compiler here, and a worker did not make the first page come sooner (measured).
    const project = loadProject([opts.root], { ssr: opts.ssr, strictBindings: false }, opts.cwd, {
      sources,
      defer: () => true,
      policy: DEV_START,
    });
    const session = new DevSession(opts, project.workspace, handlers);
    // The workspace holds every module discovery found (one it cannot read too, with its diagnostic).
    const early = modules.join('\n') === project.workspace.modulePaths().join('\n') ? compiled : undefined;
    const report =
      session.startUnchecked(started, early) ??
      (await session.rebuild(new Set(), { modules: true, full: true }, started, early));
    // With the checks left for `finishStart`, the page types are written after them.
    if (!session.checking) session.types.schedule(session.ws, 'all');
    return { session, report };
  }

  /**
   * The first app before any check and binding, or undefined when the site does not compile (then
   * the full rebuild reports why, as always).
   */
  private startUnchecked(
    started: number,
    compiled: (() => Promise<CompileProblem | undefined>) | undefined,
  ): ChangeReport | undefined {
    // No rule has run yet: the site is compiled from the trees as they are (a file with errors
    // compiles as far as it can), and the checks that follow show what they find.
    const site = compileSite(this.ws, { cwd: this.opts.cwd, lazy: true });
    if (site.diagnostics.length > 0) return undefined;
    this.site = site;
    const said: string[] = [];
    this.current = this.makeApp(site, true, (line) => said.push(line));
    this.startChecks = { compiled, said };
    return {
      files: [],
      reload: new Set(),
      css: new Map(),
      reloadAll: false,
      errors: [],
      warnings: 0,
      problems: [],
      ms: performance.now() - started,
    };
  }

  /** True until `finishStart` is done: the app has no handler bindings or modules yet. */
  get checking(): boolean {
    return this.startChecks !== undefined;
  }

  /**
   * What `start` left for after the first page: the files' own rules fifty files per event-loop
   * turn, the cross-file rules a hundred buckets per turn, then binding a directory per turn
   * (requests are answered in between), then the handler modules and the app with its bindings.
   * The report is a change's: its errors show in the overlay as after a save. Nothing to do
   * (undefined) when `start` did everything.
   * Everything waits for `checkAfter`, and binding for `bindAfter` too (the dev server: until it has
   * been quiet a moment): the first pages should not queue behind the rules' first, cold slices, or
   * behind binding's first directory, which loads the TypeScript compiler.
   */
  async finishStart(
    checkAfter: Promise<void> = Promise.resolve(),
    bindAfter: Promise<void> = Promise.resolve(),
  ): Promise<ChangeReport | undefined> {
    const pending = this.startChecks;
    if (pending === undefined) return undefined;
    await checkAfter;
    const began = performance.now();
    try {
      // Running a file's rules parses its markup first (the page views the start left unparsed).
      for (let left = this.ws.pendingLocalCount; left > 0 && !this.closed; await turn())
        left = this.ws.runDeferredLocalRules(LOCAL_SLICE);
      for (let left = this.ws.pendingMarkupCount; left > 0 && !this.closed; await turn())
        left = this.ws.completeMarkup(LOCAL_SLICE);
      for (const [part, perTurn] of [
        [(k: string) => !isBind(k), CHECK_SLICE],
        [isBind, 1],
      ] as const) {
        if (part === isBind) await bindAfter;
        for (let left = this.ws.deferredCount; left > 0 && !this.closed; await turn()) {
          let n = 0;
          this.ws.flush({ defer: (k) => !part(k) || n++ >= perTurn });
          // Stops when no bucket of this part was left (the others stay deferred).
          if (this.ws.deferredCount === left) break;
          left = this.ws.deferredCount;
        }
      }
      if (this.closed) return undefined;
      const early = this.current;
      const report = await this.rebuild(
        new Set(),
        { modules: true, full: false, start: true },
        began,
        pending.compiled,
      );
      // An app made anew with the modules and config said what holds; the same app, kept, did not.
      if (this.current === early)
        for (const line of pending.said) if (!saidByChecks(line, report.problems)) this.opts.log(line);
      this.types.schedule(this.ws, 'all');
      return report;
    } finally {
      this.startChecks = undefined;
    }
  }

  /** The app answering requests now: the last one that built. */
  get app(): KitApp | undefined {
    return this.current;
  }

  get routeTable(): RouteTable | undefined {
    return this.table;
  }

  /** Errors of the workspace and the build, as `kit check` reports them. */
  get currentErrors(): readonly Diagnostic[] {
    return this.errors;
  }

  get currentHandlerProblem(): CompileProblem | undefined {
    return this.handlerProblem;
  }

  /** Text of a source the workspace holds (for code frames and positions). */
  sourceText(file: string): string | undefined {
    return this.ws.kit(file)?.text ?? this.ws.module(file)?.text;
  }

  /**
   * Applies a batch of changed paths (absolute; files or directories, present or gone): the sources
   * are discovered again, so files created, deleted or moved with a directory are all seen.
   */
  async apply(changedAbs: Iterable<string>): Promise<ChangeReport> {
    const started = performance.now();
    const { touched, full, modules } = readChanges(this.ws, this.opts.root, this.opts.cwd, changedAbs, (path) =>
      Boolean(this.site?.pages.some((p) => p.dependsOn.includes(path))),
    );
    const ssrChanged = this.followSsr();
    const report = await this.rebuild(touched, { modules, full: full || ssrChanged }, started);
    this.types.schedule(this.ws, touched);
    return report;
  }

  /** Takes the config module's `ssr` when the session follows it; true when it changed. */
  private followSsr(): boolean {
    if (this.opts.followConfig === undefined) return false;
    const ssr = this.ws.module(displayPath(this.opts.followConfig, this.opts.cwd))?.config?.ssr ?? false;
    if (ssr === this.ws.options.ssr) return false;
    this.ws.setOptions({ ssr });
    this.opts.log(`kit dev: ssr is ${ssr ? 'on' : 'off'} (from ${displayPath(this.opts.followConfig, this.opts.cwd)})`);
    return true;
  }

  /** `what.start`: the end of `finishStart`, whose pages nobody saw without their loads. */
  private async rebuild(
    touched: Set<string>,
    what: { modules: boolean; full: boolean; start?: boolean },
    started: number,
    compiled?: () => Promise<CompileProblem | undefined>,
  ): Promise<ChangeReport> {
    const ws = this.ws;
    // Buckets the start deferred (a query flushes them only with other work pending).
    if (ws.deferredCount > 0) ws.flush();
    const report: ChangeReport = {
      files: [...touched].sort(),
      reload: new Set(),
      css: new Map(),
      reloadAll: false,
      errors: [],
      warnings: 0,
      problems: [],
      ms: 0,
    };
    const diags = ws.allDiagnostics();
    const warnings = diags.filter((d) => d.severity === 'warning');
    report.warnings = warnings.length;
    let errors = diags.filter((d) => d.severity === 'error');
    let site: CompiledSite | undefined;
    if (errors.length === 0) {
      const previous = !what.full && this.site !== undefined ? { site: this.site, changed: touched } : undefined;
      site = compileSite(ws, { cwd: this.opts.cwd, previous });
      if (site.diagnostics.length > 0) errors = site.diagnostics;
    }
    const moduleKey = ws.modulePaths().join('\n');
    let reloaded = false;
    if (what.modules || moduleKey !== this.modulePaths) {
      this.modulePaths = moduleKey;
      const problem = await (compiled ? compiled() : this.handlers.load(ws.modulePaths()));
      this.handlerProblem = problem;
      reloaded = problem === undefined && this.current !== undefined;
    }
    report.handlerProblem = this.handlerProblem;
    const hadErrors = this.errors.length > 0;
    this.errors = errors;
    report.errors = errors;
    report.problems = errors.length > 0 ? [...errors, ...warnings] : warnings;
    if (site !== undefined && errors.length === 0) {
      pageChanges(this.site, site, report);
      if (hadErrors || what.full) report.reloadAll = true;
      this.site = site;
      this.current = this.makeApp(site, !reloaded, (line) => {
        if (!saidByChecks(line, warnings)) this.opts.log(line);
      });
      // New handler versions change what loads return; new guards (the config) change every page.
      const table = this.table!;
      if (what.start) {
        // Requests that needed handlers waited for this app: no tab shows a page without them.
      } else if (reloaded && table.configModule !== undefined && touched.has(table.configModule))
        report.reloadAll = true;
      else if (reloaded)
        for (const p of table.manifest.pages) if (p.load?.status === 'bound') report.reload.add(p.pageId);
    }
    report.ms = performance.now() - started;
    return report;
  }

  /**
   * The app for a compiled site: the current one with new content when only templates and files
   * changed (and the handler modules did not), which keeps its compiled routers; else a new one.
   */
  /** `said`: where what a new app says as it is made goes (else the session's log). */
  private makeApp(site: CompiledSite, sameModules: boolean, said?: (line: string) => void): KitApp {
    const mem = memorySource(site);
    const table = buildRouteTable(this.ws, site, {
      cwd: this.opts.cwd,
      outDir: this.opts.root,
      files: { files: mem.files, cache: mem.cache },
      appName: this.opts.appName,
      trace: this.opts.tracer !== undefined,
      root: this.opts.sourceRoot,
    });
    const before = this.table;
    this.table = table;
    const current = this.current;
    if (current !== undefined && before !== undefined && sameModules && sameRoutes(before, table)) {
      current.replaceContent(table.manifest, mem.source);
      return current;
    }
    const loaded = this.handlers.modules.byPath;
    const modules: Record<string, Record<string, unknown>> = {};
    for (const [wsPath, key] of table.modules) {
      const m = loaded.get(wsPath);
      if (m !== undefined && wsPath !== table.configModule) modules[key] = m;
    }
    let log = said ?? this.opts.log;
    const app = new KitApp({
      manifest: table.manifest,
      modules,
      config: table.configModule ? loaded.get(table.configModule) : undefined,
      static: mem.source,
      csrfSecret: this.opts.csrfSecret,
      // What it logs once made (a handler's error, say) goes to the session's log.
      log: (line) => log(line),
      tracer: this.opts.tracer,
      collector: this.opts.collector,
      faultScopes: true,
      onFault: this.opts.onFault,
    });
    log = this.opts.log;
    return app;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.types.close();
    await this.handlers.close();
  }
}
