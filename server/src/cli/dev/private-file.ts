// Files kit keeps for itself in a project's `.kit/` folder (the dev CSRF secret, the dev server's
// announcement), written so that nothing planted there can redirect them. A file is written to a
// fresh temporary file beside it (created exclusively, owner-only) and renamed into place: a
// reader never sees half a file, and a symbolic link at the path is replaced by the new regular
// file rather than written through (rename replaces the link itself; the file it pointed to is
// never opened). Reads do not follow a link either, and an existing file is made owner-only. The
// folder itself must be a real directory: a link there is refused with an error naming it.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SourceError } from '#core/project/discover.js';

const PRIVATE = 0o600;
// Windows has no O_NOFOLLOW; there an lstat before the open stands in for it.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The folder cannot hold kit's files (a link, a file, no permission): `kit dev` stops, naming it. */
export class PrivateFileError extends SourceError {}

/** `dir`, made (owner-only) if missing; refuses a symbolic link or anything but a directory. */
export function privateDir(dir: string): string {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new PrivateFileError(`cannot make ${dir}: ${(e as Error).message}`);
  }
  const st = lstatSync(dir);
  if (st.isSymbolicLink())
    throw new PrivateFileError(
      `${dir} is a symbolic link; kit keeps its files in a real directory there: remove the link`,
    );
  if (!st.isDirectory()) throw new PrivateFileError(`${dir} is not a directory; remove it or move it away`);
  return dir;
}

/**
 * Writes `data` to `file`, owner-only (0600), through a temporary file renamed into place. A
 * symbolic link at `file` is replaced by the regular file; what it pointed to is left untouched.
 */
export function writePrivateFile(file: string, data: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, PRIVATE);
  } catch (e) {
    throw new PrivateFileError(`cannot write ${file}: ${(e as Error).message}`);
  }
  try {
    // The mode given to open is narrowed by the umask, never widened; this makes it exact.
    fchmodSync(fd, PRIVATE);
    writeSync(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, file);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      /* closed already */
    }
    try {
      unlinkSync(tmp);
    } catch {
      /* never made or renamed */
    }
    throw new PrivateFileError(`cannot write ${file}: ${(e as Error).message}`);
  }
}

/**
 * The text of `file` when it is a regular file (undefined when it is missing, a symbolic link or
 * anything else); an existing file whose mode is not 0600 is made so.
 */
export function readPrivateFile(file: string): string | undefined {
  let fd: number;
  try {
    if (NOFOLLOW === 0 && lstatSync(file).isSymbolicLink()) return undefined;
    fd = openSync(file, constants.O_RDONLY | NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return undefined;
    if ((st.mode & 0o777) !== PRIVATE) fchmodSync(fd, PRIVATE);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
