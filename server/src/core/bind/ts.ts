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

/** `node_modules/.cache/kit/typescript-<key>.v8` for `node_modules/typescript/lib/typescript.js`. */
export function codeCacheFile(file: string): string {
  const pkgDir = dirname(dirname(file));
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version?: unknown }).version;
  const key = createHash('sha256')
    .update([process.version, process.arch, file, statSync(file).size, String(version)].join('\0'))
    .digest('hex')
    .slice(0, 16);
  return join(dirname(pkgDir), '.cache', 'kit', `typescript-${key}.v8`);
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
 * of earlier versions: `typescript-<old key>.v8` beside `typescript-<key>.v8`.
 */
function writeCache(cacheFile: string, data: Buffer): void {
  const tmp = `${cacheFile}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, cacheFile);
    const name = basename(cacheFile);
    const prefix = name.slice(0, name.lastIndexOf('-') + 1);
    if (prefix === '') return;
    for (const other of readdirSync(dirname(cacheFile))) {
      if (other !== name && other.startsWith(prefix) && other.endsWith('.v8'))
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
