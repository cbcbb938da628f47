// HTTP routes of the collector: JSON list, server-sent events, browser-span ingest and the viewer page.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CollectorView as Collector } from './collector-view.js';
import { isLoopbackHost, isSameOriginRequest } from './http-origin.js';
import { parseBrowserSnapshot, SnapshotError } from './snapshot.js';
import type { SpanSnapshot } from './types.js';
import { viewerPage } from './viewer-html.js';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface HandlerOptions {
  /** Mount path such as `/_kit/traces`; requests may arrive with it or with it already stripped. */
  prefix?: string;
  /**
   * Answer requests whatever their `Host` (default false: only loopback host names, 421 otherwise,
   * so that a page whose name was rebound to 127.0.0.1 cannot read or feed the collector).
   */
  anyHost?: boolean;
  /** The browser trace bridge's script, served at `GET /bridge.js` (traced apps). */
  bridge?: string;
}

export const DEFAULT_MOUNT = '/_kit/traces';

function normalizePrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '/') return '';
  if (typeof prefix !== 'string' || !prefix.startsWith('/'))
    throw new TypeError('collector handler: options.prefix must be a path starting with "/"');
  return prefix.replace(/\/+$/, '');
}

/** The request path below the mount: '' for exactly the prefix, otherwise starting with '/'. */
function localPath(req: IncomingMessage, prefix: string): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  let path = q >= 0 ? url.slice(0, q) : url;
  if (prefix !== '' && (path === prefix || path.startsWith(prefix + '/'))) path = path.slice(prefix.length);
  return path;
}

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

