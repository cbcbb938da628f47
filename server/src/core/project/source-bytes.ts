// A source's bytes as they are read for many files at once: hashed, not decoded, as `kit build`
// compares them with its last build's; read for a load the quick way (`listedSourceBytes`); and
// what the file system says of a file (`stateOf`), which spares the build reading it when it is
// the same.
//
// A state is only worth keeping when it proves the bytes read with it are still the file's: a
// write changes the file's change time (ctime; nothing a user runs can set it back, unlike the
// modification time), but only to the clock's current tick, which is coarse (a few milliseconds on
// Linux, seconds on some file systems). A file written again within the tick of the read would look
// the same. So a state is kept only when both times are older than the build's start by more than
// any tick (`SETTLED_MS`): a later write would then give the file a later ctime. A file written in
// the last seconds is read and hashed again next time, as every file was before.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

/** Sources above this size (bytes) are not read; the editor's documents have the same cap. */
export const MAX_SOURCE_BYTES = 8 * 1024 * 1024;

/** The buffer `readAll` reads into, grown when a file needs more. */
let scratch = Buffer.allocUnsafe(1 << 16);

/** The bytes of the open file `fd` up to the cap +1 byte: a view of `scratch`, valid until the next call. */
function readAll(fd: number): Buffer {
  let n = 0;
  for (;;) {
    if (n === scratch.length) {
      if (n > MAX_SOURCE_BYTES) break;
      const more = Buffer.allocUnsafe(scratch.length * 2);
      scratch.copy(more);
      scratch = more;
    }
    const got = readSync(fd, scratch, n, scratch.length - n, null);
    if (got === 0) break;
    n += got;
  }
  return scratch.subarray(0, n);
}

/**
 * The SHA-256 (hex) of a source's bytes, up to the cap +1 byte: how `kit build` tells which of
 * thousands of sources changed since its last build. Only for files the discovery listed as regular
 * files a moment ago: it reads them without `readSourceFile`'s checks (two `stat` calls per file,
 * half the cost of a read), opened without blocking. Whatever it hashes of something else (a FIFO,
 * a device swapped in since) differs from a source's hash, so the file is then read as a changed
 * one, with those checks. Throws the system's error when the file cannot be opened or read.
 */
export function sourceBytesHash(abs: string): string {
  const fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    return createHash('sha256').update(readAll(fd)).digest('hex');
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of a file the discovery listed as a regular file a moment ago (a view valid until the
 * next call), and its state, read as `sourceBytesHash` reads: opened without blocking, without
 * `readSourceFile`'s `stat` before the open. Undefined for anything else: not a regular file (any
 * more), over the cap, or an error; the caller then reads it with `readSourceFile`, which says why.
 */
export function listedSourceBytes(abs: string): { bytes: Buffer; state: FileState } | undefined {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_SOURCE_BYTES) return undefined;
    const bytes = readAll(fd);
    return bytes.length > MAX_SOURCE_BYTES ? undefined : { bytes, state: stateOf(st) };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** How much older than a build's start a file's times must be for its state to be kept. */
export const SETTLED_MS = 3000;

/**
 * What the file system said of a file: `id` its device, inode, size, modification and change
 * times; `changedMs` the later of the two times.
 */
export interface FileState {
  id: string;
  changedMs: number;
}

/** The state a stat of a regular file gives. */
export function stateOf(st: Stats): FileState {
  return {
    id: `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`,
    changedMs: Math.max(st.mtimeMs, st.ctimeMs),
  };
}

/**
 * `state`'s id when the file last changed more than `SETTLED_MS` before `since` (a time taken
 * before the file was read, `Date.now()`), else ''. The state may be taken before or after the
 * read alike: a write after `since` would have given the file a newer change time.
 */
export function settled(state: FileState | undefined, since: number): string {
  return state !== undefined && state.changedMs < since - SETTLED_MS ? state.id : '';
}

/** `settled` of the file at `abs` now ('' when it is not a regular file). */
export function settledState(abs: string, since: number): string {
  const st = statSync(abs, { throwIfNoEntry: false });
  return st?.isFile() ? settled(stateOf(st), since) : '';
}
