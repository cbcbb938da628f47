// The TypeScript compiler module, loaded on first use: requiring it costs ~0.2 s, which a
// workspace without handler modules (or an editor session that never binds) must not pay.
//
// Half of that is V8 compiling its 9 MB source. Node 20 has no compile cache of its own, so the
// module is compiled through `vm.Script` with V8's code cache, kept beside the installed packages
// (`node_modules/.cache/kit/`, the usual place for tool caches). V8 rejects damaged data, but it
// checks a cache against nothing more than the source's length, so the key names the source: the
// Node version and architecture, the file's path and size, and TypeScript's own version (npm gives
// every installed file the same modification time, so that says nothing). Any failure (no cache
// directory, a read-only install) falls back to a plain `require`: the cache only saves time.
//
// V8 also rejects a cache made under other flags (`--expose-gc`, which the editor extension starts the
// language server with, and the command line does not): each set of Node options has a file of its
// own, or the two would overwrite each other's cache on every start.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import type * as TS from 'typescript';

let mod: typeof TS | undefined;

export function typescript(): typeof TS {
  return (mod ??= loadTypeScript());
}

export type { TS };

function loadTypeScript(): typeof TS {
  const req = createRequire(import.meta.url);
  const file = req.resolve('typescript');
  try {
    return loadWithCodeCache(file, codeCacheFile(file)) as typeof TS;
  } catch {
    return req('typescript') as typeof TS;
  }
}

/**
 * `node_modules/.cache/kit/typescript-<key>.<flags>.v8` for `node_modules/typescript/lib/typescript.js`:
 * `key` names the source, `flags` the options the process runs with (`optionNames`).
 */
export function codeCacheFile(file: string, options: readonly string[] = optionNames()): string {
  const pkgDir = dirname(dirname(file));
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version?: unknown }).version;
  const hash = (parts: readonly unknown[]) => createHash('sha256').update(parts.join('\0')).digest('hex');
  const key = hash([process.version, process.arch, file, statSync(file).size, String(version)]).slice(0, 16);
  return join(dirname(pkgDir), '.cache', 'kit', `typescript-${key}.${hash(options).slice(0, 8)}.v8`);
}

/**
 * The names of the Node options of this process (command line and NODE_OPTIONS), sorted: values are
 * left out, since some name a file per run (`--cpu-prof-dir=...`).
 */
export function optionNames(): string[] {
  const all = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return [...new Set(all.filter((a) => a.startsWith('-')).map((a) => a.split('=')[0]))].sort();
}

/**
 * Runs the CommonJS module `file` as Node's loader would (same wrapper, same `require`), compiled
 * with the code cache in `cacheFile` when there is a usable one; writes the cache when there is not.
 */
export function loadWithCodeCache(file: string, cacheFile: string): unknown {
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeRequire,
    module: object,
    filename: string,
    dirname: string,
  ) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  if (cachedData === undefined || script.cachedDataRejected) writeCache(cacheFile, script.createCachedData());
  return module.exports;
}

/**
 * Writes the cache atomically (a reader sees the old file or the new one), then removes the caches
 * of earlier versions: `typescript-<old key>[.<flags>].v8` beside `typescript-<key>.<flags>.v8`
 * (those of other flags for this version stay).
 */
function writeCache(cacheFile: string, data: Buffer): void {
  const tmp = `${cacheFile}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, cacheFile);
    // A name without flags (`<module>-<key>.v8`) is from before caches had them: its version part
    // is never this one's.
    const versionOf = (name: string) => (name.split('.').length > 2 ? name.slice(0, name.indexOf('.')) : name);
    const version = versionOf(basename(cacheFile));
    const prefix = version.slice(0, version.lastIndexOf('-') + 1);
    if (prefix === '') return;
    for (const other of readdirSync(dirname(cacheFile))) {
      if (other.startsWith(prefix) && other.endsWith('.v8') && versionOf(other) !== version)
        unlinkSync(join(dirname(cacheFile), other));
    }
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      /* never written */
    }
  }
}
