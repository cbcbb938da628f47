// W3C Trace Context (Level 1) propagation: `traceparent` and `tracestate` read from and written to HTTP
// header carriers. Parsing follows the specification and its test suite: surrounding spaces and tabs are
// ignored, IDs and flags are lowercase hex and not all zero, version `ff` is invalid, a higher version is
// parsed by the version-00 layout with anything after the flags introduced by `-`, duplicate traceparent
// headers start a new trace, and an invalid tracestate is dropped as a whole while the trace is kept.
import { type Context, IdentityContext } from './context.js';
import { formatTraceparent, hexDigit } from './ids.js';

/** WHATWG `Headers`, a Node `OutgoingMessage` (setHeader/getHeader), or a plain header object. */
export type Carrier =
  | Headers
  | { setHeader(name: string, value: string): unknown; getHeader(name: string): unknown }
  | Record<string, unknown>;

export const TRACEPARENT = 'traceparent';
export const TRACESTATE = 'tracestate';
const MAX_TRACESTATE_MEMBERS = 32;
const MAX_TRACESTATE_LENGTH = 512;

export interface Traceparent {
  version: number;
  traceId: string;
  spanId: string;
  /** The trace-flags byte; bit 0 is "sampled". */
  flags: number;
}

/** Words of the last parsed traceparent: trace ID (4) then parent ID (2). */
const words = new Int32Array(6);

/** Reads `count` words of lowercase hex at `from` into `words[into..]`; false if a digit is bad or all are zero. */
function readWords(s: string, from: number, count: number, into: number): boolean {
  let any = 0;
  for (let w = 0; w < count; w++) {
    const at = from + 8 * w;
    let v = 0;
    for (let i = at; i < at + 8; i++) {
      const c = s.charCodeAt(i);
      if (c >= 48 && c <= 57) v = (v << 4) | (c - 48);
      else if (c >= 97 && c <= 102) v = (v << 4) | (c - 87);
      else return false;
    }
    words[into + w] = v;
    any |= v;
  }
  return any !== 0;
}

function isOws(c: number): boolean {
  return c === 32 || c === 9;
}

/** The trimmed text of the last traceparent that `parseWords` accepted. */
let parsedText = '';
/** Its version byte. */
let parsedVersion = 0;

/**
 * Validates a traceparent value, leaving its IDs in `words` (and its text and version in `parsedText` and
 * `parsedVersion`). Returns the trace-flags byte, or -1 when the value is invalid.
 */
function parseWords(header: string): number {
  let start = 0;
  let end = header.length;
  while (start < end && isOws(header.charCodeAt(start))) start++;
  while (end > start && isOws(header.charCodeAt(end - 1))) end--;
  const len = end - start;
  if (len < 55) return -1;
  const s = start === 0 && end === header.length ? header : header.slice(start, end);
  const v1 = hexDigit(s.charCodeAt(0));
  const v2 = hexDigit(s.charCodeAt(1));
  if (v1 < 0 || v2 < 0) return -1;
  const version = v1 * 16 + v2;
  if (version === 0xff) return -1;
  // Version 00 is exactly 55 characters; a later version may carry more fields, introduced by '-'.
  if (version === 0 ? len !== 55 : len > 55 && s.charCodeAt(55) !== 45) return -1;
  if (s.charCodeAt(2) !== 45 || s.charCodeAt(35) !== 45 || s.charCodeAt(52) !== 45) return -1;
  if (!readWords(s, 3, 4, 0) || !readWords(s, 36, 2, 4)) return -1;
  const f1 = hexDigit(s.charCodeAt(53));
  const f2 = hexDigit(s.charCodeAt(54));
  if (f1 < 0 || f2 < 0) return -1;
  parsedText = s;
  parsedVersion = version;
  return f1 * 16 + f2;
}

/** Parses one traceparent header value; null when it is not valid. */
export function parseTraceparent(header: string): Traceparent | null {
  const flags = parseWords(header);
  if (flags < 0) return null;
  return { version: parsedVersion, traceId: parsedText.slice(3, 35), spanId: parsedText.slice(36, 52), flags };
}

function isKeyChar(c: number): boolean {
  // lcalpha / DIGIT / "_" / "-" / "*" / "/"
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 42 || c === 47;
}

/** W3C tracestate key: simple-key, or multi-tenant `tenant@system`. */
export function isValidTracestateKey(key: string): boolean {
  const at = key.indexOf('@');
  if (at < 0) {
    if (key.length < 1 || key.length > 256) return false;
    const c0 = key.charCodeAt(0);
    if (!(c0 >= 97 && c0 <= 122)) return false;
    for (let i = 1; i < key.length; i++) if (!isKeyChar(key.charCodeAt(i))) return false;
    return true;
  }
  const tenantLen = at;
  const systemLen = key.length - at - 1;
  if (tenantLen < 1 || tenantLen > 241 || systemLen < 1 || systemLen > 14) return false;
  const t0 = key.charCodeAt(0);
  if (!((t0 >= 97 && t0 <= 122) || (t0 >= 48 && t0 <= 57))) return false;
  for (let i = 1; i < at; i++) if (!isKeyChar(key.charCodeAt(i))) return false;
  const s0 = key.charCodeAt(at + 1);
  if (!(s0 >= 97 && s0 <= 122)) return false;
  for (let i = at + 2; i < key.length; i++) if (!isKeyChar(key.charCodeAt(i))) return false; // a second '@' fails here
  return true;
}

