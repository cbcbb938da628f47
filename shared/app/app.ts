// The request pipeline of a generated app. Dispatch order (docs/architecture.md, "Request runtime"):
//   1. the raw request target is validated before anything parses it (400/404);
//   2. `/_kit/traces[/...]` → trace collector and viewer, loopback only (else 404), when tracing is on;
//   3. `GET|HEAD /_kit/health`;
//   4. GET/HEAD with a trailing slash → 308 to the path without it, query kept;
//   5. CORS preflights of APIs; then the endpoint router (actions, APIs, fragments, contracts) by
//      exact method — query contracts only for requests that ask for JSON (`endpoints.ts`);
//   6. any other method → 405 with `Allow` (404 when nothing lives at the path);
//   7. pages (`pages.ts`): a concrete page route, else a built file (the page owning it decides:
//      guards, CSRF, cache), else a dynamic page route, else 404 — or 405 when endpoints live there.
// Whether a request is a HEAD is decided here, once: its `Reply` sends the GET's headers alone.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkRequestTarget, toOriginForm } from '../route/index.js';
import { type Collector, isLoopbackRequest, LaneRoute, type Tracer } from '../trace/index.js';
import { DEFAULT_BODY_LIMIT } from './body.js';
import { type CsrfKeys, csrfKeys } from './csrf.js';
import { Deadlines } from './deadlines.js';
import { type UploadLimits, uploadLimits } from './multipart.js';
import { corsPreflight, serveEndpoint } from './endpoints.js';
import { ErrorPages } from './error-pages.js';
import { NO_STORE, sendError } from './errors.js';
import { inFaultScope } from './faults.js';
import { type Guard, guardRegistry } from './guards.js';
import type { AppManifest } from './manifest.js';
import { methodNotAllowed, pageFile, resolvePage, servePageRequest } from './pages.js';
import { PrebuiltAnswers } from './prebuilt.js';
import { Reply } from './reply.js';
import { laneOf, wantsJson } from './request-kind.js';
import { type CompiledRoutes, compileRoutes, type Modules, refreshTemplates } from './routes.js';
import type { AppServices } from './services.js';
import { StaticTable, type StaticEntry, type StaticSource } from './static-files.js';
import { beginTrace, fail, runAsync, tracePrebuilt } from './steps.js';
import { injectBridge } from './trace-bridge.js';

export const TRACE_MOUNT = '/_kit/traces';
export const HEALTH_PATH = '/_kit/health';
export const DEFAULT_REQUEST_TIMEOUT_MS = 25_000;

export interface AppOptions {
  manifest: AppManifest;
  /** The user's handler modules by the source path the route table names them with. */
  modules?: Modules;
  /** The app config module (`kit.config.ts`): its `guards`. */
  config?: unknown;
  static: StaticSource;
  /** `KIT_CSRF_SECRET` (one or more comma-separated secrets of at least 32 bytes). */
  csrfSecret?: string;
  /** Where warnings and handler errors are logged (default: stderr). */
  log?: (line: string) => void;
  tracer?: Tracer;
  collector?: Collector;
  /** Per-request deadline for request-time work (default 25 s). */
  requestTimeoutMs?: number;
  /** Body cap of actions, APIs and commands (default 1 MiB). */
  bodyLimit?: number;
  /**
   * Run each request in a fault scope, so that a fault it leaves behind (an unhandled rejection, a
   * throw in a timer) is logged with the request and marks its span (`faults.ts`). `startServer`
   * turns this on with the process-wide fault policy.
   */
  faultScopes?: boolean;
  /** Told of each thrown value answered with a 5xx before the answer is sent (the dev server's overlay). */
  onFault?: (err: unknown, res: ServerResponse) => void;
}

type Handle = (req: IncomingMessage, res: ServerResponse) => void;

const HTML_TYPE = 'text/html; charset=utf-8';

