// Whether the output in place is still the one the last build wrote, without reading it: a hash
// of what the file system says of each of its files and directories (inode, size, modification and
// change times), taken when the build ends and again before the next one patches it. A file edited
// or replaced changes its own entry; a file added or removed anywhere changes its directory's. The
// times are never part of a cache key: a fingerprint that differs only means the output is written
// whole, as after a clean build.
import { statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parentOf } from '../../core/build/file-writer.js';

/** The fingerprint of the files `files` (output-relative) of the tree at `root`, or undefined when one is missing. */
export function outputFingerprint(root: string, files: readonly string[]): string | undefined {
  const dirs = new Set<string>(['']);
  for (const f of files) for (let d = parentOf(f); d !== '' && !dirs.has(d); d = parentOf(d)) dirs.add(d);
  const hash = createHash('sha256');
  const entry = (rel: string, dir: boolean): boolean => {
    const st = statSync(join(root, rel), { throwIfNoEntry: false });
    if (st === undefined || st.isDirectory() !== dir || (!dir && !st.isFile())) return false;
    hash.update(`${rel}\0${st.ino}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\n`);
    return true;
  };
  for (const f of files) if (!entry(f, false)) return undefined;
  for (const d of [...dirs].sort()) if (!entry(d, true)) return undefined;
  return hash.digest('hex');
}
