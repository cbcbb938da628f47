// Request-path safety. The server calls this on the RAW request target (Node's `req.url`) before
// anything else parses it, so a path is judged exactly once, on the bytes the client sent:
//   - reject before decoding (400): not origin-form, control characters, white space, non-ASCII,
//     backslashes, malformed percent-encoding;
//   - decode each segment once (decodeURIComponent: invalid or overlong UTF-8 such as `%c0%ae`
//     → 400; `%252e` stays the literal text `%2e`, it is never decoded twice);
//   - reject decoded segments that are empty, dot-like (`.`, `..`, or only dots and spaces, which
//     Windows file systems shorten to `.`/`..`) or that hide a separator (`%2f`, `%5c`) → 404,
//     and decoded control characters → 400.
// Empty segments answer 404, not 400, as the spec's HTTP status table lists them with dot segments.
// An accepted `path` has no empty, `.` or `..` segment, no backslash and no NUL, so it can be
// joined under a directory as is. A single trailing slash is reported, not rejected: whether it
// redirects (GET/HEAD) or falls through (POST) is the server's decision.

/**
 * The origin-form of an absolute-form request target (`http://host:8080/a?b` → `/a?b`, `http://host`
 * → `/`), which RFC 9112 (3.2.2) requires servers to accept; any other target is returned as it is,
 * for `checkRequestTarget` to judge.
 */
export function toOriginForm(target: string): string {
  if (target.charCodeAt(0) === 47 /* / */) return target;
  const m = /^https?:\/\/[^/?#\\\s]*/i.exec(target);
  if (m === null) return target;
  const rest = target.slice(m[0].length);
  return rest.charCodeAt(0) === 47 ? rest : '/' + rest;
}

export type RequestPathResult =
  | {
      ok: true;
      /** Decoded, `/`-joined, without a trailing slash except for `/` itself. */
      path: string;
      /** Decoded segments; `[]` for `/`. */
      segments: string[];
      /** The path part of the target as received (still percent-encoded). */
      rawPath: string;
      /** The query including its leading `?`, or `''`; a `#fragment` is dropped. */
      query: string;
      trailingSlash: boolean;
    }
  | { ok: false; status: 400 | 404; reason: string };

type Rejection = { ok: false; status: 400 | 404; reason: string };

// Shared, frozen answers: a rejection costs no allocation.
const reject = (status: 400 | 404, reason: string): Rejection => Object.freeze({ ok: false, status, reason });

const NOT_ORIGIN_FORM = reject(400, 'request target must be an absolute path starting with /');
const RAW_CONTROL = reject(400, 'request target contains control characters or white space');
const RAW_NON_ASCII = reject(400, 'request target contains non-ASCII characters; they must be percent-encoded');
const RAW_BACKSLASH = reject(400, 'request path contains a backslash');
const BAD_PERCENT = reject(400, 'request path contains malformed percent-encoding');
const BAD_UTF8 = reject(400, 'request path does not decode to valid UTF-8');
const DECODED_CONTROL = reject(400, 'request path contains an encoded control character');
const EMPTY_SEGMENT = reject(404, 'request path contains an empty segment');
const DOT_SEGMENT = reject(404, 'request path contains a dot segment');
const ENCODED_SEPARATOR = reject(404, 'request path contains an encoded path separator');

// Character classes of the raw target, one table lookup per character on the hot path.
const OK = 0,
  BAD = 1,
  PERCENT = 2,
  SLASH = 3,
  QUERY = 4,
  HASH = 5,
  BACKSLASH = 6;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) CLASS[c] = c <= 0x20 || c === 0x7f ? BAD : OK;
CLASS[0x25] = PERCENT;
CLASS[0x2f] = SLASH;
CLASS[0x3f] = QUERY;
CLASS[0x23] = HASH;
CLASS[0x5c] = BACKSLASH;

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function scanQuery(query: string): Rejection | undefined {
  // The query is passed on verbatim (a trailing-slash redirect copies it into Location), so it
  // must not carry line breaks or other raw control characters either.
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return RAW_CONTROL;
    if (c > 0x7e) return RAW_NON_ASCII;
  }
  return undefined;
}

function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/** `.`, `..`, and anything made only of dots and spaces (`...`, `.. `), which Windows reads as `.`/`..`. */
export function isDotLikeSegment(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 46 && c !== 32) return false;
  }
  return true;
}

/** Splits a raw request path into its segments without decoding (`/` → `[]`). */
export function splitPath(path: string): string[] {
  if (path === '/' || path === '') return [];
  return (path.charCodeAt(0) === 47 ? path.slice(1) : path).split('/');
}

export function checkRequestTarget(rawTarget: string): RequestPathResult {
  if (typeof rawTarget !== 'string' || rawTarget.charCodeAt(0) !== 47 /* / */) return NOT_ORIGIN_FORM;
  // One pass over the path: validate every character, cut segments at '/', stop at '?' or '#'.
  const n = rawTarget.length;
  const segments: string[] = [];
  let segStart = 1;
  let segPercent = false;
  let anyPercent = false;
  let end = n;
  for (let i = 1; i <= n; i++) {
    let cls = SLASH; // the end of the target closes the last segment
    if (i < n) {
      const c = rawTarget.charCodeAt(i);
      if (c >= 0x80) return RAW_NON_ASCII;
      cls = CLASS[c];
      if (cls === OK) continue;
      if (cls === BAD) return RAW_CONTROL;
      if (cls === BACKSLASH) return RAW_BACKSLASH;
      if (cls === PERCENT) {
        if (i + 2 >= n || !isHex(rawTarget.charCodeAt(i + 1)) || !isHex(rawTarget.charCodeAt(i + 2)))
          return BAD_PERCENT;
        segPercent = true;
        i += 2;
        continue;
      }
      if (cls !== SLASH) end = i; // '?' or '#'
    }
    const last = cls !== SLASH || i === n;
    if (segStart === i) {
      // Empty segment: fine only as the root or as one trailing slash.
      if (last && (i === 1 || rawTarget.charCodeAt(i - 2) !== 47)) break;
      return EMPTY_SEGMENT;
    }
    let segment = rawTarget.substring(segStart, i);
    if (segPercent) {
      try {
        segment = decodeURIComponent(segment);
      } catch {
        return BAD_UTF8;
      }
      if (hasControl(segment)) return DECODED_CONTROL;
      if (segment.includes('/') || segment.includes('\\')) return ENCODED_SEPARATOR;
      anyPercent = true;
      segPercent = false;
    }
    const first = segment.charCodeAt(0);
    if ((first === 46 || first === 32) && isDotLikeSegment(segment)) return DOT_SEGMENT;
    segments.push(segment);
    segStart = i + 1;
    if (last) break;
  }

  let query = '';
  if (end < n) {
    if (rawTarget.charCodeAt(end) === 63 /* ? */) {
      const h = rawTarget.indexOf('#', end);
      query = h < 0 ? rawTarget.substring(end) : rawTarget.substring(end, h);
      const bad = scanQuery(query);
      if (bad) return bad;
    }
  }
  const rawPath = end === n ? rawTarget : rawTarget.substring(0, end);
  const trailingSlash = end > 1 && rawTarget.charCodeAt(end - 1) === 47;
  let path: string;
  if (segments.length === 0) path = '/';
  else if (!anyPercent) path = trailingSlash ? rawPath.substring(0, end - 1) : rawPath;
  else path = '/' + segments.join('/');
  return { ok: true, path, segments, rawPath, query, trailingSlash };
}
