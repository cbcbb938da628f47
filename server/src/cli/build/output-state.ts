// Whether the output in place is still the one the last build wrote, without reading it: a hash
// of what the file system says of each of its files and directories (inode, size, modification and
// change times), taken when the build ends and again before the next one patches it. A file edited
// or replaced changes its own entry; a file added or removed anywhere changes its directory's. The
// times are never part of a cache key: a fingerprint that differs only means the output is written
// whole, as after a clean build.
import { readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { resolve, sep } from 'node:path';
import { sha256 } from '#core/build/cache-records.js';
import { directoriesOf, entryOf, type OutputEntries } from '#core/build/file-writer.js';
import type { PreviousOutput } from '#core/build/index.js';
// The manifests' names from a module without imports: a build that compiles nothing loads no writer.
import { ASSETS_MANIFEST } from '#core/build/manifests.js';
import type { BuildIndex } from './cache-index.js';

export type { OutputEntries } from '#core/build/file-writer.js';

/**
 * The output directory as the last build left it: whether it still is that output (`isLast`: the
 * same directory, its assets manifest's bytes, and nothing changed in it since), checked once, and
 * what a patch of it starts from (`previous`).
 */
export class LastOutput {
  private last: boolean | undefined;
  /** What the file system said of it when it was checked, when it is the last build's output. */
  entries: OutputEntries | undefined;

  /** `dir`: `outAbs` as the records name it; `recorded`: what the last build recorded of its output. */
  constructor(
    private readonly outAbs: string,
    private readonly dir: string,
    private readonly recorded: BuildIndex['output'],
  ) {}

  isLast(): boolean {
    this.last ??= this.check();
    return this.last;
  }

  private check(): boolean {
    const o = this.recorded;
    if (o === undefined || o.dir !== this.dir) return false;
    try {
      if (sha256(readFileSync(resolve(this.outAbs, ASSETS_MANIFEST))) !== o.manifest) return false;
    } catch {
      return false;
    }
    const entries = outputEntries(this.outAbs, o.files);
    if (entries === undefined || fingerprintOf(entries, o.files) !== o.fingerprint) return false;
    this.entries = entries;
    return true;
  }

  /** The output in place as the writer patches it, when it is the last build's. */
  previous(): PreviousOutput | undefined {
    if (!this.isLast()) return undefined;
    try {
      const m = JSON.parse(readFileSync(resolve(this.outAbs, ASSETS_MANIFEST), 'utf8')) as {
        hashes?: Record<string, string>;
        sizes?: Record<string, number>;
        cache?: Record<string, string>;
      };
      return {
        hashes: new Map(Object.entries(m.hashes ?? {})),
        sizes: new Map(Object.entries(m.sizes ?? {})),
        cache: new Map(Object.entries(m.cache ?? {})),
        manifest: `sha256-${this.recorded!.manifest}`,
      };
    } catch {
      return undefined;
    }
  }
}

/** One entry, or undefined when it is missing or not of its kind (`rel`: a plain output path, or '' the root). */
function entry(root: string, rel: string, dir: boolean): string | undefined {
  const st = statSync(rel === '' ? root : `${root}${sep}${rel}`, { throwIfNoEntry: false });
  return st && entryOf(st, dir);
}

/**
 * The entries a writer took of everything it wrote (`WriteStats.entries`, completed in place),
 * with the root's taken now (moving the tree into place changed it); undefined when it is missing.
 */
export function withRootEntry(root: string, written: OutputEntries): OutputEntries | undefined {
  const e = entry(root, '', true);
  return e === undefined ? undefined : written.set('', e);
}

/** The entries of the files `files` of the tree at `root` and of their directories; undefined when one is missing. */
export function outputEntries(root: string, files: Iterable<string>): OutputEntries | undefined {
  const out: OutputEntries = new Map();
  for (const f of files) {
    const e = entry(root, f, false);
    if (e === undefined) return undefined;
    out.set(f, e);
  }
  for (const d of directoriesOf(out.keys())) {
    const e = entry(root, d, true);
    if (e === undefined) return undefined;
    out.set(d, e);
  }
  return out;
}

/**
 * `entries` after a patch that wrote `written` and removed `removed` (output-relative files): their
 * entries and their directories' are taken again, the rest kept. Undefined when one is missing.
 */
export function patchedEntries(
  root: string,
  entries: OutputEntries,
  written: Iterable<string>,
  removed: Iterable<string>,
): OutputEntries | undefined {
  const out: OutputEntries = new Map(entries);
  const touched: string[] = [];
  for (const f of removed) {
    out.delete(f);
    touched.push(f);
  }
  for (const f of written) {
    const e = entry(root, f, false);
    if (e === undefined) return undefined;
    out.set(f, e);
    touched.push(f);
  }
  for (const d of directoriesOf(touched)) {
    const e = entry(root, d, true);
    if (e === undefined) out.delete(d);
    else out.set(d, e);
  }
  return out;
}

/**
 * The fingerprint of an output's entries: the same entries, the same fingerprint. `files`: the
 * output's files in order (the manifest's); their entries come first, then the directories', sorted.
 */
export function fingerprintOf(entries: OutputEntries, files: readonly string[]): string {
  const lines: string[] = [];
  for (const f of files) lines.push(f, '\0', entries.get(f) ?? 'missing', '\n');
  const dirs: string[] = [];
  for (const [rel, e] of entries) if (e.startsWith('d')) dirs.push(rel);
  for (const d of dirs.sort()) lines.push(d, '\0', entries.get(d)!, '\n');
  // One string hashed at once: an update per entry costs more than the hashing.
  return createHash('sha256').update(lines.join('')).digest('hex');
}
