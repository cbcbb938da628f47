// Endpoint answers (actions, APIs, fragments, contracts): a shared first part, then the executor of
// the endpoint's kind (`executors.ts`, `action-executor.ts`). The first part runs the checks every
// kind needs, in the order they must run: default deny, typed params, Fetch Metadata, the capped
// body (`endpoint-intake.ts`), guards, the submitted form and CSRF, and an unbound handler's 501.
// Each step answers a request it stops; the executor answers the rest. CORS preflights too.
import type { IncomingMessage } from 'node:http';
import type { RouteMatch } from '../route/index.js';
import type { Context } from '../trace/index.js';
import { requestContext } from './context.js';
import { preflight } from './cors.js';
import { EndpointRequest, type RequestTarget } from './endpoint-request.js';
import { readEndpointBody, readSubmittedForm, sameSiteOrAllowed } from './endpoint-intake.js';
import { NO_STORE } from './errors.js';
import { EXECUTORS, serveUnbound } from './executors.js';
import { isPublic } from './guards.js';
import type { Reply } from './reply.js';
import type { EndpointRuntime } from './routes.js';
import type { AppServices } from './services.js';
import { deniedWithoutGuard } from './stage-spans.js';
import { decodeParams, passGuards, requestState } from './steps.js';

export function corsPreflight(app: AppServices, req: IncomingMessage, reply: Reply, segments: string[]): void {
  const method = String(req.headers['access-control-request-method']).toUpperCase();
  const ep = app.routes.endpoints.lookup(method, segments);
  if (ep === undefined || ep.value.cors === undefined) {
    reply.json = ep?.value.json ?? false;
    if (ep === undefined && app.routes.endpoints.allowedMethods(segments).length === 0) app.notFound(reply);
    else reply.error(403, 'cors_preflight_denied', 'cors preflight denied');
    return;
  }
  reply.json = ep.value.json;
  const headers = preflight(ep.value.cors, ep.value.entry.method, req);
  if (headers === undefined) {
    reply.error(403, 'cors_preflight_denied', 'cors preflight denied');
    return;
  }
  reply.res.writeHead(204, { ...headers, 'Cache-Control': NO_STORE, 'Content-Length': 0 });
  reply.res.end();
}

/** Answers a request the endpoint router matched (`parent`: the request span's context). */
export async function serveEndpoint(
  app: AppServices,
  req: IncomingMessage,
  reply: Reply,
  match: RouteMatch<EndpointRuntime>,
  target: RequestTarget,
  parent: Context,
): Promise<void> {
  const x = new EndpointRequest(app, req, reply, match.value, match.params, target, parent);
  const ep = x.ep;
  // Default deny: no guard at all.
  if (ep.entry.guards.length === 0) {
    deniedWithoutGuard(app, parent, ep.sources.decl);
    return x.fail(403, 'forbidden', '403 forbidden');
  }
  // Typed params before guards and hooks; then what may be refused without reading the request.
  const typed = decodeParams(ep, x.params, reply);
  if (typed === undefined || !sameSiteOrAllowed(x) || !(await readEndpointBody(x))) return;
  const state = (x.state = requestState(req, reply.res, ep, x.params));
  state.typedParams = typed;
  const done = app.deadlines.add(state, reply);
  try {
    x.ctx = requestContext(state, parent);
    if (!isPublic(ep.entry.guards) && !(await passGuards(app, ep, x.ctx, reply))) return;
    if (!(await readSubmittedForm(x))) return;
    if (!ep.handler.ok) return await serveUnbound(x, ep.handler.message);
    await EXECUTORS[ep.entry.kind](x, ep.handler.handler);
  } finally {
    done();
    await x.uploads?.cleanup();
  }
}
