// Writing the files of an output tree one at a time: each directory created once, the first time a
// file goes into it, then the file. The static writer does this on the main thread
// (`writeStaticSite`) or on a thread of its own (`write-thread.ts`); both write the same bytes the
// same way. Errors are the system's, for the caller to word. The writer can also say what the file
// system says of each file and directory it made (`entryOf`), which the build cache's fingerprint of
// the output is made of: taken by the writing thread as it goes, the main thread need not `stat` the
// whole output again when the build ends.
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  rmdirSync,
  statSync,
  type Stats,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/** The parent directory of an output-relative path, or '' at the root. */
export function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash > 0 ? rel.slice(0, slash) : '';
}

/** What the file system says of each file and directory of an output, by output-relative path ('' the root). */
export type OutputEntries = Map<string, string>;

/**
 * One file's or directory's entry: its kind, inode, size, modification and change times; undefined
 * when it is not of the kind asked for.
 */
export function entryOf(st: Stats, dir: boolean): string | undefined {
  if (st.isDirectory() !== dir || (!dir && !st.isFile())) return undefined;
  return `${dir ? 'd' : 'f'}\0${st.ino}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}`;
}

/** The directories of `files`, the root (''), and each one's parents. */
export function directoriesOf(files: Iterable<string>): Set<string> {
  const dirs = new Set<string>(['']);
  for (const f of files) for (let d = parentOf(f); d !== '' && !dirs.has(d); d = parentOf(d)) dirs.add(d);
  return dirs;
}

export class FileWriter {
  private readonly dirs = new Set<string>();
  /** Each written file's entry, when asked for (`withEntries`). */
  private readonly files: OutputEntries | undefined;

  constructor(
    private readonly root: string,
    withEntries = false,
  ) {
    if (withEntries) this.files = new Map();
  }

  /** Writes `content` to `rel` under the root; throws the system's error. */
  write(rel: string, content: string | Uint8Array): void {
    const dir = parentOf(rel);
    if (dir !== '' && !this.dirs.has(dir)) {
      mkdirSync(join(this.root, dir), { recursive: true });
      this.dirs.add(dir);
    }
    const fd = openSync(join(this.root, rel), 'w');
    try {
      writeFileSync(fd, content);
      if (this.files) this.files.set(rel, entryOf(fstatSync(fd), false)!);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Removes a file written before (one a build wrote ahead and then found it had no use for), and
   * each directory it leaves empty: the tree is then the one that never had it.
   */
  remove(rel: string): void {
    unlinkSync(join(this.root, rel));
    this.files?.delete(rel);
    for (let dir = parentOf(rel); dir !== ''; dir = parentOf(dir)) {
      try {
        rmdirSync(join(this.root, dir));
      } catch {
        // Not empty: other files are in it.
        return;
      }
      this.dirs.delete(dir);
    }
  }

  /**
   * The entries of every file written and of their directories, taken now (when all are written),
   * but for the root's: moving the tree into place changes it. Undefined unless asked for.
   */
  entries(): OutputEntries | undefined {
    if (!this.files) return undefined;
    const out: OutputEntries = new Map(this.files);
    for (const d of directoriesOf(this.files.keys()))
      if (d !== '') out.set(d, entryOf(statSync(join(this.root, d)), true)!);
    return out;
  }
}
