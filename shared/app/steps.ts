// Steps shared by pages and endpoints: the request span, typed params, guards, CSRF tokens, and
// turning a thrown value into an answer. Every page and endpoint is default-deny: the callers stop
// at a missing guard before any of these run.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FormRender, type FormRenderOptions } from '../render/index.js';
import { decodeTypedParams } from '../route/index.js';
import {
  background,
  type Context,
  type Lane,
  LaneRoute,
  LaneSSR,
  recordException,
  spanFromContext,
  traceRequest,
} from '../trace/index.js';
import { isSecureRequest, RequestState } from './context.js';
import { cookieName, newToken, readCookie, setCookieValue, verifyToken } from './csrf.js';
import { NO_STORE, thrownStatus } from './errors.js';
import { currentFaultScope } from './faults.js';
import { isPublic, runGuards } from './guards.js';
import type { PrebuiltAnswer } from './prebuilt.js';
import { guardWatch, recordMatch, startStage } from './stage-spans.js';
import { serverTiming } from './trace-bridge.js';
import type { Reply } from './reply.js';
import type { EndpointRuntime, PageRuntime } from './routes.js';
import type { AppServices } from './services.js';

export type RouteRuntime = PageRuntime | EndpointRuntime;

/** A thrown value as a log line: its stack when it has one. */
export function describeThrown(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

/**
 * Starts the request span when tracing is on, with the span of the route match under it (unless
 * `match` is false: a built file's answer is its own stage span, pointing at the same route); the
 * background context otherwise (nothing allocated).
 */
export function beginTrace(
  app: AppServices,
  req: IncomingMessage,
  res: ServerResponse,
  route: RouteRuntime | undefined,
  lane: Lane,
  match = true,
  timing?: { value: string },
): Context {
  if (app.tracer === undefined) return background();
  const info =
    route === undefined
      ? { lane }
      : 'endpoint' in route
        ? {
            route: route.entry.route,
            lane,
            page: route.entry.pageId,
            endpointKind: route.entry.kind,
            symbol: route.entry.symbol,
            guard: route.entry.guards.join(',') || undefined,
            source: route.entry.source,
          }
        : {
            route: route.entry.route,
            lane,
            page: route.entry.pageId,
            render: route.entry.render,
            guard: route.entry.guards.join(',') || undefined,
            source: route.entry.source,
          };
  const [ctx, span] = traceRequest(app.tracer, req, info, res);
  const scope = currentFaultScope();
  if (scope !== undefined) scope.span = span;
  // A caller that writes its own header list takes the value (setHeader would make Node merge the
  // list header by header: the slow path of `writeHead`).
  if (app.traceBridge && span.isRecording()) {
    if (timing !== undefined) timing.value = serverTiming(span);
    else res.setHeader('Server-Timing', serverTiming(span));
  }
  if (route !== undefined && match) recordMatch(app, ctx, route.entry.route, route.sources.decl);
  return ctx;
}

/**
 * The spans of a prebuilt answer in a traced app: the request span and the file's stage span.
 * and the answer sent. False (and nothing started) when the answer cannot be used.
 */
export function tracePrebuilt(
  app: AppServices,
  req: IncomingMessage,
  res: ServerResponse,
  answer: PrebuiltAnswer,
): boolean {
  if (!answer.usable()) return false;
  const page = answer.page;
  const lane = page === undefined || page.entry.render === 'spa' ? LaneRoute : LaneSSR;
  const timing = { value: '' };
  const ctx = beginTrace(app, req, res, page, lane, false, timing);
  startStage(app, ctx, 'static file', LaneRoute, page?.sources.decl).end();
  return answer.send(res, req.method === 'HEAD', timing.value);
}

/**
 * Answers a thrown value (a 4xx `HttpError` shows its message; anything else is a logged 500 whose
 * exception goes on the request span, when there is one).
 */
export function fail(app: AppServices, reply: Reply, err: unknown, what: string, ctx?: Context): void {
  const { status, message } = thrownStatus(err);
  if (status >= 500) {
    logFault(app, reply, `${what} failed`, err);
    const span = ctx !== undefined ? spanFromContext(ctx) : currentFaultScope()?.span;
    if (span !== undefined) recordException(span, err);
  }
  reply.error(status, 'request_failed', message);
}

/** Logs a thrown value answered with a 5xx (never sent to the client) and tells `onFault`. */
export function logFault(app: AppServices, reply: Reply, what: string, err: unknown): void {
  app.log(`kit: ${what}: ${describeThrown(err)}`);
  app.onFault?.(err, reply.res);
}

/** Runs request-time work; a rejection becomes the answer `fail` gives (`ctx`: the request's trace). */
export function runAsync(app: AppServices, reply: Reply, work: Promise<void>, ctx?: Context): void {
  work.catch((err: unknown) => fail(app, reply, err, 'request', ctx));
}

export function requestState(
  req: IncomingMessage,
  res: ServerResponse,
  route: RouteRuntime,
  params: Record<string, string>,
): RequestState {
  return new RequestState(route.info, 'endpoint' in route ? route.endpoint : undefined, params, req, res);
}

/** Typed params decoded before guards (SSR pages, fragments, endpoints): 400/404 naming the param. */
export function decodeParams(
  route: RouteRuntime,
  params: Record<string, string>,
  reply: Reply,
): Record<string, unknown> | undefined {
  if (route.parsed.params.length === 0) return {};
  const r = decodeTypedParams(route.parsed, params);
  if (!r.ok) {
    reply.error(r.status, 'invalid_route_parameter', r.message);
    return undefined;
  }
  return r.values;
}

/** Runs the guards (a span each when traced); answers and returns false when they do not all allow. */
export async function passGuards(app: AppServices, route: RouteRuntime, ctx: Context, reply: Reply): Promise<boolean> {
  const ids = route.entry.guards;
  if (isPublic(ids)) return true;
  const outcome = await runGuards(ids, app.guards, ctx, guardWatch(app, ctx, route.sources.guard));
  switch (outcome.kind) {
    case 'allow':
      return true;
    case 'redirect':
      if (!reply.res.headersSent) {
        reply.res.writeHead(outcome.status, {
          Location: outcome.location,
          'Content-Length': 0,
          'Cache-Control': NO_STORE,
        });
        reply.res.end();
      }
      return false;
    case 'deny':
    case 'unknown':
      reply.error(403, 'guard_forbidden', '403 forbidden');
      return false;
    case 'error':
      logFault(app, reply, `guard ${JSON.stringify(outcome.id)} failed`, outcome.error);
      reply.error(500, 'request_failed', 'internal server error');
      return false;
  }
}

/** The form state a page renders with: CSRF fields with the request's token, asked for when one is written. */
export interface PageForms {
  forms: FormRender;
  /** The `Set-Cookie` of a new token, once a field was written with one. */
  cookie(): string | undefined;
}

/** The form state of a page render for `req` (`options`: a submission shown again, a partial answer). */
export function pageForms(app: AppServices, req: IncomingMessage, options: FormRenderOptions = {}): PageForms {
  let setCookie: string | undefined;
  const token = (): string => {
    const t = csrfToken(app, req);
    setCookie = t.setCookie;
    return t.token;
  };
  return { forms: new FormRender({ ...options, token }), cookie: () => setCookie };
}

/** The CSRF token for a page's forms: the browser's while it verifies with the signing key, else a new one. */
export function csrfToken(app: AppServices, req: IncomingMessage): { token: string; setCookie?: string } {
  const secure = isSecureRequest(req);
  const existing = readCookie(req.headers.cookie, cookieName(secure));
  if (existing !== undefined && verifyToken(app.csrf, existing, true)) return { token: existing };
  const token = newToken(app.csrf);
  return { token, setCookie: setCookieValue(token, secure) };
}
