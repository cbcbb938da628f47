// Reading one source file from disk, for every front door (the command line, the language server's
// index). Only regular files are read, and only up to a size cap: a name can point at a device
// (`/dev/zero`), a FIFO (a read that never ends) or a file far larger than any source, and each
// of those gets a one-line refusal instead of a hang or an exhausted heap. Bytes that are not
// UTF-8 are kept as U+FFFD, as a decoder would, and reported where they stand.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import type { Range } from '#grammar/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/registry.js';
import { linkProblem, SourceError } from './discover.js';

import { listedSourceBytes, MAX_SOURCE_BYTES, stateOf, type FileState } from './source-bytes.js';

export { MAX_SOURCE_BYTES };

export interface SourceText {
  text: string;
  /** Problems found while decoding (invalid UTF-8), as diagnostics of the file. */
  diagnostics: Diagnostic[];
  /** What the file system said of the file as it was read, when it was read from disk. */
  state?: FileState;
}

function cannotRead(shown: string, why: string): SourceError {
  return new SourceError(`cannot read ${shown}: ${why}`, why);
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function megabytes(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Why `abs` cannot be a source, or undefined when it is a regular file within the cap. */
function refusal(abs: string): string | undefined {
  let st: Stats;
  try {
    st = statSync(abs);
  } catch (e) {
    return linkProblem(abs, e);
  }
  if (!st.isFile()) return `${kindOf(st)}, not a regular file`;
  if (st.size > MAX_SOURCE_BYTES) return `${megabytes(st.size)} is over the ${megabytes(MAX_SOURCE_BYTES)} limit`;
  return undefined;
}

/**
 * Reads a source file, or throws a `SourceError` naming `shown` with the reason. The size is
 * checked again on the open file, so a file that grows after the check is cut off at the cap +1
 * byte and refused, never read whole.
 */
export function readSourceFile(abs: string, shown: string): SourceText {
  const { bytes, state } = readSourceBytes(abs, shown);
  return decodeSource(bytes, shown, state);
}

/**
 * A file the discovery listed, read the quick way (`listedSourceBytes`: no `stat` before the open),
 * for a thread that reads ahead of the one that reports: undefined when it is not a regular file,
 * over the cap, unreadable or binary, and the reporting thread reads it with `readSourceFile`.
 */
export function readListedSource(abs: string, shown: string): SourceText | undefined {
  const read = listedSourceBytes(abs);
  if (read === undefined) return undefined;
  try {
    return decodeSource(read.bytes, shown, read.state);
  } catch {
    return undefined;
  }
}

/** `readSourceFile`'s bytes, not decoded yet, and what the file system said of the file read. */
function readSourceBytes(abs: string, shown: string): { bytes: Buffer; state: FileState } {
  const why = refusal(abs);
  if (why !== undefined) throw cannotRead(shown, why);
  let fd: number;
  try {
    // Non-blocking: a name swapped for a FIFO after the check must not block the open (a regular
    // file reads the same either way); the type is checked again on the descriptor.
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw cannotRead(shown, (e as NodeJS.ErrnoException).code ?? 'error');
  }
  let bytes: Buffer;
  let state: FileState;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw cannotRead(shown, `${kindOf(st)}, not a regular file`);
    state = stateOf(st);
    bytes = Buffer.allocUnsafe(Math.min(st.size, MAX_SOURCE_BYTES) + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, bytes, n, bytes.length - n, null);
      if (got === 0) break;
      n += got;
      if (n === bytes.length) break;
    }
    if (n > MAX_SOURCE_BYTES) throw cannotRead(shown, `over the ${megabytes(MAX_SOURCE_BYTES)} limit`);
    bytes = bytes.subarray(0, n);
  } catch (e) {
    if (e instanceof SourceError) throw e;
    throw cannotRead(shown, (e as NodeJS.ErrnoException).code ?? 'error');
  } finally {
    closeSync(fd);
  }
  return { bytes, state };
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** Decodes UTF-8 (a byte-order mark stays, as U+FEFF); a NUL byte means the file is binary. */
export function decodeSource(bytes: Uint8Array, shown: string, state?: FileState): SourceText {
  if (bytes.indexOf(0) >= 0) throw cannotRead(shown, 'binary file (contains NUL bytes)');
  // Well-formed text (nearly every file) is decoded once; the rest again, with each bad byte reported.
  try {
    return { text: strict.decode(bytes), diagnostics: [], state };
  } catch {
    const text = lenient.decode(bytes);
    return { text, diagnostics: encodingDiagnostics(bytes, text, shown), state };
  }
}

/** At most this many invalid sequences are reported per file; the last diagnostic says how many more. */
const MAX_REPORTED = 10;

/**
 * One diagnostic per maximal invalid UTF-8 subsequence, where the decoder put its U+FFFD. The walk
 * follows the WHATWG decoder (the byte that breaks a sequence starts the next one) so that its
 * count of UTF-16 units matches the decoded text.
 */
export function encodingDiagnostics(bytes: Uint8Array, text: string, file: string): Diagnostic[] {
  if (isWellFormed(bytes)) return [];
  const bad: { byte: number; unit: number; value: number }[] = [];
  const n = bytes.length;
  let i = 0;
  let u = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      u++;
      continue;
    }
    let need = 0;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    }
    let j = i + 1;
    let ok = need > 0;
    for (let k = 0; ok && k < need; k++, j++) {
      const c = j < n ? bytes[j] : -1;
      if (c < lo || c > hi) ok = false;
      else {
        lo = 0x80;
        hi = 0xbf;
      }
    }
    if (!ok) {
      if (need > 0) j--; // the byte that broke the sequence is read again
      bad.push({ byte: i, unit: u, value: b });
      i = Math.max(j, i + 1);
      u++;
      continue;
    }
    i = j;
    u += need === 3 ? 2 : 1;
  }
  const lines = lineStarts(text);
  const out: Diagnostic[] = [];
  for (const [k, at] of bad.slice(0, MAX_REPORTED).entries()) {
    const more = k === MAX_REPORTED - 1 && bad.length > MAX_REPORTED ? ` (and ${bad.length - MAX_REPORTED} more)` : '';
    const byte = `0x${at.value.toString(16).toUpperCase().padStart(2, '0')}`;
    out.push(
      diag(
        'invalid_utf8',
        file,
        unitRange(lines, at.unit),
        `invalid UTF-8: byte ${byte} at byte offset ${at.byte} is not part of a valid character${more}`,
      ),
    );
  }
  return out;
}

function isWellFormed(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The one-character range at UTF-16 offset `at` (0-based lines, UTF-16 columns, as the grammar's). */
function unitRange(lines: number[], at: number): Range {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  const pos = (offset: number) => ({ offset, line: lo, column: offset - lines[lo] });
  return { start: pos(at), end: pos(at + 1) };
}
