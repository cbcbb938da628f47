// The TypeScript compiler module, loaded on first use: requiring it costs ~0.2 s, which a
// workspace without handler modules (or an editor session that never binds) must not pay.
//
// Half of that is V8 compiling its 9 MB source, which the code cache saves (core/bind/code-cache.ts),
// kept beside the installed packages (`node_modules/.cache/kit/`, the usual place for tool caches).
// npm gives every installed file the same modification time, so the cache's key takes TypeScript's
// own version.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { codeCacheName, loadWithCodeCache, optionNames } from './code-cache.js';
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
 * `node_modules/.cache/kit/typescript-<key>.<flags>.v8` for `node_modules/typescript/lib/typescript.js`
 * (`codeCacheName`).
 */
export function codeCacheFile(file: string, options: readonly string[] = optionNames()): string {
  const pkgDir = dirname(dirname(file));
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version?: unknown }).version;
  const name = codeCacheName(
    'typescript',
    [process.version, process.arch, file, statSync(file).size, String(version)],
    options,
  );
  return join(dirname(pkgDir), '.cache', 'kit', name);
}
