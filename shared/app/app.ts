// The request pipeline of a generated app. Dispatch order (reference-notes 4.1, kit decisions):
//   1. the raw request target is validated before anything parses it (400/404);
//   2. `/_kit/traces[/...]` → trace collector and viewer, loopback only (else 404), when tracing is on;
//   3. `GET|HEAD /_kit/health`;
//   4. GET/HEAD with a trailing slash → 308 to the path without it, query kept;
//   5. CORS preflights of APIs; then the endpoint router (actions, APIs, fragments, contracts) by
//      exact method — query contracts only for requests that ask for JSON;
//   6. any other method → 405 with `Allow` (404 when nothing lives at the path);
//   7. pages: a concrete page route, else a built file (the page owning it decides: guards, CSRF,
//      cache), else a dynamic page route, else 404 — or 405 when endpoints live at the path.
// Every page and endpoint is default-deny: no guard → 403 before anything else runs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { checkRequestTarget, compareMethods, decodeTypedParams, type RequestPathResult } from '../route/index.js';
import { renderTemplate } from '../render/index.js';
import {
  background,
  LaneRoute,
  LaneSSR,
  traceRequest,
  isLoopbackRequest,
  type Collector,
  type Context,
  type Lane,
  type Tracer,
} from '../trace/index.js';
import {
  BodyAbortedError,
  BodyTooLargeError,
  DEFAULT_BODY_LIMIT,
  isFormContentType,
  parseFormBody,
  readBody,
} from './body.js';
import { isSecureRequest, requestContext, RequestState } from './context.js';
import { corsResponseHeaders, originAllowed, preflight } from './cors.js';
import {
  CSRF_FIELD,
  CSRF_HEADER,
  cookieName,
  csrfKeys,
  newToken,
  readCookie,
  setCookieValue,
  validSubmission,
  verifyToken,
  type CsrfKeys,
} from './csrf.js';
import { NO_STORE, sendError, thrownStatus, type ErrorCode } from './errors.js';
import { FormDecodeError } from './form.js';
import { guardRegistry, isPublic, runGuards, type Guard } from './guards.js';
import { csrfInsertionPoints, injectAt } from './html-forms.js';
import type { AppManifest } from './manifest.js';
import { FRAGMENT_SWAP, FRAGMENT_TARGET, isLocalPath, toResponse, writeResponse } from './responses.js';
import {
  compileRoutes,
  paramsForFile,
  type CompiledRoutes,
  type EndpointRuntime,
  type Modules,
  type PageRuntime,
} from './routes.js';
import { invokeHandler } from './invoke.js';
import { headerValue, isPartial, laneOf, wantsJson } from './request-kind.js';
import { StaticTable, type StaticEntry, type StaticSource } from './static-files.js';
import { Deadlines } from './deadlines.js';
import { prebuildAnswers, type PageTarget, type PrebuiltAnswer } from './prebuilt.js';

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
}

type Handle = (req: IncomingMessage, res: ServerResponse) => void;

