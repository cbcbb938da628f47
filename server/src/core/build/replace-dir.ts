// Replacing an output directory atomically (`--out`, `--app`): the new tree is written into a fresh
// directory beside the target, then renamed into place. Two renames: the old tree moves aside, the
// new one moves in, the old one is deleted; a crash between the renames leaves the old tree beside
// the target, never a mix. A build killed before it could clean up leaves its directories beside
// the target; the next build of the same target removes them (their names carry the dead pid).
// A build that changes a few files of a tree it wrote before patches it instead (`patchInto`): the
// tree moves aside, takes the new files and loses the old ones there, and moves back; the target is
// never a mix of two builds, and a build killed meanwhile leaves the tree beside it, to be removed.
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { readdir as readdirAsync, rm as rmAsync, rmdir as rmdirAsync, unlink as unlinkAsync } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { parentOf } from './file-writer.js';

/** What a directory build is: its flag (`--out`), the marker file an earlier build leaves, its error type. */
export interface ReplaceTarget {
  flag: string;
  marker: string;
  /** How the target is named in messages. */
  shown: string;
  error: (message: string) => Error;
}

/** Checks that the target may be replaced: absent, empty, or the output of an earlier `kit build`. */
export function checkReplaceable(dir: string, t: ReplaceTarget): void {
  let st;
  try {
    st = statSync(dir);
  } catch {
    return;
  }
  if (!st.isDirectory()) throw t.error(`${t.flag} ${dir} exists and is not a directory`);
  if (readdirSync(dir).length > 0 && !existsSync(join(dir, t.marker))) {
    throw t.error(
      `${t.flag} ${dir} is not empty and holds no ${t.marker} from an earlier kit build; remove it or choose ` +
        `another directory`,
    );
  }
}

/** `.<name>.kit-<kind>-<pid>-<hex>`: the temporary and set-aside directories of a build. */
const WORK_DIR = /^\.(.+)\.kit-(?:build|app|old)-(\d+)-[0-9a-f]{8}$/;

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes what killed builds of this target left beside it; returns how many were removed. */
export function removeStale(target: string): number {
  const parent = dirname(target);
  const name = basename(target);
  let entries: string[];
  try {
    entries = readdirSync(parent);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    const m = WORK_DIR.exec(entry);
    if (!m || m[1] !== name || alive(Number(m[2]))) continue;
    removeTree(join(parent, entry));
    removed++;
  }
  return removed;
}

/** A fresh directory beside `target` (same file system, so the final rename is atomic). */
export function makeTemp(target: string, kind: 'build' | 'app', t: ReplaceTarget): { tmp: string; suffix: string } {
  removeStale(target);
  const parent = dirname(target);
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmp = join(parent, `.${basename(target)}.kit-${kind}-${suffix}`);
  try {
    mkdirSync(parent, { recursive: true });
    mkdirSync(tmp);
  } catch (e) {
    throw t.error(`cannot create a build directory beside ${t.shown}: ${errorCode(e)}`);
  }
  return { tmp, suffix };
}

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}

/**
 * Moves the finished tree into place. With `removeOld` false, the replaced tree (already moved
 * aside, out of the way) is returned for the caller to delete.
 */
export function swapInto(
  tmp: string,
  target: string,
  suffix: string,
  t: ReplaceTarget,
  removeOld = true,
): string | undefined {
  if (!existsSync(target)) {
    try {
      renameSync(tmp, target);
    } catch (e) {
      removeTree(tmp);
      throw t.error(`cannot move the build into ${t.shown}: ${errorCode(e)}`);
    }
    return undefined;
  }
  const old = join(dirname(target), `.${basename(target)}.kit-old-${suffix}`);
  try {
    renameSync(target, old);
  } catch (e) {
    removeTree(tmp);
    throw t.error(`cannot replace ${t.shown}: ${errorCode(e)}`);
  }
  try {
    renameSync(tmp, target);
  } catch (e) {
    renameSync(old, target);
    removeTree(tmp);
    throw t.error(`cannot move the build into ${t.shown}: ${errorCode(e)}`);
  }
  if (!removeOld) return old;
  removeTree(old);
  return undefined;
}

