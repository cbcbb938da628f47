// `kit build [--ssr] [--out <dir>] [--app <dir>] [--strict-bindings] [--no-cache] [<files or directories>]`
import { dirname, relative, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CompiledSite, EarlyOutput, WriteStats } from '#core/build/index.js';
import { pageTypesByDir } from '#core/build/page-types.js';
import type { ReportModel } from '#core/report/rows.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import { isAppConfigPath } from '#core/model/app-config.js';
import type { CheckOptions } from '#core/model/options.js';
import type { SourceLookup } from '#core/model/report-positions.js';
import { discoverSources, projectRootOf, type DiscoveredSources } from '#core/project/discover.js';
import { isDirectory } from '#core/project/config.js';
import type { Workspace } from '#core/workspace/workspace.js';
import type { Command } from '../command.js';
import { parseArgs, UsageError } from '../args.js';
import { useColor, type CliIO } from '../io.js';
import { checkHuman } from '../format/check-output.js';
import { progressReporter, summaryLine } from '../format/build-summary.js';
import { sourceLookup } from '../sources.js';
import { writeTypeTexts } from '../page-types-output.js';
import { commandSources, shownPath } from '../project-sources.js';
import { CacheProblem } from '../build/cache-lines.js';
import { IncrementalBuild, type FastPlan } from '../build/incremental.js';

/**
 * Warnings and notes of one code shown in full by a build; the rest are counted in one line per
 * code (a site with hundreds of unwritten handlers would otherwise bury the build's own output).
 */
const SHOWN_PER_CODE = 5;
const HUMAN = { perCode: SHOWN_PER_CODE, listAll: 'kit check' };

const FLAGS = {
  ssr: 'boolean',
  out: 'string',
  'strict-bindings': 'boolean',
  app: 'string',
  bin: 'string',
  trace: 'boolean',
  'no-cache': 'boolean',
} as const;

function hasEndpoints(ws: Workspace): boolean {
  return ws.allRegistrations().some((r) => r.kind !== 'page');
}

/**
 * The modules that load, check, compile and write a site, loaded when a build gets that far: a
 * build the cache finds unchanged never initialises them.
 */
async function buildModules() {
  const [load, build, rows] = await Promise.all([
    import('#core/project/load.js'),
    import('#core/build/index.js'),
    import('#core/report/rows.js'),
  ]);
  return { ...load, ...build, ...rows };
}
type BuildModules = Awaited<ReturnType<typeof buildModules>>;

/** The routes report model, built only when the build needs endpoint rows or info notes. */
function reportModel(m: BuildModules, ws: Workspace, site: CompiledSite): ReportModel | undefined {
  return hasEndpoints(ws) || site.pages.some((p) => p.render === 'ssr') ? m.buildReportModel(ws) : undefined;
}

