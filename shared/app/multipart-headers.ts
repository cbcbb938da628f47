// The header block of one `multipart/form-data` part, read by the rules the format names: header
// lines as HTTP writes them (RFC 7578 §4.8, obsolete line folding joined), and `Content-Disposition`
// by RFC 6266 (parameters as tokens or quoted strings with backslash escapes, `filename*` in the
// RFC 8187/5987 encoding preferred over `filename`). A parameter is never searched for as text: a
// filename "x; name=title" is a filename, and a quoted string a CRLF cut in two is malformed.

/** What the multipart parser needs of a part. */
export interface PartHeaders {
  name: string;
  /** Present when the part is a file (the `filename` parameter, possibly empty). */
  filename?: string;
  /** The part's `Content-Type`, `application/octet-stream` when it gives none. */
  type: string;
}

/** The part's header block is not what RFC 7578 describes (a 400 `invalid form`). */
export class PartHeaderError extends Error {}

// RFC 7230 token characters: visible ASCII but separators.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;
// RFC 8187 attr-char (what an ext-value holds unencoded).
const ATTR_CHAR = /^[!#$&+\-.^_`|~0-9A-Za-z]$/;

const isToken = (c: string | undefined): boolean => c !== undefined && TOKEN.test(c);
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t';

/**
 * Reads a part's header block (UTF-8, as browsers send it; without the blank line that ends it).
 * Throws `PartHeaderError` for a malformed block and `TypeError` for bytes that are not UTF-8.
 */
export function parsePartHeaders(block: Uint8Array): PartHeaders {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(block);
  let disposition: string | undefined;
  let type: string | undefined;
  const fields: [string, string][] = [];
  for (const line of text.split('\r\n')) {
    // A line starting with a blank continues the one before (obs-fold): joined without the CRLF.
    if (isSpace(line[0]) && fields.length > 0) {
      fields[fields.length - 1][1] += line;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0 || ![...line.slice(0, colon)].every(isToken))
      throw new PartHeaderError(`a part header line is malformed: ${JSON.stringify(line.slice(0, 60))}`);
    fields.push([line.slice(0, colon).toLowerCase(), line.slice(colon + 1)]);
  }
  for (const [key, raw] of fields) {
    const value = raw.replace(/^[ \t]+|[ \t]+$/g, '');
    if (/[\0-\x08\n-\x1f\x7f]/.test(value))
      throw new PartHeaderError(`the part header ${key} holds a control character`);
    // The first of a repeated header counts, as HTTP parsers keep it.
    if (key === 'content-disposition') disposition ??= value;
    else if (key === 'content-type') type ??= value;
  }
  if (disposition === undefined) throw new PartHeaderError('a part has no Content-Disposition: form-data');
  const d = parseDisposition(disposition);
  if (d === undefined) throw new PartHeaderError('a part has a malformed Content-Disposition');
  if (d.type !== 'form-data') throw new PartHeaderError('a part has no Content-Disposition: form-data');
  const name = d.params.get('name');
  if (name === undefined) throw new PartHeaderError('a part has no name');
  const filename = d.params.get('filename*') ?? d.params.get('filename');
  return { name, filename, type: type || 'application/octet-stream' };
}

/**
 * `type *( OWS ";" OWS param )` (RFC 6266): the type in lower case and the parameters by lower-case
 * name (the first of a repeated one counts); undefined when the value breaks the grammar.
 */
export function parseDisposition(value: string): { type: string; params: Map<string, string> } | undefined {
  let i = 0;
  while (isToken(value[i])) i++;
  if (i === 0) return undefined;
  const type = value.slice(0, i).toLowerCase();
  const params = new Map<string, string>();
  for (;;) {
    while (isSpace(value[i])) i++;
    if (i === value.length) return { type, params };
    if (value[i++] !== ';') return undefined;
    while (isSpace(value[i])) i++;
    const nameStart = i;
    while (isToken(value[i])) i++;
    const name = value.slice(nameStart, i).toLowerCase();
    if (name === '' || value[i++] !== '=') return undefined;
    let read: { text: string; end: number } | undefined;
    if (name.endsWith('*')) read = extValue(value, i);
    else if (value[i] === '"') read = quoted(value, i);
    else {
      const start = i;
      while (isToken(value[i])) i++;
      read = i > start ? { text: value.slice(start, i), end: i } : undefined;
    }
    if (read === undefined) return undefined;
    i = read.end;
    if (!params.has(name)) params.set(name, read.text);
  }
}

/**
 * A quoted-string from the `"` at `at`; it must close on its line. `\"` and `\\` are escapes; any
 * other backslash is itself, as busboy reads it: browsers do not escape a backslash in a file name
 * (they percent-encode only `"`, CR and LF), so `a\b.txt` stays `a\b.txt`.
 */
function quoted(value: string, at: number): { text: string; end: number } | undefined {
  let text = '';
  for (let i = at + 1; i < value.length; i++) {
    const c = value[i];
    if (c === '"') return { text, end: i + 1 };
    if (c === '\\' && (value[i + 1] === '"' || value[i + 1] === '\\')) text += value[++i];
    else text += c;
  }
  return undefined;
}

/**
 * An RFC 8187 ext-value from `at`: `charset'language'value`, the value percent-encoded bytes in that
 * charset (UTF-8 or ISO-8859-1, or any other label the platform's TextDecoder knows).
 */
function extValue(value: string, at: number): { text: string; end: number } | undefined {
  const m = /^([!#$%&+\-^_`{}~0-9A-Za-z]+)'([A-Za-z0-9-]*)'/.exec(value.slice(at));
  if (m === null) return undefined;
  let i = at + m[0].length;
  const bytes: number[] = [];
  for (; i < value.length; i++) {
    const c = value[i];
    if (c === '%') {
      const hex = value.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (ATTR_CHAR.test(c)) bytes.push(c.charCodeAt(0));
    else break;
  }
  try {
    return { text: new TextDecoder(m[1].toLowerCase(), { fatal: true }).decode(Uint8Array.from(bytes)), end: i };
  } catch {
    return undefined;
  }
}
