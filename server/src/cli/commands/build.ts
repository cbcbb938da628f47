// `kit build [--ssr] [--out <dir>] [--app <dir>] [--strict-bindings] [<files or directories>]`
import { relative, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadProjectAsync, threadSettings } from '#core/project/load.js';
import { compileSite, OutputError, SiteErrors, writeStaticSiteAsync, type CompiledSite } from '#core/build/index.js';
import { buildReportModel, endpointRows, routeInfo, type ReportModel } from '#core/report/rows.js';
import type { Workspace } from '#core/workspace/workspace.js';
import type { Command } from '../command.js';
import { parseArgs, UsageError } from '../args.js';
import { useColor, type CliIO } from '../io.js';
import { checkHuman } from '../format/check-output.js';
import { sourceLookup } from '../sources.js';
import { writeTypes } from '../page-types-output.js';
import { commandSources, shownPath } from '../project-sources.js';

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
} as const;

/**
 * `4000` → `4,000`. Written out rather than `toLocaleString('en-US')`, whose first call loads the
 * locale data: tens of milliseconds of a build that aims at well under a second.
 */
export function groupThousands(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? '-' + out : out;
}

/** `built 4,000 pages in 0.8 s → dist/` */
export function summaryLine(pages: number, ms: number, out: string): string {
  const seconds = ms < 100 ? (ms / 1000).toFixed(2) : (ms / 1000).toFixed(1);
  return (
    `built ${groupThousands(pages)} page${pages === 1 ? '' : 's'} in ${seconds} s → ` +
    `${out.endsWith('/') ? out : out + '/'}\n`
  );
}

/** A progress line on a TTY, shown once a build has run for a second. */
function progressReporter(io: CliIO, started: number): { update(done: number, total: number): void; clear(): void } {
  let shown = false;
  let last = 0;
  return {
    update(done, total) {
      if (!io.stderr.isTTY) return;
      const now = performance.now();
      if (now - started < 1000 || now - last < 100) return;
      last = now;
      shown = true;
      io.stderr.write(`\r\u001b[2Kkit build: rendering ${groupThousands(done)} / ${groupThousands(total)} pages`);
    },
    clear() {
      if (shown) io.stderr.write('\r\u001b[2K');
    },
  };
}

function hasEndpoints(ws: Workspace): boolean {
  return ws.allRegistrations().some((r) => r.kind !== 'page');
}

/** The routes report model, built only when the build needs endpoint rows or info notes. */
function reportModel(ws: Workspace, site: CompiledSite): ReportModel | undefined {
  return hasEndpoints(ws) || site.pages.some((p) => p.render === 'ssr') ? buildReportModel(ws) : undefined;
}

export const buildCommand: Command = {
  name: 'build',
  summary: 'render SPA pages to static HTML files with their assets',
  help: `Usage: kit build [--ssr] [--out <dir>] [--app <dir>] [--strict-bindings] [<files or directories>...]

Checks the sources like kit check and, without errors, writes every SPA (and hybrid) page as
static HTML: "/" → <dir>/index.html, "/docs" → <dir>/docs/index.html, one directory per paths {}
record. Also writes hashed CSS/JS under <dir>/assets/, the link runtime assets/kit/kit.js when a
page links internally, kit-routes.json and kit-assets.json. SSR pages are not written (an info
note says so). The output directory is replaced atomically; nothing is written on errors.

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
    const project = await loadProjectAsync(
      sources.inputs,
      { ssr: sources.ssr, strictBindings: Boolean(flags['strict-bindings']) },
      io.cwd,
      threadSettings(io.env),
    );
    const ws = project.workspace;
    const source = sourceLookup(ws);
    const diags = ws.allDiagnostics();
    writeTypes(ws, io, 'build');
    const color = useColor(io, 'stderr');
    if (diags.some((d) => d.severity === 'error')) {
      io.stderr.write(checkHuman(diags, source, project.kitFiles.length, color, HUMAN));
      return 1;
    }
    // The output directory is replaced as a whole: it must never hold the sources being built.
    const outAbs = resolve(io.cwd, out);
    const inside = project.kitFiles.find((f) => resolve(io.cwd, f).startsWith(outAbs + sep));
    if (inside)
      throw new UsageError(
        `kit build: --out ${out} contains the source ${inside}; choose an output directory outside the sources`,
      );
    // A static build compiles each page as it writes it, and lets go of it then; the app embeds them all.
    const site: CompiledSite = compileSite(ws, { cwd: io.cwd, lazy: !app });
    if (site.diagnostics.length) {
      io.stderr.write(checkHuman([...diags, ...site.diagnostics], source, project.kitFiles.length, color, HUMAN));
      return 1;
    }
    if (diags.some((d) => d.severity === 'warning'))
      io.stderr.write(
        checkHuman(
          diags.filter((d) => d.severity === 'warning'),
          source,
          project.kitFiles.length,
          color,
          HUMAN,
        ),
      );
    const model = reportModel(ws, site);
    const progress = progressReporter(io, started);
    let stats;
    try {
      stats = await writeStaticSiteAsync(site, resolve(io.cwd, out), {
        endpoints: model ? endpointRows(ws, { model }) : [],
        progress: progress.update,
      });
    } catch (e) {
      progress.clear();
      if (e instanceof OutputError) throw new UsageError(`kit build: ${e.message}`);
      if (!(e instanceof SiteErrors)) throw e;
      io.stderr.write(checkHuman([...diags, ...e.diagnostics], source, project.kitFiles.length, color, HUMAN));
      return 1;
    }
    progress.clear();
    // Pages that get no static file say so, with the routes report's own note.
    for (const note of model ? routeInfo(ws, { model }) : []) {
      if (note.code === 'spa_disabled') io.stderr.write(`info: ${note.code}: ${note.message}\n`);
    }
    const shown = relative(io.cwd, resolve(io.cwd, out)) || '.';
    io.stdout.write(
      summaryLine(stats.pages, performance.now() - started, shown.startsWith('..') ? resolve(io.cwd, out) : shown),
    );
    // ---- [app-server helper] the generated app and the single executable.
    if (app && (appDir !== undefined || binFile !== undefined))
      return app.runAppBuild(ws, site, io, { outDir: out, appDir, binFile, trace: Boolean(flags.trace) });
    return 0;
  },
};
