// Escaping for the three contexts a value can land in: text, a double-quoted attribute value, and a
// URL attribute value. Values are always escaped; only literal markup written in a `.kit` view is
// emitted as written (normalised by `staticHtml`).
import { encodePathSegment } from '../route/index.js';
import { isUnsafeUrl } from './url-safety.js';

/** What an unsafe URL is replaced with: inert, and visible in the output for debugging. */
export const UNSAFE_URL = 'about:invalid#kit-unsafe-url';

const REPLACEMENTS: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function replacement(c: number): string | undefined {
  switch (c) {
    case 38:
      return '&amp;';
    case 60:
      return '&lt;';
    case 62:
      return '&gt;';
    case 34:
      return '&quot;';
    case 39:
      return '&#39;';
    default:
      return undefined;
  }
}

/** Escapes a value for HTML text and for quoted attribute values (both quote kinds). */
export function escapeHtml(s: string): string {
  // A scan by character code: values are mostly short and clean, and this runs for every value
  // of every request-time render, where a regular expression call costs more than the scan.
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c <= 62 && replacement(c) !== undefined) break;
    i++;
  }
  if (i === n) return s;
  let out = '';
  let from = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 62) continue;
    const r = replacement(c);
    if (r === undefined) continue;
    out += s.slice(from, i) + r;
    from = i + 1;
  }
  return out + s.slice(from);
}

// A character reference as written in source: kept, so `&copy;` and `&#169;` stay what they are.
const STATIC_TEXT = /&(?:#[0-9]+;|#[xX][0-9a-fA-F]+;|[A-Za-z][A-Za-z0-9]*;)|[&<>]/g;
const STATIC_ATTR = /&(?:#[0-9]+;|#[xX][0-9a-fA-F]+;|[A-Za-z][A-Za-z0-9]*;)|[&<>"]/g;

/**
 * Literal markup text from a view, made safe to emit as written: character references stay,
 * a stray `&`, `<` or `>` (and `"` inside attributes) is escaped.
 */
export function staticHtml(s: string, inAttribute: boolean): string {
  // Most text holds none of the characters at stake: returned as it is, without a regular expression.
  let i = 0;
  const n = s.length;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 38 || c === 60 || c === 62 || (c === 34 && inAttribute)) break;
  }
  if (i === n) return s;
  return s.replace(inAttribute ? STATIC_ATTR : STATIC_TEXT, (m) => (m.length > 1 ? m : REPLACEMENTS[m]));
}

/**
 * Percent-encodes a route param interpolated into a URL. Before any `?` or `#` of the URL, each
 * `/`-separated part is encoded as a path segment (so a rest-param value keeps its slashes but cannot
 * add a query or fragment); in the query or fragment the whole value is one component. Route params
 * come from a request path kit accepted (or a checked `paths {}` record): they hold no dot segment.
 */
export function encodeUrlValue(value: string, inQuery: boolean): string {
  if (inQuery) return encodeComponent(value);
  let out = '';
  let from = 0;
  for (;;) {
    const slash = value.indexOf('/', from);
    const part = value.slice(from, slash < 0 ? value.length : slash);
    out += encodePathSegment(part) ?? encodeComponent(part);
    if (slash < 0) return out;
    out += '/';
    from = slash + 1;
  }
}

/**
 * Percent-encodes any other value interpolated into a URL. In the path it is one segment: `/` is
 * `%2F`, so data can neither add segments nor climb out of the one it sits in; a value that is `.`
 * or `..` becomes `%252E` / `%252E%252E` (browsers treat `%2E` as a dot, so a plain encoding would
 * still climb). In the query or fragment it is one component.
 */
export function encodeUrlData(value: string, inQuery: boolean): string {
  if (inQuery) return encodeComponent(value);
  if (value === '.' || value === '..') return value.replace(/\./g, '%252E');
  return encodePathSegment(value) ?? encodeComponent(value);
}

/**
 * A value written `{x...}` in a URL: in the path, each `/`-separated part is one segment (so a
 * data path like `guides/routing` keeps its slashes), and a part that is `.` or `..` is made inert
 * as in `encodeUrlData`: the value can add segments but never climb out of the literal prefix. In
 * the query or fragment it is one component.
 */
export function encodeUrlSegments(value: string, inQuery: boolean): string {
  if (inQuery) return encodeComponent(value);
  let out = '';
  let from = 0;
  for (;;) {
    const slash = value.indexOf('/', from);
    out += encodeUrlData(value.slice(from, slash < 0 ? value.length : slash), false);
    if (slash < 0) return out;
    out += '/';
    from = slash + 1;
  }
}

function encodeComponent(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    // Lone surrogates cannot be encoded; drop them rather than fail the page.
    return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''));
  }
}

/** The URL if it is safe to emit in a URL attribute, else `UNSAFE_URL`. */
export function safeUrl(url: string): string {
  return isUnsafeUrl(url) ? UNSAFE_URL : url;
}

/** `srcset` holds several URLs: each candidate is checked. */
export function safeSrcset(srcset: string): string {
  for (const candidate of srcset.split(',')) {
    if (isUnsafeUrl(candidate.trim())) return UNSAFE_URL;
  }
  return srcset;
}