export class KitApp implements AppServices {
  readonly routes: CompiledRoutes;
  static: StaticTable;
  readonly csrf: CsrfKeys;
  readonly guards: Map<string, Guard>;
  readonly instanceId = randomBytes(8).toString('hex');
  readonly tracer: Tracer | undefined;
  readonly traceBridge: boolean;
  readonly deadlines: Deadlines;
  errorPages: ErrorPages;
  readonly bodyLimit: number;
  readonly uploads: UploadLimits;
  readonly log: (line: string) => void;
  readonly onFault: ((err: unknown, res: ServerResponse) => void) | undefined;
  private readonly collectorHandler: Handle | undefined;
  private notFoundFile: StaticEntry | undefined;
  private readonly healthBody: string;
  /** Whole answers by exact raw request target (see prebuild). */
  private prebuilt: PrebuiltAnswers;
  private readonly faultScopes: boolean;

  constructor(options: AppOptions) {
    const m = options.manifest;
    if (!m || m.version !== 1)
      throw new Error('kit app: unsupported route table version (rebuild the app with this kit)');
    this.log = options.log ?? ((line) => process.stderr.write(line + '\n'));
    this.routes = compileRoutes(m, options.modules ?? {});
    this.traceBridge = options.tracer !== undefined && options.collector !== undefined && m.traceBridge !== undefined;
    this.static = new StaticTable(m.static, options.static, this.traceBridge ? injectBridge : undefined);
    this.csrf = csrfKeys(options.csrfSecret);
    this.guards = guardRegistry(options.config);
    this.tracer = options.tracer;
    this.collectorHandler = options.collector?.handler({ prefix: TRACE_MOUNT, bridge: m.traceBridge });
    this.deadlines = new Deadlines(options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    this.bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
    this.uploads = uploadLimits(options.config);
    this.faultScopes = options.faultScopes === true;
    this.onFault = options.onFault;
    this.errorPages = new ErrorPages(m);
    this.notFoundFile = m.notFound !== undefined ? this.static.get(m.notFound) : undefined;
    this.prebuilt = this.prebuild(m);
    this.healthBody = JSON.stringify({
      status: 'ok',
      app: m.app,
      instance_id: this.instanceId,
      assets: String(this.static.size),
      trace: Boolean(this.tracer),
    });
    for (const w of this.routes.warnings) this.log(`kit: warning: ${w}`);
    const used = new Set<string>();
    for (const p of this.routes.pageList) for (const g of p.entry.guards) used.add(g);
    for (const e of this.routes.endpointList) for (const g of e.entry.guards) used.add(g);
    for (const g of [...used].sort()) {
      if (g !== 'public' && !this.guards.has(g))
        this.log(`kit: warning: guard ${JSON.stringify(g)} is not registered in the app config; its routes answer 403`);
    }
  }

  /**
   * New content for the same routes: `kit dev` after an edit that changed no route, guard,
   * endpoint, binding or built path. Templates are looked up again by their keys (the manifest
   * must have the same pages and endpoints), built files are read from `source` anew.
   */
  replaceContent(m: AppManifest, source: StaticSource): void {
    refreshTemplates(this.routes, m.templates);
    this.static = new StaticTable(m.static, source, this.traceBridge ? injectBridge : undefined);
    this.errorPages = new ErrorPages(m);
    this.notFoundFile = m.notFound !== undefined ? this.static.get(m.notFound) : undefined;
    this.prebuilt = this.prebuild(m);
  }

  /** The Node request listener. */
  readonly handle: Handle = (req, res) => {
    const head = req.method === 'HEAD';
    const url = req.url;
    // An absolute-form target (`GET http://host/path`) is served as its path.
    if (url !== undefined && url.charCodeAt(0) !== 47) req.url = toOriginForm(url);
    try {
      const prebuilt = this.prebuilt;
      if (head || req.method === 'GET') {
        const answer = prebuilt.get(req.url ?? '');
        if (
          answer !== undefined &&
          (this.tracer === undefined ? answer.send(res, head) : tracePrebuilt(this, req, res, answer))
        )
          return;
      }
      const reply = new Reply(res, head);
      if (this.faultScopes)
        inFaultScope({ method: req.method ?? 'GET', target: req.url ?? '' }, () => this.dispatch(req, reply));
      else this.dispatch(req, reply);
    } catch (err) {
      fail(this, new Reply(res, head), err, 'request');
    }
  };

  notFound(reply: Reply): void {
    const file = this.notFoundFile;
    if (reply.errorPage !== undefined) {
      reply.error(404, 'not_found', '404 page not found');
      return;
    }
    if (file === undefined) {
      sendError(reply.res, 404, 'not_found', '404 page not found', { head: reply.head });
      return;
    }
    const body = file.body();
    reply.send(
      404,
      {
        'Content-Type': HTML_TYPE,
        'Content-Length': body.length,
        'Cache-Control': NO_STORE,
        'X-Content-Type-Options': 'nosniff',
        'X-Kit-Error-Code': 'not_found',
      },
      body,
    );
  }

  private dispatch(req: IncomingMessage, reply: Reply): void {
    const res = reply.res;
    const target = checkRequestTarget(req.url ?? '');
    const method = req.method ?? 'GET';
    const getLike = method === 'GET' || reply.head;
    if (!target.ok) {
      beginTrace(this, req, res, undefined, LaneRoute);
      if (target.status === 404) this.notFound(reply);
      else reply.error(400, 'bad_request', '400 bad request');
      return;
    }
    const path = target.path;
    if (path === TRACE_MOUNT || path.startsWith(TRACE_MOUNT + '/')) {
      if (this.collectorHandler && isLoopbackRequest(req)) this.collectorHandler(req, res);
      else this.notFound(reply);
      return;
    }
    if (path === HEALTH_PATH && getLike) {
      reply.send(
        200,
        {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(this.healthBody),
          'Cache-Control': NO_STORE,
        },
        this.healthBody,
      );
      return;
    }
    if (target.trailingSlash && getLike) {
      // checkRequestTarget rejected empty segments and backslashes, so the location cannot start
      // with `//` or `/\`: it stays on this site.
      beginTrace(this, req, res, undefined, LaneRoute);
      const location = target.rawPath.slice(0, -1) + target.query;
      reply.send(308, { Location: location, 'Content-Length': 0, 'Cache-Control': NO_STORE });
      return;
    }
    const segments = target.segments;
    if (
      method === 'OPTIONS' &&
      req.headers.origin !== undefined &&
      req.headers['access-control-request-method'] !== undefined
    ) {
      corsPreflight(this, req, reply, segments);
      return;
    }
    const ep = this.routes.endpoints.lookup(method, segments);
    if (ep !== undefined && (ep.value.entry.kind !== 'query' || wantsJson(req))) {
      const parent = beginTrace(this, req, res, ep.value, laneOf(ep.value.entry.kind));
      reply.json = ep.value.json;
      runAsync(this, reply, serveEndpoint(this, req, reply, ep, target, parent), parent);
      return;
    }
    if (!getLike) {
      beginTrace(this, req, res, undefined, LaneRoute);
      methodNotAllowed(this, reply, segments, path, false);
      return;
    }
    servePageRequest(this, req, reply, segments, path);
  }

  private prebuild(manifest: AppManifest): PrebuiltAnswers {
    return new PrebuiltAnswers(manifest, this.static.keys(), {
      reserved: (path) => path === HEALTH_PATH || path === TRACE_MOUNT || path.startsWith(TRACE_MOUNT + '/'),
      hasEndpoint: (segments) =>
        this.routes.endpoints.lookup('GET', segments) !== undefined ||
        this.routes.endpoints.lookup('HEAD', segments) !== undefined,
      resolvePage: (segments) => resolvePage(this, segments),
      pageFile: (page, path) => pageFile(this, page, path),
    });
  }
}

export function createApp(options: AppOptions): KitApp {
  return new KitApp(options);
}
