// The app generator behind `kit build --app <dir> [--bin <file>] [--trace]`: after the static build
// has written `--out`, it projects the route table, writes the readable app directory and, with
// `--bin`, packages a single executable. Called from the build command.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { CompiledSite } from '../build/index.js';
import type { Workspace } from '../workspace/workspace.js';
import { AppBuildError, buildRouteTable, type RouteTable } from './route-table.js';
import { checkReplaceable, writeApp } from './write-app.js';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildExecutable } from './single-executable.js';

export { AppBuildError, buildRouteTable, CONTENT_TYPES, type RouteTable } from './route-table.js';
export { writeApp, kitOutRoot, APP_MARKER } from './write-app.js';
export { buildExecutable, bundleApp, SEA_FUSE } from './single-executable.js';

export interface AppBuildOptions {
  cwd: string;
  /** The environment the executable's packaging runs its child processes in (`--bin`). */
  env: Readonly<Record<string, string | undefined>>;
  /** The static output just written by the build. */
  outDir: string;
  appDir?: string;
  binFile?: string;
  trace?: boolean;
  /** Shown by `/_kit/health` (default: the app directory's name). */
  appName?: string;
}

export interface AppBuildResult {
  table: RouteTable;
  appDir?: string;
  binFile?: string;
}

/** Problems with `--app`/`--bin` targets, found before anything is built (one line, or undefined). */
export function appPreflight(cwd: string, appDir: string | undefined, binFile: string | undefined): string | undefined {
  try {
    if (appDir) checkReplaceable(resolve(cwd, appDir));
  } catch (e) {
    return (e as Error).message;
  }
  if (binFile) {
    const target = resolve(cwd, binFile);
    try {
      if (statSync(target).isDirectory()) return `--bin ${binFile} is a directory`;
    } catch {
      /* absent: fine */
    }
    try {
      if (!statSync(dirname(target)).isDirectory()) return `--bin ${binFile}: ${dirname(binFile)} is not a directory`;
    } catch {
      return `--bin ${binFile}: directory ${dirname(binFile)} does not exist`;
    }
  }
  return undefined;
}

/** Writes the app (and the executable). Throws AppBuildError for problems the user can fix. */
export async function buildApp(ws: Workspace, site: CompiledSite, opts: AppBuildOptions): Promise<AppBuildResult> {
  if (!opts.appDir && !opts.binFile) throw new AppBuildError('--trace needs --app <dir> or --bin <file>');
  const outDir = resolve(opts.cwd, opts.outDir);
  const name = opts.appName ?? basename(resolve(opts.cwd, opts.appDir ?? opts.binFile ?? 'app'));
  // `--bin` alone still needs an app directory to bundle from: a temporary one.
  const scratch = opts.appDir ? undefined : mkdtempSync(join(tmpdir(), 'kit-app-'));
  const appDir = opts.appDir ? resolve(opts.cwd, opts.appDir) : join(scratch!, 'app');
  const table = buildRouteTable(ws, site, {
    cwd: opts.cwd,
    outDir,
    appName: name,
    trace: Boolean(opts.trace),
    ...(opts.appDir ? { appDir } : {}),
  });
  try {
    await writeApp(table, { cwd: opts.cwd, outDir, appDir });
    if (opts.binFile) await buildExecutable(table, { cwd: opts.cwd, env: opts.env, appDir, binFile: opts.binFile });
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  return { table, appDir: opts.appDir, binFile: opts.binFile };
}

/** The streams `runAppBuild` writes to, and the working directory and environment (the CLI's `CliIO` fits). */
export interface AppBuildIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The build command's app step: writes the app and executable, prints one line each, and maps
 * problems to exit status 1 with one clear message.
 */
export async function runAppBuild(
  ws: Workspace,
  site: CompiledSite,
  io: AppBuildIO,
  opts: { outDir: string; appDir?: string; binFile?: string; trace?: boolean },
): Promise<number> {
  const started = Date.now();
  try {
    const r = await buildApp(ws, site, { cwd: io.cwd, env: io.env, ...opts });
    for (const note of r.table.notes) io.stderr.write(note + '\n');
    const counts =
      `${r.table.manifest.pages.length} page${r.table.manifest.pages.length === 1 ? '' : 's'}, ` +
      `${r.table.manifest.endpoints.length} endpoint${r.table.manifest.endpoints.length === 1 ? '' : 's'}`;
    if (opts.appDir)
      io.stdout.write(`app (${counts}) → ${opts.appDir}/ (run: node ${join(opts.appDir, 'server.js')})\n`);
    if (opts.binFile)
      io.stdout.write(`single executable → ${opts.binFile} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return 0;
  } catch (e) {
    if (e instanceof AppBuildError) {
      io.stderr.write(`kit build: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