/** W3C tracestate value: 1–256 printable ASCII characters except `,` and `=`, not ending in a space. */
export function isValidTracestateValue(value: string): boolean {
  if (value.length < 1 || value.length > 256) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x2c || c === 0x3d) return false;
  }
  return value.charCodeAt(value.length - 1) !== 0x20;
}

/**
 * Validates a (possibly comma-combined) tracestate and returns it normalised (members joined by `,`, no
 * optional whitespace), or '' when it is empty or invalid anywhere. Over 512 characters, members longer than
 * 128 characters are removed first, then members from the end, as the specification recommends.
 */
export function parseTracestate(header: string): string {
  const members: string[] = [];
  const keys = new Set<string>();
  for (const raw of header.split(',')) {
    let a = 0;
    let b = raw.length;
    while (a < b && isOws(raw.charCodeAt(a))) a++;
    while (b > a && isOws(raw.charCodeAt(b - 1))) b--;
    if (a === b) continue; // empty list members are allowed and ignored
    const member = raw.slice(a, b);
    const eq = member.indexOf('=');
    if (eq <= 0) return '';
    const key = member.slice(0, eq);
    if (!isValidTracestateKey(key) || !isValidTracestateValue(member.slice(eq + 1))) return '';
    if (keys.has(key)) return '';
    keys.add(key);
    members.push(member);
    if (members.length > MAX_TRACESTATE_MEMBERS) return '';
  }
  let out = members.join(',');
  if (out.length > MAX_TRACESTATE_LENGTH) {
    const kept = members.filter((m) => m.length <= 128);
    while (kept.length > 0 && kept.join(',').length > MAX_TRACESTATE_LENGTH) kept.pop();
    out = kept.join(',');
  }
  return out;
}

function isHeaders(c: object): c is Headers {
  return (
    typeof (c as Headers).get === 'function' &&
    typeof (c as Headers).set === 'function' &&
    typeof (c as Headers).has === 'function'
  );
}

function isOutgoing(
  c: object,
): c is { setHeader(name: string, value: string): unknown; getHeader(name: string): unknown } {
  return typeof (c as { setHeader?: unknown }).setHeader === 'function';
}

/**
 * Header value(s) for a lowercase name: a string, a list (repeated headers), or undefined. Plain objects are
 * read by their lowercase key first (Node's IncomingHttpHeaders); `anyCase` also tries other spellings.
 */
function readHeader(carrier: Carrier, name: string, anyCase: boolean): unknown {
  if (isHeaders(carrier)) return carrier.get(name) ?? undefined;
  if (isOutgoing(carrier)) return carrier.getHeader(name);
  const obj = carrier as Record<string, unknown>;
  const direct = obj[name];
  if (direct !== undefined || !anyCase) return direct;
  for (const k of Object.keys(obj)) if (k.length === name.length && k.toLowerCase() === name) return obj[k];
  return undefined;
}

function writeHeader(carrier: Carrier, name: string, value: string): void {
  if (isHeaders(carrier)) carrier.set(name, value);
  else if (isOutgoing(carrier)) carrier.setHeader(name, value);
  else (carrier as Record<string, unknown>)[name] = value;
}

/** Writes `traceparent` (and `tracestate` when there is one) for the span or remote parent in `ctx`. */
export function inject(ctx: Context, carrier: Carrier): void {
  const id = ctx._identity();
  if (id === null || carrier === null || typeof carrier !== 'object') return;
  const relayed = id instanceof IdentityContext ? id._header : '';
  writeHeader(
    carrier,
    TRACEPARENT,
    relayed !== '' ? relayed : formatTraceparent(id._t0, id._t1, id._t2, id._t3, id._s0, id._s1, id.sampled),
  );
  if (id.traceState !== '') writeHeader(carrier, TRACESTATE, id.traceState);
}

/**
 * Returns a child of `ctx` carrying the remote parent described by the carrier's `traceparent` and
 * `tracestate`, or `ctx` itself when there is no valid traceparent (the next span then starts a new trace).
 */
export function extract(ctx: Context, carrier: Carrier): Context {
  if (carrier === null || typeof carrier !== 'object') return ctx;
  let tp = readHeader(carrier, TRACEPARENT, false);
  // A plain object with differently cased keys: look for every header in any case.
  const anyCase = tp === undefined;
  if (anyCase) tp = readHeader(carrier, TRACEPARENT, true);
  if (Array.isArray(tp)) {
    if (tp.length !== 1) return ctx; // repeated traceparent headers: not trustworthy, start a new trace
    tp = tp[0];
  }
  if (typeof tp !== 'string') return ctx;
  const flags = parseWords(tp);
  if (flags < 0) return ctx;
  let ts = readHeader(carrier, TRACESTATE, anyCase);
  if (Array.isArray(ts)) ts = ts.join(',');
  const state = typeof ts === 'string' && ts !== '' ? parseTracestate(ts) : '';
  // Kept for inject: a version-00 header with flags 00 or 01 is exactly what would be written again.
  const header = parsedVersion === 0 && flags <= 1 ? parsedText : '';
  return new IdentityContext(
    ctx,
    words[0]!,
    words[1]!,
    words[2]!,
    words[3]!,
    words[4]!,
    words[5]!,
    (flags & 1) === 1,
    state,
    true,
    header,
  );
}
