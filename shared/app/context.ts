// The request context handed to guards, loads and handlers as `ctx`. It is a kit trace context (so
// `tracer.start(ctx, ...)` makes child spans of the request span) that also carries the request's
// route metadata, raw and typed params and endpoint metadata, read with `app.route(ctx)` & co.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { background, requestScheme, withValue, type Context } from '../trace/index.js';
import type { EndpointKind, RenderMode } from './manifest.js';

/** What `app.route(ctx)` answers: metadata of the matched page route or endpoint route. */
export interface RouteInfo {
  readonly kind: 'page' | EndpointKind;
  readonly pageId: string;
  readonly method: string;
  /** The route as declared. */
  readonly path: string;
  readonly render?: RenderMode;
  readonly cache?: string;
  readonly guards: readonly string[];
  readonly layouts: readonly string[];
  /** Param names, sorted. */
  readonly dynamicParams: readonly string[];
  readonly routeParams: readonly { readonly name: string; readonly type: string }[];
  readonly hasLoad: boolean;
}

/** What `app.endpoint(ctx)` answers for actions, APIs, fragments and contracts. */
export interface EndpointInfo {
  readonly kind: EndpointKind;
  readonly pageId: string;
  readonly name: string;
  readonly method: string;
  readonly path: string;
}

/**
 * The request came over HTTPS: TLS here, or a proxy saying so (`X-Forwarded-Proto`, then
 * `Forwarded: proto=`). The one decision of the scheme is shared/trace's `requestScheme`.
 */
export function isSecureRequest(req: IncomingMessage): boolean {
  return requestScheme(req) === 'https';
}

const HOST = /^[A-Za-z0-9.:[\]-]+$/;

/**
 * Per-request state behind `ctx`. The absolute URL and the abort signal are made on first use:
 * most requests never ask for them.
 */
export class RequestState {
  typedParams: Readonly<Record<string, unknown>> = {};
  request?: Request;
  private urlText: string | undefined;
  private controller: AbortController | undefined;
  private abortReason: Error | undefined;

  constructor(
    readonly route: RouteInfo,
    readonly endpoint: EndpointInfo | undefined,
    readonly params: Readonly<Record<string, string>>,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
  ) {}

  /** Absolute URL of the request (scheme and host from the request). */
  get url(): string {
    if (this.urlText === undefined) {
      const h = this.req.headers.host;
      const host = typeof h === 'string' && HOST.test(h) ? h : 'localhost';
      this.urlText = `${requestScheme(this.req)}://${host}${this.req.url ?? '/'}`;
    }
    return this.urlText;
  }

  /** Aborted when the client goes away or the request deadline passes. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = (this.controller = new AbortController());
      if (this.abortReason) controller.abort(this.abortReason);
      else if (this.res.closed && !this.res.writableFinished)
        controller.abort(new Error('client closed the connection'));
      else {
        this.res.once('close', () => {
          if (!this.res.writableFinished) controller.abort(new Error('client closed the connection'));
        });
      }
    }
    return this.controller.signal;
  }

  abort(reason: Error): void {
    this.abortReason ??= reason;
    this.controller?.abort(reason);
  }
}

const STATE = Symbol('kit.app.request');

export function requestContext(state: RequestState, parent: Context = background()): Context {
  return withValue(parent, STATE, state);
}

function state(ctx: unknown, accessor: string): RequestState {
  const s =
    ctx !== null && typeof ctx === 'object' && typeof (ctx as Context).value === 'function'
      ? (ctx as Context).value(STATE)
      : undefined;
  if (s === undefined)
    throw new TypeError(
      `app.${accessor}(ctx): ctx is not a kit request context (pass the ctx your handler, load or guard received)`,
    );
  return s as RequestState;
}

function headersOf(req: IncomingMessage): Headers {
  const h = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      h.append(raw[i], raw[i + 1]);
    } catch {
      // Node already rejected invalid header names/values; anything else is skipped rather than fatal.
    }
  }
  return h;
}

/** A body-less WHATWG Request describing the incoming request (method, URL, headers). */
export function describeRequest(s: RequestState): Request {
  return (s.request ??= new Request(s.url, {
    method: s.req.method === 'HEAD' ? 'HEAD' : s.req.method === 'GET' ? 'GET' : s.req.method,
    headers: headersOf(s.req),
    signal: s.signal,
  }));
}

/** Request-time helpers for user code (typescript.md "User code and binding"). */
export const app = Object.freeze({
  /** Route metadata: kind, page ID, method, declared path, render mode, cache, guards, layouts, params. */
  route(ctx: unknown): RouteInfo {
    return state(ctx, 'route').route;
  },
  /** Raw (decoded, untyped) route params by name; `P` names them (the page's generated `Params`). */
  params<P extends Record<string, string> = Record<string, string>>(ctx: unknown): Readonly<P> {
    return state(ctx, 'params').params as P;
  },
  /** Typed route params decoded by their declared types (`{id:int}` → number); `P` as the page declares them. */
  typedParams<P extends object = Record<string, unknown>>(ctx: unknown): Readonly<P> {
    return state(ctx, 'typedParams').typedParams as P;
  },
  /** Endpoint metadata for actions, APIs, fragments and contracts; undefined on pages. */
  endpoint(ctx: unknown): EndpointInfo | undefined {
    return state(ctx, 'endpoint').endpoint;
  },
  /** The request's method, URL and headers as a WHATWG Request (without its body). */
  request(ctx: unknown): Request {
    return describeRequest(state(ctx, 'request'));
  },
  /** One cookie of the request, or undefined. */
  cookie(ctx: unknown, name: string): string | undefined {
    const header = state(ctx, 'cookie').req.headers.cookie;
    if (header === undefined) return undefined;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
    }
    return undefined;
  },
  /** Aborted when the client goes away or the request deadline passes. */
  signal(ctx: unknown): AbortSignal {
    return state(ctx, 'signal').signal;
  },
});
