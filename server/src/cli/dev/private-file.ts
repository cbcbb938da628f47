// Files kit keeps for itself in a project's `.kit/` folder (the dev CSRF secret, the dev server's
// announcement, `kit build`'s cache), written so that nothing planted there can redirect them. A file is written to a
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
 * A file being written owner-only (0600) through a temporary file beside it, created exclusively
 * and without following a link: `write` appends, `commit` renames it into place (a symbolic link
 * at `file` is replaced; what it pointed to is left untouched), `abort` removes it. `durable`
 * flushes it to the disk before the rename; a cache whose every read is checked can do without.
 */
export class PrivateFileWriter {
  private readonly tmp: string;
  private fd: number | undefined;

  constructor(
    readonly file: string,
    private readonly durable = true,
  ) {
    this.tmp = join(dirname(file), `.${basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    try {
      this.fd = openSync(this.tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, PRIVATE);
    } catch (e) {
      throw new PrivateFileError(`cannot write ${file}: ${(e as Error).message}`);
    }
    try {
      // The mode given to open is narrowed by the umask, never widened; this makes it exact.
      fchmodSync(this.fd, PRIVATE);
    } catch (e) {
      this.abort();
      throw new PrivateFileError(`cannot write ${file}: ${(e as Error).message}`);
    }
  }

  write(data: string | Uint8Array): void {
    try {
      if (typeof data === 'string') writeSync(this.fd!, data);
      else for (let at = 0; at < data.byteLength; ) at += writeSync(this.fd!, data, at);
    } catch (e) {
      this.abort();
      throw new PrivateFileError(`cannot write ${this.file}: ${(e as Error).message}`);
    }
  }

  commit(): void {
    try {
      if (this.durable) fsyncSync(this.fd!);
      closeSync(this.fd!);
      this.fd = undefined;
      renameSync(this.tmp, this.file);
    } catch (e) {
      this.abort();
      throw new PrivateFileError(`cannot write ${this.file}: ${(e as Error).message}`);
    }
  }

  abort(): void {
    try {
      if (this.fd !== undefined) closeSync(this.fd);
    } catch {
      /* closed already */
    }
    this.fd = undefined;
    try {
      unlinkSync(this.tmp);
    } catch {
      /* never made or renamed */
    }
  }
}

/**
 * Writes `data` to `file`, owner-only (0600), through a temporary file renamed into place. A
 * symbolic link at `file` is replaced by the regular file; what it pointed to is left untouched.
 */
export function writePrivateFile(file: string, data: string | Uint8Array, durable = true): void {
  const w = new PrivateFileWriter(file, durable);
  w.write(data);
  w.commit();
}

/**
 * The text of `file` when it is a regular file (undefined when it is missing, a symbolic link or
 * anything else); an existing file whose mode is not 0600 is made so.
 */
export function readPrivateFile(file: string): string | undefined {
  return readPrivateBytes(file)?.toString('utf8');
}

/** `readPrivateFile`'s bytes. */
export function readPrivateBytes(file: string): Buffer | undefined {
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
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
