// Adds the dev additions to whole HTML documents the app answers: the live-reload client in the head
// and, while there are errors, the overlay in the body. The app's runtime writes every answer as
// `writeHead` then `write`/`end`; for an HTML answer this holds the body back and, when it is a whole
// document, edits it and sends it with the right Content-Length. Every other answer passes through
// byte for byte: a fragment, a form a script swaps in (`g:post`, its 422), JSON, an error text.
// kit.js swaps such a piece as it comes (a failed form must start with `<form>`), so a script tag in
// front of it broke it where the built app works.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

type HeaderArg = OutgoingHttpHeaders | (string | number)[] | undefined;

function headerValue(headers: HeaderArg, name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2)
      if (String(headers[i]).toLowerCase() === name) return String(headers[i + 1]);
    return undefined;
  }
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return String(v);
  return undefined;
}

function withLength(headers: HeaderArg, length: number): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) out[String(headers[i])] = headers[i + 1];
  else if (headers !== undefined) Object.assign(out, headers);
  for (const k of Object.keys(out)) if (k.toLowerCase() === 'content-length') delete out[k];
  out['Content-Length'] = length;
  return out;
}

/** Headers of the answers kit.js swaps into a page: never a whole document. */
const PARTIAL_HEADERS = ['x-kit-fragment-target', 'x-kit-form-replace'];

/**
 * Whether an HTML body is a whole document (what a navigation shows: a doctype or `<html>` first,
 * after white space and comments), not a piece a script puts into a page.
 */
export function isFullDocument(html: string): boolean {
  // A scan, not one regular expression: comments cost one pass however many there are.
  let i = html.charCodeAt(0) === 0xfeff ? 1 : 0;
  const skipSpace = () => {
    while (i < html.length && /\s/.test(html[i])) i++;
  };
  for (skipSpace(); html.startsWith('<!--', i); skipSpace()) {
    const end = html.indexOf('-->', i + 4);
    if (end < 0) return false;
    i = end + 3;
  }
  return /^<(?:!doctype\s+html|html[\s>])/i.test(html.slice(i, i + 16));
}

/** Inserts `head` before `</head>` and `body` before `</body>` (or appends them when absent). */
export function injectInto(html: string, head: string, body: string): string {
  const h = html.search(/<\/head\s*>/i);
  let out = h >= 0 ? html.slice(0, h) + head + html.slice(h) : head + html;
  if (body !== '') {
    const b = out.search(/<\/body\s*>(?![\s\S]*<\/body\s*>)/i);
    out = b >= 0 ? out.slice(0, b) + body + out.slice(b) : out + body;
  }
  return out;
}

export interface Injection {
  head: string;
  /** The overlay (or ''). */
  body(): string;
  /**
   * A whole replacement page for a 5xx answer (`type`: the answer's content type), or undefined to
   * keep the answer (always for a request a script made: it gets the app's own answer).
   */
  faultPage(status: number, type: string): string | undefined;
}

/** Wraps `res` so that an HTML answer gets the injection. */
/** Node's overloaded methods, called with the arguments as given. */
type Loose<R> = (this: ServerResponse, ...args: unknown[]) => R;

export function injectHtml(res: ServerResponse, injection: Injection, head: boolean): void {
  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  const call = <R>(fn: unknown, args: unknown[]): R => (fn as Loose<R>).apply(res, args);
  let status = 200;
  let headers: HeaderArg;
  let headArgs: unknown[] = [];
  /** The body held back, as written: `write` calls, then what `end` was given. */
  let chunks: Buffer[] | undefined;
  let last: Buffer | undefined;
  const restore = () => {
    res.writeHead = writeHead;
    res.write = write;
    res.end = end;
  };
  // Node's overloads cannot be matched one by one; the arguments are passed on as given.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  res.writeHead = function (this: ServerResponse, code: number, ...rest: any[]): ServerResponse {
    status = code;
    headers = rest[rest.length - 1] as HeaderArg;
    headArgs = [code, ...rest];
    const type = headerValue(headers, 'content-type') ?? String(res.getHeader('content-type') ?? '');
    const replace = code >= 500 ? injection.faultPage(code, type) : undefined;
    if (replace !== undefined) {
      restore();
      const h = withLength(headers, Buffer.byteLength(replace));
      h['Content-Type'] = 'text/html; charset=utf-8';
      for (const k of Object.keys(h)) if (k.toLowerCase() === 'content-type' && k !== 'Content-Type') delete h[k];
      call(writeHead, [code, h]);
      res.end = function (this: ServerResponse) {
        return call<ServerResponse>(end, [head ? undefined : replace]);
      } as typeof res.end;
      res.write = () => true;
      return res;
    }
    const partial = PARTIAL_HEADERS.some((h) => headerValue(headers, h) !== undefined);
    if (!type.startsWith('text/html') || head || partial) {
      restore();
      return call<ServerResponse>(writeHead, [code, ...rest]);
    }
    chunks = [];
    return res;
  } as typeof res.writeHead;
  // biome-ignore lint/suspicious/noExplicitAny: Node's write/end overloads, passed through
  res.write = function (this: ServerResponse, chunk: any, ...rest: any[]): boolean {
    if (chunks === undefined) return call<boolean>(write, [chunk, ...rest]);
    if (chunk !== undefined && chunk !== null) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    const cb = rest[rest.length - 1];
    if (typeof cb === 'function') cb();
    return true;
  } as typeof res.write;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  res.end = function (this: ServerResponse, chunk?: any, ...rest: any[]): ServerResponse {
    if (chunks === undefined) {
      restore();
      return call<ServerResponse>(end, [chunk, ...rest]);
    }
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function')
      last = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    restore();
    const text = Buffer.concat(last === undefined ? chunks : [...chunks, last]).toString('utf8');
    if (!isFullDocument(text)) {
      // Replayed as the app wrote it: the same head, the same framing (length or chunks).
      call(writeHead, headArgs);
      for (const c of chunks) call(write, [c]);
      return call<ServerResponse>(end, [last]);
    }
    const html = injectInto(text, injection.head, injection.body());
    call(writeHead, [status, withLength(headers, Buffer.byteLength(html))]);
    return call<ServerResponse>(end, [html]);
  } as typeof res.end;
}
