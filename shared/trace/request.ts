// Helpers for servers that trace their requests (used by generated apps; usable by any node:http server).
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  AttrEndpointKind,
  AttrEndpointSymbol,
  AttrGuard,
  AttrHTTPRequestMethod,
  AttrHTTPResponseStatusCode,
  AttrHTTPRoute,
  AttrPage,
  AttrRender,
  AttrServerAddress,
  AttrURLPath,
  LaneRoute,
  SurfaceBackend,
  type Lane,
} from './constants.js';
import { background, type Context, type StartResult } from './context.js';
import { withAttributes, withLane, withSource, withSurface } from './options.js';
import { extract } from './propagation.js';
import type { Tracer } from './tracer.js';
import type { SourceLocation } from './types.js';

/** What the caller knows about the matched route. Every field is optional. */
export interface RouteInfo {
  /** The declared route pattern, e.g. `/blog/{slug}` (becomes `http.route` and the span name). */
  route?: string;
  lane?: Lane;
  page?: string;
  endpointKind?: string;
  /** The endpoint's declared symbol (`Send`, a fragment's name). */
  symbol?: string;
  render?: string;
  guard?: string;
  source?: SourceLocation;
  /** Span name; default `<METHOD> <route or path>`. */
  name?: string;
}

function hostName(host: string | undefined): string {
  if (host === undefined) return '';
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']') > 0 ? host.indexOf(']') : undefined);
  const colon = host.indexOf(':');
  return colon >= 0 ? host.slice(0, colon) : host;
}

/**
 * Starts the server span of a request: the parent comes from the request's `traceparent`, the attributes
 * are the method, the path (never the query string), the route, and the host. When `res` is given the
 * span ends when the response finishes or the connection closes first (an error: the client went away).
 * The status follows OpenTelemetry's HTTP server conventions: 5xx is an error (an error status set
 * earlier, by `recordException` say, keeps its message), 4xx is left unset (the client's mistake, not
 * the server's; the status code attribute tells), anything else is ok.
 */
export function traceRequest(
  tracer: Tracer,
  req: IncomingMessage,
  info: RouteInfo = {},
  res?: ServerResponse,
  ctx: Context = background(),
): StartResult {
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q >= 0 ? url.slice(0, q) : url;
  const attrs: Record<string, unknown> = {
    [AttrHTTPRequestMethod]: method,
    [AttrURLPath]: path,
  };
  if (info.route !== undefined) attrs[AttrHTTPRoute] = info.route;
  const host = hostName(req.headers.host);
  if (host !== '') attrs[AttrServerAddress] = host;
  if (info.page !== undefined) attrs[AttrPage] = info.page;
  if (info.endpointKind !== undefined) attrs[AttrEndpointKind] = info.endpointKind;
  if (info.symbol !== undefined) attrs[AttrEndpointSymbol] = info.symbol;
  if (info.render !== undefined) attrs[AttrRender] = info.render;
  if (info.guard !== undefined) attrs[AttrGuard] = info.guard;
  const name = info.name ?? `${method} ${info.route ?? path}`;
  const parent = extract(ctx, req.headers);
  const result =
    info.source !== undefined
      ? tracer.start(
          parent,
          name,
          withSurface(SurfaceBackend),
          withLane(info.lane ?? LaneRoute),
          withAttributes(attrs),
          withSource(info.source),
        )
      : tracer.start(
          parent,
          name,
          withSurface(SurfaceBackend),
          withLane(info.lane ?? LaneRoute),
          withAttributes(attrs),
        );
  const span = result[1];
  if (res !== undefined && span.isRecording()) {
    const onFinish = (): void => {
      res.removeListener('close', onClose);
      const code = res.statusCode;
      span.set(AttrHTTPResponseStatusCode, code);
      if (code >= 500) {
        if (span.statusCode() !== 'error') span.setStatus('error', `HTTP ${code}`);
      } else if (code < 400 && span.statusCode() === 'unset') span.setStatus('ok');
      span.end();
    };
    const onClose = (): void => {
      res.removeListener('finish', onFinish);
      span.set(AttrHTTPResponseStatusCode, res.statusCode);
      span.setStatus('error', 'connection closed before the response was sent');
      span.end();
    };
    res.once('finish', onFinish);
    res.once('close', onClose);
  }
  return result;
}

export { isLoopbackRequest, isLoopbackAddress, requestScheme } from './http-origin.js';
