// Runs a CommonJS file compiled through V8's code cache: Node 20 has no compile cache of its own, and
// compiling is most of what loading a large file costs (the TypeScript compiler, core/bind/ts.ts; the
// `kit` command's bundle, cli/start.ts).
//
// V8 rejects damaged data, but it checks a cache against nothing more than the source's length, so
// a cache file's name says which source it was made from (`<stem>-<key>.<flags>.v8`): the key hashes
// the Node version and architecture, the file's path and size and whatever else the caller knows of
// its version; the flags part hashes the names of the process's Node options, since V8 also rejects
// a cache made under other flags (`--expose-gc`, which the editor extension starts the language
// server with, and the command line does not) and two option sets must not overwrite each other's
// cache on every start. Any failure (no cache directory, a read-only install) only costs time.
//
// Nothing here loads `node:crypto`: hashing a few names does not need it, and loading it costs the
// command line ~2 ms at every start.
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * `<stem>-<key>.<flags>.v8`: `key` (16 hex digits) names the source by `parts`, `flags` (8) the
 * Node options the process runs with (`optionNames`).
 */
export function codeCacheName(
  stem: string,
  parts: readonly unknown[],
  options: readonly string[] = optionNames(),
): string {
  return `${stem}-${shortHash(parts, 16)}.${shortHash(options, 8)}.v8`;
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
 * What a module run here calls for `import()` (a bundle's `__kit_import`, scripts/esbuild-plugins.mjs):
 * code compiled by `vm.Script` cannot import in Node 20 without its experimental module API. Resolved
 * as from this module: package names and absolute URLs only.
 */
const importModule = (specifier: string): Promise<unknown> => import(specifier);

/** When the cache is written, if it must be: right after the file ran, or at the process's exit. */
export type CacheWrite = 'after-load' | 'at-exit';

/**
 * Runs the CommonJS module `file` as Node's loader would (same wrapper, same `require`; and
 * `__kit_import` for `import()`), compiled with the first usable cache among `cacheFiles`. When none was
 * usable it writes one, to the first of `cacheFiles` that can be written: right after the module ran,
 * or, `at-exit`, when the process exits, so that the cache also holds the functions the run
 * compiled after loading (V8 compiles most functions on their first call).
 */
export function loadWithCodeCache(
  file: string,
  cacheFiles: string | readonly string[],
  write: CacheWrite = 'after-load',
): unknown {
  const candidates = typeof cacheFiles === 'string' ? [cacheFiles] : cacheFiles;
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  for (const candidate of candidates) {
    try {
      cachedData = readFileSync(candidate);
      break;
    } catch {
      cachedData = undefined;
    }
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname, __kit_import) { ${source}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const save = () => {
    const data = script.createCachedData();
    for (const candidate of candidates) if (writeCache(candidate, data)) return;
  };
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  if (stale && write === 'at-exit') process.once('exit', save);
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeRequire,
    module: object,
    filename: string,
    dirname: string,
    kitImport: typeof importModule,
  ) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file), importModule);
  module.loaded = true;
  if (stale && write === 'after-load') save();
  return module.exports;
}

/**
 * Writes the cache atomically (a reader sees the old file or the new one), then removes the caches
 * of earlier versions: `<stem>-<old key>[.<flags>].v8` beside `<stem>-<key>.<flags>.v8` (those of
 * other flags for this version stay). False when the file could not be written.
 */
function writeCache(cacheFile: string, data: Buffer): boolean {
  const tmp = `${cacheFile}.${process.pid}-${Date.now().toString(36)}`;
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, cacheFile);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      /* never written */
    }
    return false;
  }
  try {
    // A name without flags (`<stem>-<key>.v8`) is from before caches had them: its version part
    // is never this one's.
    const versionOf = (name: string) => (name.split('.').length > 2 ? name.slice(0, name.indexOf('.')) : name);
    const version = versionOf(basename(cacheFile));
    const prefix = version.slice(0, version.lastIndexOf('-') + 1);
    if (prefix === '') return true;
    for (const other of readdirSync(dirname(cacheFile))) {
      if (other.startsWith(prefix) && other.endsWith('.v8') && versionOf(other) !== version)
        unlinkSync(join(dirname(cacheFile), other));
    }
  } catch {
    /* another process removed it first */
  }
  return true;
}

/** `digits` hex digits of FNV-1a over `parts` (32-bit lanes, each seeded with its number). */
export function shortHash(parts: readonly unknown[], digits: number): string {
  const text = parts.join('\0');
  let out = '';
  for (let lane = 0; out.length < digits; lane++) {
    let h = Math.imul(0x811c9dc5 ^ lane, 0x01000193) >>> 0;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, digits);
}