export const buildCommand: Command = {
  name: 'build',
  summary: 'render SPA pages to static HTML files with their assets',
  help: `Usage: kit build [--ssr] [--out <dir>] [--app <dir>] [--strict-bindings] [--no-cache]
                 [<files or directories>...]

Checks the sources like kit check and, without errors, writes every SPA (and hybrid) page as
static HTML: "/" → <dir>/index.html, "/docs" → <dir>/docs/index.html, one directory per paths {}
record. Also writes hashed CSS/JS under <dir>/assets/, the link runtime assets/kit/kit.js when a
page links internally, kit-routes.json and kit-assets.json. SSR pages are not written (an info
note says so). The output directory is replaced atomically; nothing is written on errors.

A cache in .kit/cache at the project root (the nearest directory with a package.json; safe to
delete, and to restore in CI) remembers each page's inputs and output: a build renders only the
pages whose sources, layouts, components, assets, config or kit changed, and writes only the
files whose bytes changed. The summary says how many pages were rendered and how many came from
the cache.

Without paths, in a project with a kit.config.ts (found here or up to the project root), the
sources and the outputs come from it: sources (default site/ beside it), out (default dist/site)
and app (default dist/app; false for none); and ssr in any case. Flags take their place.

Options:
  --out <dir>         output directory (replaced as a whole); required with paths
  --ssr               enable request-time (SSR) rendering: server {} blocks, rest routes
  --strict-bindings   a missing or unusable handler is an error (production builds)
  --app <dir>         also generate the app server: node <dir>/server.js [--addr host:port]
  --bin <file>        also build a single executable of the app (Node.js SEA)
  --trace             instrument the app: request spans, collector and viewer at /_kit/traces
                      (loopback only); KIT_TRACE=1 turns this on at run time too
  --no-cache          neither read nor write the cache: render and write every page

Exit status: 0 on success, 1 with errors in the sources, 2 for usage or I/O errors.
`,
  async run(argv, io) {
    const started = performance.now();
    const { flags, positionals } = parseArgs(argv, FLAGS, 'build');
    const sources = commandSources('build', positionals, Boolean(flags.ssr), io);
    // The outputs: the flags, else those of the kit.config whose sources are built (no paths given).
    const config = positionals.length === 0 ? sources.config : undefined;
    const out = flags.out ?? (config ? shownPath(config.out, io) : undefined);
    if (out === undefined)
      throw new UsageError(
        'kit build: --out <dir> is required with paths (without them, kit.config gives the sources and the ' +
          'outputs; see kit build --help)',
      );
    const appDir = flags.app ?? (config && config.app !== false ? shownPath(config.app, io) : undefined);
    const binFile = flags.bin;
    // ---- app server and binary (server/src/core/app/) [app-server helper]: flags checked here, the app written below.
    if (flags.trace && !appDir && !binFile)
      throw new UsageError('kit build: --trace needs --app <dir> or --bin <file>');
    // The app modules load only when asked for: a static build does not pay for them.
    const app = appDir || binFile ? await import('#core/app/index.js') : undefined;
    const appProblem = app?.appPreflight(io.cwd, appDir, binFile);
    if (appProblem) throw new UsageError(`kit build: ${appProblem}`);
    const options: CheckOptions = { ssr: sources.ssr, strictBindings: Boolean(flags['strict-bindings']) };
    const outAbs = resolve(io.cwd, out);
    const cached = flags['no-cache']
      ? undefined
      : new IncrementalBuild(io, projectRoot(sources.inputs, io.cwd), options);
    const found = discoverSources(sources.inputs, io.cwd);
    const build: StaticBuild = {
      io,
      started,
      out,
      outAbs,
      found,
      color: useColor(io, 'stderr'),
      cached,
      warningsShown: false,
    };
    build.cached?.warnIfIgnored();
    if (build.cached && !app) {
      const fast = await build.cached.planFast(found, options, build.outAbs);
      const done = fast && (await fastBuild(build, fast));
      if (done !== undefined) return done;
    }
    const m = await buildModules();
    // A static build that renders every page (no cache records to keep pages from) writes each
    // page's files while the sources still load, into the build directory made now.
    const staged =
      !app && build.cached?.cache.index === undefined
        ? m.stageOutput(outAbs, {
            entries: build.cached !== undefined,
            keep: build.cached && ((hex, bytes) => build.cached!.cache.keep(hex, bytes)),
          })
        : undefined;
    try {
      return await loadAndBuild(m, build, {
        app,
        appDir,
        binFile,
        trace: Boolean(flags.trace),
        options,
        inputs: sources.inputs,
        staged,
      });
    } finally {
      // Still there unless the writer took it: the build stopped before writing.
      if (staged && (await staged.discard())) build.cached?.abandon();
    }
  },
};

/** What the load and the rest of a build need besides `StaticBuild`. */
interface LoadSettings {
  app: Awaited<typeof import('#core/app/index.js')> | undefined;
  appDir: string | undefined;
  binFile: string | undefined;
  trace: boolean;
  options: CheckOptions;
  inputs: string[];
  staged: EarlyOutput | undefined;
}