const HTML_TYPE = 'text/html; charset=utf-8';
const NO_POINTS: readonly number[] = Object.freeze([]);
const UNSAFE_METHODS_EXEMPT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export class KitApp {
  readonly routes: CompiledRoutes;
  readonly static: StaticTable;
  readonly csrf: CsrfKeys;
  readonly guards: Map<string, Guard>;
  readonly instanceId = randomBytes(8).toString('hex');
  private readonly log: (line: string) => void;
  private readonly tracer: Tracer | undefined;
  private readonly collectorHandler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  private readonly bodyLimit: number;
  private readonly notFoundFile: StaticEntry | undefined;
  private readonly healthBody: string;
  /** Whole answers by exact raw request target (see prebuild); undefined while tracing. */
  private readonly prebuilt: Map<string, PrebuiltAnswer> | undefined;
  private readonly deadlines: Deadlines;

  constructor(options: AppOptions) {
    const m = options.manifest;
    if (!m || m.version !== 1)
      throw new Error('kit app: unsupported route table version (rebuild the app with this kit)');
    this.log = options.log ?? ((line) => process.stderr.write(line + '\n'));
    this.routes = compileRoutes(m, options.modules ?? {});
    this.static = new StaticTable(m.static, options.static);
    this.csrf = csrfKeys(options.csrfSecret);
    this.guards = guardRegistry(options.config);
    this.tracer = options.tracer;
    this.collectorHandler = options.collector?.handler({ prefix: TRACE_MOUNT });
    this.deadlines = new Deadlines(options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    this.bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
    this.notFoundFile = m.notFound !== undefined ? this.static.get(m.notFound) : undefined;
    this.prebuilt = this.tracer === undefined ? this.prebuild(m) : undefined;
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

  /** The Node request listener. */
  readonly handle: Handle = (req, res) => {
    try {
      const prebuilt = this.prebuilt;
      if (prebuilt !== undefined) {
        const method = req.method;
        if (method === 'GET' || method === 'HEAD') {
          const answer = prebuilt.get(req.url ?? '');
          if (answer !== undefined && answer.send(res, method === 'HEAD')) return;
        }
      }
      this.dispatch(req, res);
    } catch (err) {
      this.fail(res, err, 'request', req.method === 'HEAD', false);
    }
  };

  // ---- dispatch -------------------------------------------------------------------------------

  private dispatch(req: IncomingMessage, res: ServerResponse): void {
    const target = checkRequestTarget(req.url ?? '');
    const method = req.method ?? 'GET';
    const head = method === 'HEAD';
    if (!target.ok) {
      this.begin(req, res, undefined, LaneRoute);
      if (target.status === 404) this.notFound(res, head);
      else sendError(res, 400, 'bad_request', '400 bad request', { head });
      return;
    }
    const path = target.path;
    if (path === TRACE_MOUNT || path.startsWith(TRACE_MOUNT + '/')) {
      if (this.collectorHandler && isLoopbackRequest(req)) this.collectorHandler(req, res);
      else this.notFound(res, head);
      return;
    }
    if (path === HEALTH_PATH && (method === 'GET' || head)) {
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(this.healthBody),
        'Cache-Control': NO_STORE,
      });
      res.end(head ? undefined : this.healthBody);
      return;
    }
    if (target.trailingSlash && (method === 'GET' || head)) {
      // checkRequestTarget rejected empty segments and backslashes, so the location cannot start
      // with `//` or `/\`: it stays on this site.
      this.begin(req, res, undefined, LaneRoute);
      const location = target.rawPath.slice(0, -1) + target.query;
      res.writeHead(308, { Location: location, 'Content-Length': 0, 'Cache-Control': NO_STORE });
      res.end();
      return;
    }
    const segments = target.segments;
    if (
      method === 'OPTIONS' &&
      req.headers.origin !== undefined &&
      req.headers['access-control-request-method'] !== undefined
    ) {
      this.corsPreflight(req, res, segments);
      return;
    }
    const ep = this.routes.endpoints.lookup(method, segments);
    if (ep !== undefined && (ep.value.entry.kind !== 'query' || wantsJson(req))) {
      const ctxParent = this.begin(req, res, ep.value, laneOf(ep.value.entry.kind));
      this.runAsync(res, head, ep.value.json, this.serveEndpoint(req, res, ep.value, ep.params, target, ctxParent));
      return;
    }
    if (method !== 'GET' && !head) {
      this.begin(req, res, undefined, LaneRoute);
      this.methodNotAllowed(res, segments, path, false, false);
      return;
    }
    this.servePageRequest(req, res, segments, path, head);
  }

  private servePageRequest(
    req: IncomingMessage,
    res: ServerResponse,
    segments: string[],
    path: string,
    head: boolean,
  ): void {
    const t = this.resolvePage(segments);
    if (t === undefined) {
      this.begin(req, res, undefined, LaneRoute);
      this.methodNotAllowed(res, segments, path, true, head);
    } else if (t.page === undefined) {
      this.begin(req, res, undefined, LaneRoute);
      this.sendFile(res, t.file, t.file.cache, head);
    } else this.servePage(req, res, t.page, t.params, head, path, t.file);
  }

  /**
   * What a GET or HEAD at these segments serves: a concrete page route, else a built file (through
   * the page owning it, or as a plain file when it is not HTML), else a dynamic page route.
   */
  private resolvePage(segments: string[]): PageTarget | undefined {
    const m = this.routes.pages.lookup('GET', segments);
    if (m !== undefined && !m.route.isDynamic) return { page: m.value, params: m.params, file: undefined };
    const key = segments.join('/');
    const file = this.static.get(key) ?? this.static.get(key === '' ? 'index.html' : key + '/index.html');
    if (file !== undefined) {
      const owner = this.routes.fileOwners.get(file.key);
      if (owner !== undefined) return { page: owner, params: paramsForFile(owner, file.key), file };
      if (!file.isHtml) return { page: undefined, file };
    }
    if (m !== undefined) return { page: m.value, params: m.params, file: undefined };
    return undefined;
  }

  private prebuild(manifest: AppManifest): Map<string, PrebuiltAnswer> {
    return prebuildAnswers(manifest, this.static.keys(), {
      reserved: (path) => path === HEALTH_PATH || path === TRACE_MOUNT || path.startsWith(TRACE_MOUNT + '/'),
      hasEndpoint: (segments) =>
        this.routes.endpoints.lookup('GET', segments) !== undefined ||
        this.routes.endpoints.lookup('HEAD', segments) !== undefined,
      resolvePage: (segments) => this.resolvePage(segments),
      pageFile: (page, path) => this.pageFile(page, path),
    });
  }

  /** 405 with `Allow` when something lives at the path under other methods, else 404. */
  private methodNotAllowed(res: ServerResponse, segments: string[], path: string, isGet: boolean, head: boolean): void {
    const allowed = new Set(this.routes.endpoints.allowedMethods(segments));
    if (!isGet) {
      const key = segments.join('/');
      const hasPage =
        this.routes.pages.lookup('GET', segments) !== undefined ||
        this.static.get(key) !== undefined ||
        this.static.get(key === '' ? 'index.html' : key + '/index.html') !== undefined;
      if (hasPage) {
        allowed.add('GET');
        allowed.add('HEAD');
      }
    }
    if (allowed.size === 0) {
      this.notFound(res, head);
      return;
    }
    const allow = [...allowed].sort(compareMethods).join(', ');
    sendError(res, 405, 'method_not_allowed', `method not allowed; ${path} accepts ${allow}`, {
      headers: { Allow: allow },
      head,
    });
  }

  private notFound(res: ServerResponse, head: boolean): void {
    if (this.notFoundFile) {
      const body = this.notFoundFile.body();
      res.writeHead(404, {
        'Content-Type': HTML_TYPE,
        'Content-Length': body.length,
        'Cache-Control': NO_STORE,
        'X-Content-Type-Options': 'nosniff',
        'X-Kit-Error-Code': 'not_found',
      });
      res.end(head ? undefined : body);
      return;
    }
    sendError(res, 404, 'not_found', '404 page not found', { head });
  }

  // ---- tracing --------------------------------------------------------------------------------

  private begin(
    req: IncomingMessage,
    res: ServerResponse,
    route: PageRuntime | EndpointRuntime | undefined,
    lane: Lane,
  ): Context {
    if (this.tracer === undefined) return background();
    const info =
      route === undefined
        ? { lane }
        : 'endpoint' in route
          ? {
              route: route.entry.route,
              lane,
              page: route.entry.pageId,
              endpointKind: route.entry.kind,
              guard: route.entry.guards.join(',') || undefined,
            }
          : {
              route: route.entry.route,
              lane,
              page: route.entry.pageId,
              render: route.entry.render,
              guard: route.entry.guards.join(',') || undefined,
            };
    return traceRequest(this.tracer, req, info, res)[0];
  }

  // ---- shared steps ---------------------------------------------------------------------------

  private runAsync(res: ServerResponse, head: boolean, json: boolean, work: Promise<void>): void {
    work.catch((err: unknown) => this.fail(res, err, 'request', head, json));
  }

  private fail(res: ServerResponse, err: unknown, what: string, head: boolean, json: boolean): void {
    const { status, message } = thrownStatus(err);
    if (status >= 500)
      this.log(`kit: ${what} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    sendError(res, status, 'request_failed', message, { head, json });
  }

  private state(
    req: IncomingMessage,
    res: ServerResponse,
    route: PageRuntime | EndpointRuntime,
    params: Record<string, string>,
  ): RequestState {
    return new RequestState(route.info, 'endpoint' in route ? route.endpoint : undefined, params, req, res);
  }

  /** Typed params decoded before guards (SSR pages, fragments, endpoints): 400/404 naming the param. */
  private decodeParams(
    route: PageRuntime | EndpointRuntime,
    params: Record<string, string>,
    res: ServerResponse,
    head: boolean,
    json: boolean,
  ): Record<string, unknown> | undefined {
    if (route.parsed.params.length === 0) return {};
    const r = decodeTypedParams(route.parsed, params);
    if (!r.ok) {
      sendError(res, r.status, 'invalid_route_parameter', r.message, { head, json });
      return undefined;
    }
    return r.values;
  }

  /** Runs the guards; answers and returns false when they do not all allow. */
  private async guard(
    route: PageRuntime | EndpointRuntime,
    ctx: Context,
    res: ServerResponse,
    head: boolean,
    json: boolean,
  ): Promise<boolean> {
    const ids = route.entry.guards;
    if (isPublic(ids)) return true;
    const outcome = await runGuards(ids, this.guards, ctx);
    switch (outcome.kind) {
      case 'allow':
        return true;
      case 'redirect':
        if (!res.headersSent) {
          res.writeHead(outcome.status, { Location: outcome.location, 'Content-Length': 0, 'Cache-Control': NO_STORE });
          res.end();
        }
        return false;
      case 'deny':
        sendError(res, 403, 'guard_forbidden', '403 forbidden', { head, json });
        return false;
      case 'unknown':
        sendError(res, 403, 'guard_forbidden', '403 forbidden', { head, json });
        return false;
      case 'error':
        this.log(
          `kit: guard ${JSON.stringify(outcome.id)} failed: ${outcome.error instanceof Error ? (outcome.error.stack ?? outcome.error.message) : String(outcome.error)}`,
        );
        sendError(res, 500, 'request_failed', 'internal server error', { head, json });
        return false;
    }
  }

  private csrfToken(req: IncomingMessage): { token: string; setCookie?: string } {
    const secure = isSecureRequest(req);
    const existing = readCookie(req.headers.cookie, cookieName(secure));
    // Reuse the browser's token while it verifies with the signing key; otherwise mint one.
    if (existing !== undefined && verifyToken(this.csrf, existing, true)) return { token: existing };
    const token = newToken(this.csrf);
    return { token, setCookie: setCookieValue(token, secure) };
  }

  // ---- pages ----------------------------------------------------------------------------------

  private servePage(
    req: IncomingMessage,
    res: ServerResponse,
    page: PageRuntime,
    params: Record<string, string>,
    head: boolean,
    path: string,
    file?: StaticEntry,
  ): void {
    const e = page.entry;
    const ctxParent = this.begin(req, res, page, e.render === 'spa' ? LaneRoute : LaneSSR);
    if (e.guards.length === 0) {
      sendError(res, 403, 'forbidden', '403 forbidden', { head });
      return;
    }
    const builtFile = file ?? this.pageFile(page, path);
    // The fast path: a public page built ahead of time.
    if (builtFile !== undefined && isPublic(e.guards)) {
      this.sendPageFile(req, res, page, builtFile, head);
      return;
    }
    if (builtFile === undefined && (e.render === 'spa' || page.template === undefined)) {
      this.notFound(res, head);
      return;
    }
    this.runAsync(res, head, false, this.servePageAsync(req, res, page, params, head, builtFile, ctxParent));
  }

  /** The built file answering this exact (decoded) request path, if the page has one. */
  private pageFile(page: PageRuntime, path: string): StaticEntry | undefined {
    if (page.fileRoutes.size === 0) return undefined;
    const files = page.entry.files;
    const f = Object.prototype.hasOwnProperty.call(files, path) ? files[path] : undefined;
    return f === undefined ? undefined : this.static.get(f);
  }

  private async servePageAsync(
    req: IncomingMessage,
    res: ServerResponse,
    page: PageRuntime,
    params: Record<string, string>,
    head: boolean,
    file: StaticEntry | undefined,
    parent: Context,
  ): Promise<void> {
    const e = page.entry;
    const typed = this.decodeParams(page, params, res, head, false);
    if (typed === undefined) return;
    const state = this.state(req, res, page, params);
    state.typedParams = typed;
    const done = this.deadlines.add(state, res, head, false);
    try {
      const ctx = requestContext(state, parent);
      if (!isPublic(e.guards) && !(await this.guard(page, ctx, res, head, false))) return;
      if (file !== undefined) {
        this.sendPageFile(req, res, page, file, head);
        return;
      }
      let data: unknown = undefined;
      const load = page.load;
      if (load !== undefined && load.ok) {
        try {
          data = await load.handler.fn(ctx);
        } catch (thrown) {
          const { status, message } = thrownStatus(thrown);
          if (status >= 500)
            this.log(
              `kit: load of page ${e.pageId} failed: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}`,
            );
          sendError(res, status, 'request_failed', message, { head });
          return;
        }
        if (data instanceof Response) {
          // A load answering a Response (a redirect to a login page, say) is request-specific.
          await writeResponse(res, data, { head, noStore: true });
          return;
        }
      } else if (e.serverFields.length > 0) {
        sendError(
          res,
          501,
          'handler_not_implemented',
          load && !load.ok ? load.message : `kit load function for page ${e.pageId} is not implemented`,
          { head },
        );
        return;
      }
      if (res.headersSent) return;
      const body = renderTemplate(page.template!, data, params);
      this.sendHtml(req, res, body, e.cache ?? NO_STORE, head, page.templateForms);
    } finally {
      done();
    }
  }

  private sendPageFile(
    req: IncomingMessage,
    res: ServerResponse,
    page: PageRuntime,
    file: StaticEntry,
    head: boolean,
  ): void {
    const points = file.csrfPoints();
    if (points.length > 0) {
      const { token, setCookie } = this.csrfToken(req);
      const body = injectAt(file.text(), points, token);
      const headers: Record<string, string | number> = {
        'Content-Type': file.type,
        'Content-Length': Buffer.byteLength(body),
        'Cache-Control': NO_STORE,
        'X-Content-Type-Options': 'nosniff',
      };
      if (setCookie) headers['Set-Cookie'] = setCookie;
      res.writeHead(200, headers);
      res.end(head ? undefined : body);
      return;
    }
    this.sendFile(res, file, page.entry.cache ?? 'no-cache', head);
  }

  /** Request-time HTML: CSRF fields injected (then `no-store`), else the page's policy. */
  private sendHtml(
    req: IncomingMessage,
    res: ServerResponse,
    html: string,
    cache: string,
    head: boolean,
    mayHaveForms: boolean,
  ): void {
    const points = mayHaveForms ? csrfInsertionPoints(html) : NO_POINTS;
    if (points.length === 0) {
      // The common case in one flat header list (no header object to build and walk).
      res.writeHead(200, [
        'Content-Type',
        HTML_TYPE,
        'Cache-Control',
        cache,
        'X-Content-Type-Options',
        'nosniff',
        'Content-Length',
        Buffer.byteLength(html),
      ]);
      res.end(head ? undefined : html);
      return;
    }
    const headers: Record<string, string | number> = {
      'Content-Type': HTML_TYPE,
      'Cache-Control': cache,
      'X-Content-Type-Options': 'nosniff',
    };
    const { token, setCookie } = this.csrfToken(req);
    const body = injectAt(html, points, token);
    headers['Cache-Control'] = NO_STORE;
    if (setCookie) headers['Set-Cookie'] = setCookie;
    headers['Content-Length'] = Buffer.byteLength(body);
    res.writeHead(200, headers);
    res.end(head ? undefined : body);
  }

  private sendFile(res: ServerResponse, file: StaticEntry, cache: string, head: boolean): void {
    res.writeHead(200, file.headers(cache));
    res.end(head ? undefined : file.body());
  }

  // ---- endpoints ------------------------------------------------------------------------------

  private corsPreflight(req: IncomingMessage, res: ServerResponse, segments: string[]): void {
    const method = String(req.headers['access-control-request-method']).toUpperCase();
    const ep = this.routes.endpoints.lookup(method, segments);
    if (ep === undefined || ep.value.cors === undefined) {
      const json = ep?.value.json ?? false;
      if (ep === undefined && this.routes.endpoints.allowedMethods(segments).length === 0) this.notFound(res, false);
      else sendError(res, 403, 'cors_preflight_denied', 'cors preflight denied', { json });
      return;
    }
    const headers = preflight(ep.value.cors, ep.value.entry.method, req);
    if (headers === undefined) {
      sendError(res, 403, 'cors_preflight_denied', 'cors preflight denied', { json: ep.value.json });
      return;
    }
    res.writeHead(204, { ...headers, 'Cache-Control': NO_STORE, 'Content-Length': 0 });
    res.end();
  }

  private async serveEndpoint(
    req: IncomingMessage,
    res: ServerResponse,
    ep: EndpointRuntime,
    params: Record<string, string>,
    target: Extract<RequestPathResult, { ok: true }>,
    parent: Context,
  ): Promise<void> {
    const e = ep.entry;
    const method = req.method ?? 'GET';
    const head = method === 'HEAD';
    const json = ep.json;
    const err = (status: number, code: ErrorCode, message: string): void =>
      sendError(res, status, code, message, { head, json, headers: corsHeaders });
    let corsHeaders: Record<string, string> | undefined;
    const origin = headerValue(req, 'origin');
    if (ep.cors !== undefined && originAllowed(ep.cors, origin)) corsHeaders = corsResponseHeaders(ep.cors, origin!);

    // 1. Default deny: no guard at all.
    if (e.guards.length === 0) return err(403, 'forbidden', '403 forbidden');
    // 2. Typed params, before guards and hooks.
    const typed = this.decodeParams(ep, params, res, head, json);
    if (typed === undefined) return;
    const unsafe = !UNSAFE_METHODS_EXEMPT.has(method);
    // 3. Fetch Metadata: a browser says the request comes from another site (defence in depth for
    //    CSRF; an API's declared CORS origins are the exception).
    if (unsafe && e.csrf && headerValue(req, 'sec-fetch-site') === 'cross-site' && corsHeaders === undefined) {
      req.resume();
      return err(403, 'invalid_csrf_token', 'invalid csrf token');
    }
    // 4. The body, capped (1 MiB): 413 without reading further.
    let body: Buffer | undefined;
    if (unsafe) {
      try {
        body = await readBody(req, this.bodyLimit);
      } catch (e2) {
        if (e2 instanceof BodyTooLargeError) {
          res.setHeader('Connection', 'close');
          return sendError(res, 413, 'request_body_too_large', 'request body too large', {
            head,
            json,
            headers: { ...corsHeaders, Connection: 'close' },
          });
        }
        if (e2 instanceof BodyAbortedError) {
          res.destroy();
          return;
        }
        throw e2;
      }
    }
    const state = this.state(req, res, ep, params);
    state.typedParams = typed;
    const done = this.deadlines.add(state, res, head, json);
    try {
      const ctx = requestContext(state, parent);
      // 5. Guards.
      if (!isPublic(e.guards) && !(await this.guard(ep, ctx, res, head, json))) return;
      // 6. Form parsing (actions, commands, form posts to APIs), then CSRF before any decoding,
      //    handler, or the 501 of an unbound handler (decision 9).
      const contentType = headerValue(req, 'content-type');
      let formData: FormData | undefined;
      const wantsForm = e.kind === 'action' || e.kind === 'command';
      if (body !== undefined && (wantsForm || (e.csrf && isFormContentType(contentType)))) {
        try {
          formData = await parseFormBody(body, contentType);
        } catch {
          return err(400, 'invalid_form', 'invalid form');
        }
      }
      if (e.csrf) {
        const secure = isSecureRequest(req);
        const cookie = readCookie(req.headers.cookie, cookieName(secure));
        const fieldValue = formData?.get(CSRF_FIELD);
        const submitted = headerValue(req, CSRF_HEADER) ?? (typeof fieldValue === 'string' ? fieldValue : undefined);
        if (!validSubmission(this.csrf, cookie, submitted)) return err(403, 'invalid_csrf_token', 'invalid csrf token');
      }
      // 7. Unbound or unsupported → 501. A fragment without a hook serves its static body.
      if (!ep.handler.ok) {
        if (e.kind === 'fragment' && e.handler.status === 'missing') {
          await writeResponse(res, this.fragmentBody(ep, params), {
            head,
            noStore: true,
            extraHeaders: { ...corsHeaders, ...this.fragmentHeaders(ep) },
          });
          return;
        }
        return err(501, 'handler_not_implemented', ep.handler.message);
      }
      const h = ep.handler.handler;
      // 8. Partial submissions may only name a target the page declared for this action.
      const partial = e.kind === 'action' && isPartial(req);
      const partialTarget = partial ? headerValue(req, 'x-kit-target') : undefined;
      if (
        partial &&
        (partialTarget === undefined || (ep.partialTargets !== undefined && !ep.partialTargets.has(partialTarget)))
      ) {
        return err(400, 'fragment_not_found', 'partial fragment not found');
      }
      // 9. Decode and call.
      let result: unknown;
      try {
        result = await invokeHandler(h.signature, h.fn, h.fields, ctx, formData, target.query, req, body, state);
      } catch (thrown) {
        if (thrown instanceof FormDecodeError) return err(400, 'invalid_form', thrown.message);
        const { status, message } = thrownStatus(thrown);
        if (status >= 500)
          this.log(
            `kit: ${e.kind} ${e.pageId}.${e.symbol} failed: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}`,
          );
        return err(status, 'request_failed', message);
      }
      if (res.headersSent) return;
      let response: Response;
      if (e.kind === 'fragment') {
        response =
          result === undefined && h.signature === 'fragment' ? this.fragmentBody(ep, params) : toResponse(result);
      } else if (e.kind === 'command' || e.kind === 'query') {
        response = result instanceof Response ? result : Response.json(result === undefined ? null : result);
      } else response = toResponse(result);
      const extra: Record<string, string> = { ...corsHeaders };
      if (e.kind === 'fragment') Object.assign(extra, this.fragmentHeaders(ep));
      if (
        partial &&
        partialTarget !== undefined &&
        response.status >= 200 &&
        response.status < 300 &&
        (response.headers.get('content-type') ?? '').startsWith('text/html')
      ) {
        extra[FRAGMENT_TARGET] = partialTarget;
        extra[FRAGMENT_SWAP] = headerValue(req, 'x-kit-swap') === 'outerHTML' ? 'outerHTML' : 'innerHTML';
      }
      const location = response.headers.get('location');
      if (location !== null && response.status >= 300 && response.status < 400 && !isLocalPath(location)) {
        this.log(
          `kit: ${e.kind} ${e.pageId}.${e.symbol} answered a redirect to a non-local location; sent 500 instead`,
        );
        return err(500, 'request_failed', 'internal server error');
      }
      await writeResponse(res, response, { head, noStore: true, extraHeaders: extra });
    } finally {
      done();
    }
  }

  private fragmentHeaders(ep: EndpointRuntime): Record<string, string> {
    const f = ep.entry.fragment;
    return f ? { [FRAGMENT_TARGET]: f.target, [FRAGMENT_SWAP]: f.swap } : {};
  }

  private fragmentBody(ep: EndpointRuntime, params: Record<string, string>): Response {
    const body = ep.fragmentTemplate ? renderTemplate(ep.fragmentTemplate, undefined, params) : '';
    return new Response(body, { status: 200, headers: { 'content-type': HTML_TYPE } });
  }
}

export function createApp(options: AppOptions): KitApp {
  return new KitApp(options);
}