function sendJSON(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { ...JSON_HEADERS, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res: ServerResponse, status: number, message: string): void {
  sendJSON(res, status, JSON.stringify({ error: message }));
}

function wantsEventStream(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  return typeof accept === 'string' && accept.toLowerCase().includes('text/event-stream');
}

function methodNotAllowed(res: ServerResponse): void {
  res.setHeader('Allow', 'GET, HEAD, POST');
  sendError(res, 405, 'method not allowed');
}

function serveList(collector: Collector, res: ServerResponse): void {
  sendJSON(res, 200, collector.listJSON());
}

function serveStats(collector: Collector, res: ServerResponse): void {
  sendJSON(res, 200, JSON.stringify(collector.health()));
}

function serveRoutes(collector: Collector, res: ServerResponse): void {
  sendJSON(res, 200, JSON.stringify(collector.routes()));
}

function serveScript(res: ServerResponse, script: string): void {
  res.writeHead(200, {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Content-Length': Buffer.byteLength(script),
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(script);
}

function serveEvents(collector: Collector, req: IncomingMessage, res: ServerResponse): void {
  if (collector.subscriberCount >= collector.sseLimit) {
    sendError(res, 429, `too many trace event subscribers (limit ${collector.sseLimit})`);
    return;
  }
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  req.socket.setNoDelay(true);
  res.write('retry: 3000\n\n');
  // What is stored, then what arrives, each sent as the connection takes it (`subscribers.ts`).
  collector._subscribe(res);
}

function serveViewer(res: ServerResponse, base: string, sourceRoot: string): void {
  const nonce = randomBytes(16).toString('base64');
  const body = viewerPage(base, nonce, sourceRoot);
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    // Span data is rendered as text; the policy is a second wall: only the page's own nonce'd script runs.
    'Content-Security-Policy':
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
      `img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  });
  res.end(body);
}

function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const type = value.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function ingest(collector: Collector, req: IncomingMessage, res: ServerResponse): void {
  const max = collector.maxIngestBytes;
  const declared = req.headers['content-length'];
  const declaredSize = declared === undefined ? NaN : Number(declared);
  let finished = false;
  const reject = (status: number, message: string, closeConnection: boolean): void => {
    finished = true;
    collector._reject();
    if (closeConnection) {
      // Do not keep an oversized or unbounded body's connection: answer, discard what is still arriving
      // (closing on unread data would reset the connection before the client reads the answer), and cut the
      // connection if the client keeps sending.
      res.setHeader('Connection', 'close');
      const timer = setTimeout(() => req.destroy(), 2000);
      timer.unref();
      req.once('end', () => clearTimeout(timer));
      req.once('close', () => clearTimeout(timer));
    }
    req.resume();
    sendError(res, status, message);
  };
  const bodyIsSmall = declaredSize <= max;
  if (!isSameOriginRequest(req)) return reject(403, 'span ingest needs a same-origin Origin header', !bodyIsSmall);
  if (!isJsonContentType(req.headers['content-type']))
    return reject(415, 'Content-Type must be application/json', !bodyIsSmall);
  if (!collector._rate.allow(req.socket.remoteAddress ?? '')) {
    res.setHeader('Retry-After', String(Math.ceil(collector._rate.windowMs / 1000)));
    return reject(429, 'span ingest rate limit exceeded', !bodyIsSmall);
  }
  if (declaredSize > max) return reject(413, `request body exceeds ${max} bytes`, true);

  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > max) return reject(413, `request body exceeds ${max} bytes`, true);
    chunks.push(chunk);
  });
  req.on('error', () => {
    finished = true;
  });
  req.on('end', () => {
    if (finished) return;
    finished = true;
    let parsed: unknown;
    try {
      parsed = JSON.parse(utf8.decode(Buffer.concat(chunks, size)));
    } catch (err) {
      collector._reject();
      return sendError(
        res,
        400,
        err instanceof TypeError ? 'request body is not valid UTF-8' : 'request body is not valid JSON',
      );
    }
    let items: unknown[];
    let label: (i: number) => string;
    if (Array.isArray(parsed)) {
      if (parsed.length === 0) {
        collector._reject();
        return sendError(res, 400, 'spans: batch is empty');
      }
      if (parsed.length > collector.maxIngestSpans) {
        collector._reject();
        return sendError(
          res,
          413,
          `spans: batch of ${parsed.length} spans exceeds the limit of ${collector.maxIngestSpans}`,
        );
      }
      items = parsed;
      label = (i) => `spans[${i}]`;
    } else {
      items = [parsed];
      label = () => 'span';
    }
    let snaps: SpanSnapshot[];
    try {
      snaps = items.map((item, i) => parseBrowserSnapshot(item, label(i)));
    } catch (err) {
      collector._reject();
      // Anything but a validation error is a bug here; answer without details rather than crash the server.
      return err instanceof SnapshotError ? sendError(res, 400, err.message) : sendError(res, 500, 'internal error');
    }
    collector.record(snaps);
    res.writeHead(204, { 'Cache-Control': 'no-store' });
    res.end();
  });
}

type Route = (collector: Collector, req: IncomingMessage, res: ServerResponse, base: string) => void;

function listener(
  collector: Collector,
  options: HandlerOptions,
  routes: Record<string, { get?: Route; post?: Route }>,
): RequestListener {
  const prefix = normalizePrefix(options.prefix);
  const anyHost = options.anyHost === true;
  return (req, res) => {
    try {
      if (!anyHost && !isLoopbackHost(req.headers.host)) {
        req.resume();
        return sendError(res, 421, 'misdirected request: the trace collector answers loopback host names only');
      }
      dispatch(req, res);
    } catch {
      // A bug must not take the host server down with it; the client gets a generic answer.
      if (!res.headersSent) sendError(res, 500, 'internal error');
      else res.destroy();
    }
  };
  function dispatch(req: IncomingMessage, res: ServerResponse): void {
    const path = localPath(req, prefix);
    const method = req.method ?? 'GET';
    const route = routes[path];
    if (method === 'GET' || method === 'HEAD') {
      if (path === '' && prefix !== '' && routes['/']?.get === serveViewerRoute) {
        // Relative links in the page resolve against a trailing slash.
        const url = req.url ?? '';
        res.writeHead(308, {
          Location: prefix + '/' + (url.includes('?') ? url.slice(url.indexOf('?')) : ''),
          'Cache-Control': 'no-store',
        });
        res.end();
        return;
      }
      if (wantsEventStream(req) && route !== undefined) return serveEvents(collector, req, res);
      if (route?.get !== undefined) return route.get(collector, req, res, prefix);
    } else if (method === 'POST') {
      if (route?.post !== undefined) return route.post(collector, req, res, prefix);
      if (route !== undefined) return methodNotAllowed(res);
    } else if (route !== undefined) {
      return methodNotAllowed(res);
    }
    sendError(res, 404, 'not found');
  }
}

const listRoute: Route = (c, _req, res) => serveList(c, res);
const statsRoute: Route = (c, _req, res) => serveStats(c, res);
const routesRoute: Route = (c, _req, res) => serveRoutes(c, res);
const eventsRoute: Route = (c, req, res) => serveEvents(c, req, res);
const ingestRoute: Route = (c, req, res) => ingest(c, req, res);
const serveViewerRoute: Route = (c, _req, res, base) => serveViewer(res, base, c.sourceRoot);

function bridgeRoutes(options: HandlerOptions): Record<string, { get: Route }> {
  const script = options.bridge;
  if (script === undefined) return {};
  if (typeof script !== 'string') throw new TypeError('collector handler: options.bridge must be the script text');
  return { '/bridge.js': { get: (_c, _req, res) => serveScript(res, script) } };
}

export function createCollectorHandler(collector: Collector, options: HandlerOptions): RequestListener {
  const root = { get: listRoute, post: ingestRoute };
  return listener(collector, options, {
    ...bridgeRoutes(options),
    '': root,
    '/': root,
    '/data': { get: listRoute },
    '/events': { get: eventsRoute },
    '/stats': { get: statsRoute },
    '/api/routes': { get: routesRoute },
    '/viewer': { get: serveViewerRoute },
    '/viewer/': { get: serveViewerRoute },
    '/browser': { post: ingestRoute },
  });
}

export function createViewerHandler(collector: Collector, options: HandlerOptions): RequestListener {
  return listener(collector, options, {
    '': { get: serveViewerRoute },
    '/': { get: serveViewerRoute },
    '/data': { get: listRoute },
    '/events': { get: eventsRoute },
    '/stats': { get: statsRoute },
    '/api/routes': { get: routesRoute },
    '/browser': { post: ingestRoute },
  });
}