/** Loads and checks the workspace, compiles the site and writes it (and the app, when asked for). */
async function loadAndBuild(m: BuildModules, build: StaticBuild, s: LoadSettings): Promise<number> {
  const { io, found } = build;
  const { app, appDir, binFile, options, staged } = s;
  // A static build compiles each page as its file is read and lets go of its tree then; the app
  // reads the trees after the load.
  const early = app ? undefined : new m.EarlyBodies(io.cwd, staged);
  // Its writing thread starts while the sources load.
  if (!app && !staged) m.startWriteThreadAhead();
  const project = await m.loadProjectAsync(s.inputs, options, io.cwd, {
    sources: found,
    texts: build.cached?.sourceTexts,
    states: build.cached?.readStates,
    hooks: early,
    ...m.threadSettings(io.env),
  });
  const ws = project.workspace;
  const source = sourceLookup(ws);
  const diags = ws.allDiagnostics();
  const types = pageTypesByDir(ws);
  writeTypeTexts(types, io, 'build');
  const human = (list: Diagnostic[]) => checkHuman(list, source, found.kitFiles.length, build.color, HUMAN);
  if (diags.some((d) => d.severity === 'error')) {
    io.stderr.write(human(diags));
    return 1;
  }
  checkInside(build);
  // A static build compiles each page as it writes it, and lets go of it then; the app embeds them all.
  const site: CompiledSite = m.compileSite(ws, { cwd: io.cwd, lazy: !app }, early);
  if (site.diagnostics.length) {
    io.stderr.write(human([...diags, ...site.diagnostics]));
    return 1;
  }
  showWarnings(build, diags, source);
  const model = reportModel(m, ws, site);
  const endpoints = model ? m.endpointRows(ws, { model }) : [];
  // With the cache, a project without handler modules, endpoints or SSR pages is checked from its
  // records next time.
  const fast = !model && found.modules.every(isAppConfigPath);
  let stats: WriteStats;
  try {
    stats = await writeFull(m, build, ws, site, endpoints, { diagnostics: diags, types, fast }, staged);
  } catch (e) {
    if (!(e instanceof m.SiteErrors)) throw e;
    io.stderr.write(human([...diags, ...e.diagnostics]));
    return 1;
  }
  // Pages that get no static file say so, with the routes report's own note.
  for (const note of model ? m.routeInfo(ws, { model }) : []) {
    if (note.code === 'spa_disabled') io.stderr.write(`info: ${note.code}: ${note.message}\n`);
  }
  summary(build, stats.pages, stats.kept);
  // ---- [app-server helper] the generated app and the single executable.
  if (app && (appDir !== undefined || binFile !== undefined))
    return app.runAppBuild(ws, site, io, { outDir: build.out, appDir, binFile, trace: s.trace });
  return 0;
}

/** What the steps of one `kit build` share. */
interface StaticBuild {
  io: CliIO;
  started: number;
  out: string;
  outAbs: string;
  found: DiscoveredSources;
  color: boolean;
  /** The build cache; undefined with `--no-cache`. */
  cached: IncrementalBuild | undefined;
  /** The warnings were printed already (a build from the cache's records that had to load the workspace after all). */
  warningsShown: boolean;
}

/** The project a build's cache belongs to: the nearest directory with a package.json above the first input. */
function projectRoot(inputs: readonly string[], cwd: string): string {
  const first = resolve(cwd, inputs[0] ?? '.');
  const dir = isDirectory(first) ? first : dirname(first);
  return projectRootOf(dir) ?? dir;
}

/** The output directory is replaced as a whole: it must never hold the sources being built. */
function checkInside(b: StaticBuild): void {
  const inside = b.found.kitFiles.find((f) => resolve(b.io.cwd, f).startsWith(b.outAbs + sep));
  if (inside)
    throw new UsageError(
      `kit build: --out ${b.out} contains the source ${inside}; choose an output directory outside the sources`,
    );
}

function showWarnings(b: StaticBuild, diags: readonly Diagnostic[], source: SourceLookup): void {
  const warnings = diags.filter((d) => d.severity === 'warning');
  if (warnings.length === 0 || b.warningsShown) return;
  b.warningsShown = true;
  b.io.stderr.write(checkHuman(warnings, source, b.found.kitFiles.length, b.color, HUMAN));
}

