// Response helpers for handlers (typescript.md: "the runtime offers helpers for redirects and JSON"),
// the `html` tag (its escaping lives in safe-html.ts), and the one function that writes a WHATWG
// Response to a Node response. Every helper returns a plain `Response`, so handlers may equally
// build their own.
import type { ServerResponse } from 'node:http';
import { NO_STORE } from './errors.js';
import { htmlTemplate, isTemplateStrings, SafeHtml } from './safe-html.js';

export const FRAGMENT_TARGET = 'X-Kit-Fragment-Target';
export const FRAGMENT_SWAP = 'X-Kit-Fragment-Swap';
export const RELOAD = 'X-Kit-Reload';

/**
 * A local path: starts with one `/` (not `//` or `/\`) and holds no control characters or
 * backslashes. Everything else could leave the site.
 */
export function isLocalPath(url: string): boolean {
  if (typeof url !== 'string' || url.length === 0 || url.charCodeAt(0) !== 47) return false;
  if (url.length > 1 && (url[1] === '/' || url[1] === '\\')) return false;
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 92) return false;
  }
  return true;
}

/** 303 See Other to a local path (POST/redirect/GET). A non-local URL throws: the runtime answers 500. */
export function redirect(url: string, status: 301 | 302 | 303 | 307 | 308 = 303): Response {
  if (!isLocalPath(url)) throw new TypeError('redirect: the location must be a local path starting with a single "/"');
  return new Response(null, { status, headers: { Location: url } });
}

function withType(init: ResponseInit | undefined, type: string): ResponseInit {
  const headers = new Headers(init?.headers);
  if (!headers.has('content-type')) headers.set('content-type', type);
  return { ...init, headers };
}

/**
 * An HTML answer (`text/html; charset=utf-8`) with a status or headers of your choice. Pass what
 * the `html` tag built; a string is sent as written, so it must not hold anything a user wrote.
 */
export function htmlResponse(body: SafeHtml | string, init?: ResponseInit): Response {
  return new Response(String(body), withType(init, 'text/html; charset=utf-8'));
}

/**
 * The `html` tag: builds `SafeHtml`, every interpolated value escaped (see `htmlTemplate`). A
 * handler may return it as is (200, `text/html`), or answer with `htmlResponse(body, init)`.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml;
/**
 * @deprecated Called as a function, `html(body, init)` answers with `body` as written, as it did
 * before `html` became a tag. Use `htmlResponse(body, init)`: the same answer, under a name that
 * cannot be mistaken for the escaping tag.
 */
export function html(body: string, init?: ResponseInit): Response;
export function html(first: TemplateStringsArray | string, ...rest: unknown[]): SafeHtml | Response {
  if (isTemplateStrings(first)) return htmlTemplate(first, rest);
  return htmlResponse(first, rest[0] as ResponseInit | undefined);
}

/** A JSON answer (`application/json; charset=utf-8`). */
export function json(value: unknown, init?: ResponseInit): Response {
  return new Response(JSON.stringify(value), withType(init, 'application/json; charset=utf-8'));
}

/** An HTML fragment for a partial form: the client swaps it into `target` (`#id`) with `swap`. */
export function fragment(
  target: string,
  body: SafeHtml | string,
  swap: 'innerHTML' | 'outerHTML' = 'innerHTML',
): Response {
  if (!/^#[A-Za-z][A-Za-z0-9_:.-]*$/.test(target)) throw new TypeError('fragment: target must be a literal #id');
  return new Response(String(body), {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', [FRAGMENT_TARGET]: target, [FRAGMENT_SWAP]: swap },
  });
}

/** 204 with `X-Kit-Reload: 1`: the client reloads the page. */
export function reload(): Response {
  return new Response(null, { status: 204, headers: { [RELOAD]: '1' } });
}

/** A handler returned something no answer can be made of (a function, a symbol, a bigint). */
export class InvalidResultError extends TypeError {
  constructor(readonly kind: string) {
    super(`handler returned ${kind}, expected a Response (or a string, a JSON value, null or undefined)`);
    this.name = 'InvalidResultError';
  }
}

/** The JSON text of a handler's result, or `InvalidResultError` for what JSON cannot encode. */
function encodeResult(value: unknown): string {
  const type = typeof value;
  if (type === 'function' || type === 'symbol' || type === 'bigint') throw new InvalidResultError(`a ${type}`);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    throw new InvalidResultError(`a value JSON cannot encode (${(e as Error).message})`);
  }
  if (text === undefined) throw new InvalidResultError('a value JSON cannot encode');
  return text;
}

/**
 * Turns what a handler returned into a Response: a Response as is; a string or `SafeHtml` as HTML;
 * `undefined` or `null` as 204; a JSON value as JSON. Anything else throws `InvalidResultError`.
 */
export function toResponse(value: unknown): Response {
  if (value instanceof Response) return value;
  if (value === undefined || value === null) return new Response(null, { status: 204 });
  if (typeof value === 'string' || value instanceof SafeHtml) return htmlResponse(value);
  return new Response(encodeResult(value), { headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** A command's or query's answer: its Response, else its result as JSON (`null` for none). */
export function contractResponse(value: unknown): Response {
  if (value instanceof Response) return value;
  return new Response(encodeResult(value === undefined ? null : value), {
    headers: { 'content-type': 'application/json' },
  });
}

export interface WriteOptions {
  head?: boolean;
  /** Force `Cache-Control: no-store` (every request-time answer). */
  noStore?: boolean;
  extraHeaders?: Record<string, string>;
}

/**
 * How much of one response is handed to the socket at a time. A body chunk is written in slices of
 * this size, each after the previous one drained: a client that reads slowly (or never) holds at most
 * this much in the server's write queue, beside the handler's own data.
 */
export const WRITE_SLICE_BYTES = 64 * 1024;

/** Resolves once `res` can take more data, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Sends a WHATWG Response through a Node response: status, headers (every Set-Cookie) and body. The
 * body is streamed with backpressure; when the response is cut (the client left, a deadline passed)
 * the body stream is cancelled, so a body that never ends does not keep its source alive.
 */
export async function writeResponse(res: ServerResponse, response: Response, opts: WriteOptions = {}): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  if (opts.extraHeaders) for (const [k, v] of Object.entries(opts.extraHeaders)) headers[k.toLowerCase()] ??= v;
  if (opts.noStore) headers['cache-control'] = NO_STORE;
  const body = response.body;
  if (body === null || opts.head || response.status === 204 || response.status === 304) {
    if (body !== null) await body.cancel().catch(() => undefined);
    if (response.status !== 204 && response.status !== 304 && body === null && headers['content-length'] === undefined)
      headers['content-length'] = '0';
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  res.writeHead(response.status, headers);
  const reader = body.getReader();
  const cut = (): void => {
    reader.cancel().catch(() => undefined);
  };
  res.once('close', cut);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      for (let at = 0; at < value.byteLength && !res.destroyed; at += WRITE_SLICE_BYTES) {
        const slice = value.byteLength <= WRITE_SLICE_BYTES ? value : value.subarray(at, at + WRITE_SLICE_BYTES);
        if (!res.write(slice)) await drained(res);
      }
    }
    if (!res.destroyed) res.end();
  } catch {
    // A failing body stream after the headers: cut the connection rather than send a truncated body as complete.
    res.destroy();
  } finally {
    res.off('close', cut);
  }
}