/**
 * Patches the tree at `target`: the files `staged` (output-relative paths) written into `tmp` are
 * moved into it, the files `removed` go, and so do directories they leave empty. The tree is moved
 * aside meanwhile and moved back once patched, so the target never holds a mix of two builds; an
 * error on the way removes the tree set aside (the target is then absent, as after a build killed
 * between the two renames of `swapInto`, and the next build writes it whole).
 */
export function patchInto(
  tmp: string,
  target: string,
  suffix: string,
  staged: readonly string[],
  removed: readonly string[],
  t: ReplaceTarget,
): void {
  const aside = join(dirname(target), `.${basename(target)}.kit-old-${suffix}`);
  try {
    renameSync(target, aside);
  } catch (e) {
    throw t.error(`cannot replace ${t.shown}: ${errorCode(e)}`);
  }
  try {
    const emptied = new Set<string>();
    for (const rel of removed) {
      try {
        unlinkSync(join(aside, rel));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
      for (let d = parentOf(rel); d !== ''; d = parentOf(d)) emptied.add(d);
    }
    // Deepest first (a path is longer than its parent's): a directory goes once its children have.
    for (const d of [...emptied].sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(join(aside, d));
      } catch {
        /* not empty */
      }
    }
    const made = new Set<string>();
    for (const rel of staged) {
      const dir = parentOf(rel);
      if (dir !== '' && !made.has(dir)) {
        mkdirSync(join(aside, dir), { recursive: true });
        made.add(dir);
      }
      renameSync(join(tmp, rel), join(aside, rel));
    }
    renameSync(aside, target);
  } catch (e) {
    removeTree(aside);
    throw t.error(`cannot update ${t.shown}: ${errorCode(e)}; it was removed, and the next build writes it whole`);
  }
}

/**
 * Fills the fresh tree `tmp` with the files `rels` of the tree at `from` as hard links (copies where
 * the file system refuses a link): a build whose output in place holds most of its files.
 */
export function linkInto(from: string, tmp: string, rels: readonly string[], t: ReplaceTarget): void {
  const made = new Set<string>();
  for (const rel of rels) {
    const dir = parentOf(rel);
    try {
      if (dir !== '' && !made.has(dir)) {
        mkdirSync(join(tmp, dir), { recursive: true });
        made.add(dir);
      }
      try {
        linkSync(join(from, rel), join(tmp, rel));
      } catch {
        copyFileSync(join(from, rel), join(tmp, rel));
      }
    } catch (e) {
      throw t.error(`cannot write ${rel}: ${errorCode(e)}`);
    }
  }
}

/**
 * Deletes a tree a build wrote or replaced: one readdir per directory and one unlink per file
 * (several times faster than `rmSync({recursive})` on large outputs); falls back to `rmSync`.
 */
export function removeTree(dir: string): void {
  try {
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else unlinkSync(p);
      }
      rmdirSync(d);
    };
    walk(dir);
  } catch {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * System calls a tree's removal has on their way at once. Node's thread pool runs four; more only
 * wait there, each holding its request (all of a 10,000-page output's at once: 60 MB of a build's
 * peak memory).
 */
const REMOVALS_IN_FLIGHT = 32;

/** Runs the calls it is given with at most `n` of them unfinished at a time, the others queued. */
function limiter(n: number): <T>(call: () => Promise<T>) => Promise<T> {
  let running = 0;
  const queued: (() => void)[] = [];
  return async (call) => {
    if (running >= n) await new Promise<void>((go) => queued.push(go));
    else running++;
    try {
      return await call();
    } finally {
      // The slot goes to the next call queued, if any.
      const next = queued.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * `removeTree` with the directories of the tree emptied and removed in parallel: removing a
 * directory can wait on the disk for milliseconds, so one at a time, a large output takes seconds.
 */
export async function removeTreeAsync(dir: string): Promise<void> {
  const limit = limiter(REMOVALS_IN_FLIGHT);
  const walk = async (d: string): Promise<void> => {
    const entries = await limit(() => readdirAsync(d, { withFileTypes: true }));
    await Promise.all(
      entries.map((e) => (e.isDirectory() ? walk(join(d, e.name)) : limit(() => unlinkAsync(join(d, e.name))))),
    );
    await limit(() => rmdirAsync(d));
  };
  try {
    await walk(dir);
  } catch {
    await rmAsync(dir, { recursive: true, force: true });
  }
}