function summary(b: StaticBuild, pages: number, kept: number): void {
  const shown = relative(b.io.cwd, b.outAbs) || '.';
  b.io.stdout.write(
    summaryLine(
      pages,
      performance.now() - b.started,
      shown.startsWith('..') ? b.outAbs : shown,
      b.cached ? kept : undefined,
    ),
  );
}

function progressOf(b: StaticBuild): ReturnType<typeof progressReporter> {
  return progressReporter(b.io, b.started);
}

/**
 * A build the cache's records validated (`IncrementalBuild.planFast`); undefined when it finds what
 * only a whole load can say (an error in a page compiled now, a file of the cache gone bad): the
 * build then goes on the long way.
 */
async function fastBuild(b: StaticBuild, fast: FastPlan): Promise<number | undefined> {
  const lookup: SourceLookup = (file) => fast.text(file);
  writeTypeTexts(fast.types, b.io, 'build');
  checkInside(b);
  if (fast.unchanged) {
    showWarnings(b, fast.diagnostics, lookup);
    summary(b, fast.unchanged.pages, fast.unchanged.pages);
    return 0;
  }
  if (fast.pagesOnly) {
    const { OutputError } = await import('#core/build/index.js');
    showWarnings(b, fast.diagnostics, lookup);
    let done;
    try {
      done = fast.pagesOnly();
    } catch (e) {
      b.cached!.abandon();
      if (e instanceof OutputError) throw new UsageError(`kit build: ${e.message}`);
      throw e;
    }
    summary(b, done.pages, done.kept);
    return 0;
  }
  const plan = fast.plan!;
  const { writeSiteAsync, OutputError, SiteErrors } = await import('#core/build/index.js');
  const progress = progressOf(b);
  let stats: WriteStats;
  try {
    stats = await writeSiteAsync(plan.source, b.outAbs, {
      endpoints: [],
      progress: progress.update,
      written: plan.written,
      previous: plan.previous,
      // The cache's fingerprint of the output, taken by the writing thread.
      entries: true,
      beforeFinish: plan.beforeFinish,
    });
  } catch (e) {
    progress.clear();
    b.cached!.abandon();
    if (e instanceof OutputError) throw new UsageError(`kit build: ${e.message}`);
    if (e instanceof CacheProblem) {
      b.cached!.cache.distrust(e.message);
      b.cached!.warnIfIgnored();
      return undefined;
    }
    if (e instanceof SiteErrors) return undefined;
    throw e;
  }
  progress.clear();
  showWarnings(b, fast.diagnostics, lookup);
  b.cached!.remember(stats);
  summary(b, stats.pages, stats.kept);
  return 0;
}

/** Writes a loaded workspace's site: with the cache, the pages whose key is unchanged as it kept them. */
async function writeFull(
  m: BuildModules,
  b: StaticBuild,
  ws: Workspace,
  site: CompiledSite,
  endpoints: readonly unknown[],
  facts: Parameters<IncrementalBuild['planFull']>[4],
  staged: EarlyOutput | undefined,
): Promise<WriteStats> {
  const progress = progressOf(b);
  try {
    for (;;) {
      const plan = await b.cached?.planFull(ws, site, b.found, b.outAbs, facts);
      try {
        const stats = plan
          ? await m.writeSiteAsync(plan.source, b.outAbs, {
              endpoints,
              progress: progress.update,
              written: plan.written,
              previous: plan.previous,
              entries: true,
              idle: plan.idle,
              beforeFinish: plan.beforeFinish,
              staged,
            })
          : await m.writeStaticSiteAsync(site, b.outAbs, { endpoints, progress: progress.update, staged });
        b.cached?.remember(stats);
        return stats;
      } catch (e) {
        b.cached?.abandon();
        // A file the cache kept turned out bad: said once, and written again without the cache's files.
        if (!(e instanceof CacheProblem)) throw e;
        b.cached!.cache.distrust(e.message);
        b.cached!.warnIfIgnored();
      }
    }
  } catch (e) {
    if (e instanceof m.OutputError) throw new UsageError(`kit build: ${e.message}`);
    throw e;
  } finally {
    progress.clear();
  }
}
