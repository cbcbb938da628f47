// `kit build --bin <file>`: the generated app bundled (esbuild) into one CommonJS script with the
// runtime and the handlers, packaged as a Node.js single executable application: a copy of the
// running `node` binary with the script (plus a V8 code cache) and every static file injected as
// SEA assets (`node --experimental-sea-config` + `postject`). The result needs no Node.js and no
// node_modules on the machine that runs it.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppBuildError, type RouteTable } from './route-table.js';
import { loadEsbuild } from './write-app.js';
import { seaAssetKey } from '#shared/app/static-files.js';

/** The fuse `postject` flips so the binary runs its injected script. */
export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Bundles `<appDir>/server.js` into one CommonJS file. */
export async function bundleApp(appDir: string, outfile: string): Promise<void> {
  const esbuild = await loadEsbuild();
  try {
    await esbuild.build({
      entryPoints: [join(appDir, 'server.js')],
      outfile,
      // Paths in the bundle's comments are relative to the app, never to the machine.
      absWorkingDir: appDir,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // CommonJS has no import.meta; the app only needs its own location, which __filename gives.
      banner: { js: 'var __kit_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
      define: { 'import.meta.url': '__kit_import_meta_url' },
      logLevel: 'silent',
      legalComments: 'inline',
      charset: 'utf8',
      // Carries the handlers' source maps through, so stacks name the .ts lines in the binary too.
      sourcemap: 'inline',
      sourcesContent: false,
    });
  } catch (e) {
    const errors = (e as { errors?: { text: string }[] }).errors;
    throw new AppBuildError(
      `cannot bundle the app: ${errors ? errors.map((x) => x.text).join('; ') : (e as Error).message}`,
    );
  }
}

/** Runs a step of the packaging in `env` (without its NODE_OPTIONS, which the steps must not inherit). */
function run(cmd: string, args: string[], what: string, cwd: string, env: ExecutableOptions['env']): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...env, NODE_OPTIONS: '' } });
  if (r.error) throw new AppBuildError(`${what} failed: ${r.error.message}`);
  if (r.status !== 0) {
    const detail = (r.stderr || r.stdout || '')
      .trim()
      .split('\n')
      .filter((l) => !/Can't find string offset/.test(l))
      .slice(-5)
      .join('\n');
    throw new AppBuildError(`${what} failed (exit ${r.status})${detail ? `:\n${detail}` : ''}`);
  }
}

function postjectCli(): string {
  try {
    return createRequire(import.meta.url).resolve('postject/dist/cli.js');
  } catch {
    throw new AppBuildError('--bin needs the postject package: npm install --save-dev postject');
  }
}

export interface ExecutableOptions {
  cwd: string;
  /** The environment of the build (its child processes run in it). */
  env: Readonly<Record<string, string | undefined>>;
  appDir: string;
  binFile: string;
  /** The node binary to copy (default: the one running kit). */
  nodeBinary?: string;
}

export async function buildExecutable(table: RouteTable, opts: ExecutableOptions): Promise<void> {
  const node = opts.nodeBinary ?? process.execPath;
  const appDir = resolve(opts.cwd, opts.appDir);
  const target = resolve(opts.cwd, opts.binFile);
  if (!readFileSync(node).includes(SEA_FUSE)) {
    throw new AppBuildError(
      `${node} cannot become a single executable (no SEA fuse); use an official Node.js 20.12+ binary`,
    );
  }
  const work = mkdtempSync(join(tmpdir(), 'kit-sea-'));
  try {
    const script = join(work, 'app.cjs');
    await bundleApp(appDir, script);
    const assets: Record<string, string> = {};
    for (const file of table.staticFiles) assets[seaAssetKey(file)] = join(appDir, 'static', ...file.split('/'));
    const config = {
      main: script,
      output: join(work, 'sea-prep.blob'),
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      // A V8 code cache makes start-up skip most parsing and compiling.
      useCodeCache: true,
      assets,
    };
    writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
    const seaConfig = ['--experimental-sea-config', join(work, 'sea-config.json')];
    run(node, seaConfig, 'node --experimental-sea-config', work, opts.env);
    const tmpBin = join(dirname(target), `.${basename(target)}.kit-bin-${randomBytes(4).toString('hex')}`);
    try {
      copyFileSync(node, tmpBin);
      chmodSync(tmpBin, 0o755);
      const inject = [postjectCli(), tmpBin, 'NODE_SEA_BLOB', config.output, '--sentinel-fuse', SEA_FUSE];
      run(node, inject, 'postject', work, opts.env);
      renameSync(tmpBin, target);
    } catch (e) {
      rmSync(tmpBin, { force: true });
      if (e instanceof AppBuildError) throw e;
      throw new AppBuildError(
        `cannot write ${opts.binFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
