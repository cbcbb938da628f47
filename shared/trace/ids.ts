// Span and trace IDs come from the OS CSPRNG, drawn in blocks into a pool of 32-bit words (one native call
// per 4096 words). Spans keep their IDs as words; hex text is produced only when an ID is read (snapshot,
// propagation), which keeps hex formatting off the span-start path.
import { randomFillSync } from 'node:crypto';

const POOL_WORDS = 4096;

/** @internal Random words; read `idPool[at .. at+n)` right after `takeIdWords(n)` returned `at`. */
export const idPool = new Int32Array(POOL_WORDS);
let pos = POOL_WORDS;
let failures = 0;

function refill(): boolean {
  try {
    randomFillSync(idPool);
  } catch {
    failures++;
    return false;
  }
  pos = 0;
  return true;
}

/** @internal Reserves `n` random words and returns their index in `idPool`, or -1 if the entropy source failed. */
export function takeIdWords(n: number): number {
  if (pos + n > POOL_WORDS && !refill()) return -1;
  const at = pos;
  pos += n;
  return at;
}

/** How many times the entropy source failed since the process started (those spans were dropped). */
export function idGenerationFailures(): number {
  return failures;
}

// Hex formatting writes two ASCII digits per byte into a scratch buffer and decodes it once: measured
// several times faster than building the string from pieces.
const scratch = Buffer.alloc(64);
const scratch16 = new Uint16Array(scratch.buffer, scratch.byteOffset, 32);
const PAIRS = new Uint16Array(256);
{
  const digits = '0123456789abcdef';
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  for (let i = 0; i < 256; i++) {
    const hi = digits.charCodeAt(i >> 4);
    const lo = digits.charCodeAt(i & 15);
    PAIRS[i] = little ? hi | (lo << 8) : (hi << 8) | lo;
  }
}

/** Writes the 8 hex digits of `w` at 16-bit slot `at` of the scratch buffer. */
function put(at: number, w: number): void {
  scratch16[at] = PAIRS[w >>> 24]!;
  scratch16[at + 1] = PAIRS[(w >>> 16) & 255]!;
  scratch16[at + 2] = PAIRS[(w >>> 8) & 255]!;
  scratch16[at + 3] = PAIRS[w & 255]!;
}

/** 16 lowercase hex digits of a 64-bit ID given as two 32-bit words (high first). */
export function hex64(a: number, b: number): string {
  put(0, a);
  put(4, b);
  return scratch.toString('latin1', 0, 16);
}

/** 32 lowercase hex digits of a 128-bit ID given as four 32-bit words (high first). */
export function hex128(a: number, b: number, c: number, d: number): string {
  put(0, a);
  put(4, b);
  put(8, c);
  put(12, d);
  return scratch.toString('latin1', 0, 32);
}

const DIGITS = new Uint8Array(16);
for (let i = 0; i < 16; i++) DIGITS[i] = '0123456789abcdef'.charCodeAt(i);

/** Writes the 8 hex digits of `w` at byte `at` of the scratch buffer (any alignment). */
function putBytes(at: number, w: number): void {
  for (let shift = 28; shift >= 0; shift -= 4) scratch[at++] = DIGITS[(w >>> shift) & 15]!;
}

/** @internal `00-<trace>-<span>-0<1|0>`: the W3C traceparent of an identity, built as one flat string. */
export function formatTraceparent(
  t0: number,
  t1: number,
  t2: number,
  t3: number,
  s0: number,
  s1: number,
  sampled: boolean,
): string {
  scratch[0] = 48;
  scratch[1] = 48;
  scratch[2] = 45;
  putBytes(3, t0);
  putBytes(11, t1);
  putBytes(19, t2);
  putBytes(27, t3);
  scratch[35] = 45;
  putBytes(36, s0);
  putBytes(44, s1);
  scratch[52] = 45;
  scratch[53] = 48;
  scratch[54] = sampled ? 49 : 48;
  return scratch.toString('latin1', 0, 55);
}

/** @internal Value of a lowercase hex digit, or -1. */
export function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** True for `len` lowercase hex digits that are not all zero (the W3C rule for trace and span IDs). */
export function isValidHexId(value: unknown, len: number): value is string {
  if (typeof value !== 'string' || value.length !== len) return false;
  let nonZero = false;
  for (let i = 0; i < len; i++) {
    const c = value.charCodeAt(i);
    if (c === 48) continue;
    if ((c > 48 && c <= 57) || (c >= 97 && c <= 102)) nonZero = true;
    else return false;
  }
  return nonZero;
}
