// How `kit` starts (bin/kit.js requires this module's CommonJS bundle, out/bundle/start.cjs): it runs
// the CLI's bundle (out/bundle/kit.cjs, whose entry is cli/main.ts) compiled through V8's code cache
// (core/bind/code-cache.ts), which Node 20 has for CommonJS only. Compiling the bundle is most of what
// starting costs, and the cache is written when the first run exits, so it holds the functions that
// run compiled, not just the bundle's top level. Each command has a cache of its own, named before
// any command's code is loaded (`check-<install>-<key>.<flags>.v8`; `kit-...` for `--version`): one
// shared cache would hold what the first run happened to compile (after a first `kit --version`,
// `kit check` took 16 ms more). It lives beside the bundle (`.cache/`, left out of the package), or
// in the user's cache directory where the install cannot be written; with neither, kit runs without.
//
// KIT_DEBUG loads the bundle through Node's own loader instead, with source maps on: stack traces
// then name the TypeScript sources (Node maps only the files its loader compiled).
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { codeCacheName, loadWithCodeCache, shortHash } from '#core/bind/code-cache.js';
import { COMMAND_NAMES, ONE_SHOT_COMMANDS } from './commands/names.js';
import { processIO } from './io.js';
import { yieldHelperThreads } from './thread-priority.js';
import { asksVersion, version } from './version.js';

/**
 * Where the cache of `bundle` for a run with `argv` may go, in order: beside it, then in the user's
 * cache directory.
 */
export function bundleCacheFiles(
  bundle: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const { size, mtimeMs } = statSync(bundle);
  const command = COMMAND_NAMES.find((name) => name === argv[0]) ?? basename(bundle, '.cjs');
  // The user's cache directory may serve several installs: each replaces only its own earlier caches.
  const stem = `${command}-${shortHash([bundle], 8)}`;
  // The modification time tells rebuilds of one version apart (V8 would take a cache of another
  // bundle of the same length).
  const name = codeCacheName(stem, [process.version, process.arch, bundle, size, mtimeMs]);
  const userCache = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return [join(dirname(bundle), '.cache', name), join(userCache, 'kit', name)];
}

/**
 * Runs the CLI's bundle (its top level runs the command line). `kit --version` is answered here:
 * loading the bundle was most of that command's time.
 */
export function start(bundle: string): void {
  if (asksVersion(process.argv[2])) {
    processIO().stdout.write(`kit ${version()}\n`);
    return;
  }
  // Before the command's code loads: V8 starts compiling it on its threads at once.
  if (ONE_SHOT_COMMANDS.has(process.argv[2] ?? '')) yieldHelperThreads();
  if (process.env.KIT_DEBUG) {
    process.setSourceMapsEnabled(true);
    createRequire(bundle)(bundle);
    return;
  }
  let caches: string[];
  try {
    caches = bundleCacheFiles(bundle, process.argv.slice(2));
  } catch {
    caches = [];
  }
  loadWithCodeCache(bundle, caches, 'at-exit');
}
