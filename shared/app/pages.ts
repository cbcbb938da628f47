// Page answers: a GET (or HEAD) resolves to a concrete page route, else a built file (through the
// page owning it, or as a plain file when it is not HTML), else a dynamic page route, else 404 —
// or 405 when endpoints live at the path. Public built pages are sent as they are; everything else
// runs guards, then sends the built file or renders the page with its `Load<PageID>` data.
import type { IncomingMessage } from 'node:http';
import { compareMethods } from '../route/index.js';
import { renderTemplate } from '../render/index.js';
import { type Context, LaneHandler, LaneRoute, LaneSSR } from '../trace/index.js';
import { requestContext } from './context.js';
import { acceptsHtml } from './error-pages.js';
import { NO_STORE, thrownStatus } from './errors.js';
import { isPublic } from './guards.js';
import type { PageTarget } from './prebuilt.js';
import type { Reply } from './reply.js';
import { paramsForFile, type PageRuntime } from './routes.js';
import type { AppServices } from './services.js';
import { deniedWithoutGuard, markHandler, stageContext, stageFailed, startStage } from './stage-spans.js';
import type { StaticEntry } from './static-files.js';
import { injectBridge } from './trace-bridge.js';
import {
  beginTrace,
  decodeParams,
  logFault,
  type PageForms,
  pageForms,
  passGuards,
  requestState,
  runAsync,
} from './steps.js';

const HTML_TYPE = 'text/html; charset=utf-8';

/** Built files by request path: `/docs` is `docs` or `docs/index.html`. */
function builtFile(app: AppServices, segments: string[]): StaticEntry | undefined {
  const key = segments.join('/');
  return app.static.get(key) ?? app.static.get(key === '' ? 'index.html' : key + '/index.html');
}

/**
 * What a GET or HEAD at these segments serves: a concrete page route, else a built file (through
 * the page owning it, or as a plain file when it is not HTML), else a dynamic page route.
 */
export function resolvePage(app: AppServices, segments: string[]): PageTarget | undefined {
  const m = app.routes.pages.lookup('GET', segments);
  if (m !== undefined && !m.route.isDynamic) return { page: m.value, params: m.params, file: undefined };
  const file = builtFile(app, segments);
  if (file !== undefined) {
    const owner = app.routes.fileOwners.get(file.key);
    if (owner !== undefined) return { page: owner, params: paramsForFile(owner, file.key), file };
    if (!file.isHtml) return { page: undefined, file };
  }
  if (m !== undefined) return { page: m.value, params: m.params, file: undefined };
  return undefined;
}

/**
 * Whether a GET here answers with a page or file (not 404): a built-ahead (SPA) page exists only
 * at the paths it was generated for.
 */
function pageAnswers(app: AppServices, segments: string[], path: string): boolean {
  const t = resolvePage(app, segments);
  if (t === undefined) return false;
  if (t.page === undefined || t.file !== undefined) return true;
  return t.page.entry.render !== 'spa' || pageFile(app, t.page, path) !== undefined;
}

/** 405 with `Allow` when something lives at the path under other methods, else 404. */
export function methodNotAllowed(
  app: AppServices,
  reply: Reply,
  segments: string[],
  path: string,
  isGet: boolean,
): void {
  const allowed = new Set(app.routes.endpoints.allowedMethods(segments));
  if (!isGet && pageAnswers(app, segments, path)) {
    allowed.add('GET');
    allowed.add('HEAD');
  }
  if (allowed.size === 0) {
    app.notFound(reply);
    return;
  }
  const allow = [...allowed].sort(compareMethods).join(', ');
  reply.error(405, 'method_not_allowed', `method not allowed; ${path} accepts ${allow}`, { Allow: allow });
}

export function servePageRequest(
  app: AppServices,
  req: IncomingMessage,
  reply: Reply,
  segments: string[],
  path: string,
): void {
  const t = resolvePage(app, segments);
  if (acceptsHtml(req))
    reply.errorPage = t?.page ? app.errorPages.forPage(t.page.entry) : app.errorPages.forPath(segments);
  if (t === undefined) {
    beginTrace(app, req, reply.res, undefined, LaneRoute);
    methodNotAllowed(app, reply, segments, path, true);
  } else if (t.page === undefined) {
    const ctx = beginTrace(app, req, reply.res, undefined, LaneRoute);
    const span = startStage(app, ctx, 'static file', LaneRoute, undefined);
    sendFile(reply, t.file, t.file.cache);
    span.end();
  } else servePage(app, req, reply, t.page, t.params, path, t.file);
}

/** The built file answering this exact (decoded) request path, if the page has one. */
export function pageFile(app: AppServices, page: PageRuntime, path: string): StaticEntry | undefined {
  if (page.fileRoutes.size === 0) return undefined;
  const files = page.entry.files;
  const f = Object.prototype.hasOwnProperty.call(files, path) ? files[path] : undefined;
  return f === undefined ? undefined : app.static.get(f);
}

function servePage(
  app: AppServices,
  req: IncomingMessage,
  reply: Reply,
  page: PageRuntime,
  params: Record<string, string>,
  path: string,
  file: StaticEntry | undefined,
): void {
  const e = page.entry;
  const built = file ?? pageFile(app, page, path);
  const fast = built !== undefined && isPublic(e.guards);
  const parent = beginTrace(app, req, reply.res, page, e.render === 'spa' ? LaneRoute : LaneSSR, !fast);
  if (e.guards.length === 0) {
    deniedWithoutGuard(app, parent, page.sources.decl);
    reply.error(403, 'forbidden', '403 forbidden');
    return;
  }
  // The fast path: a public page built ahead of time.
  if (fast) {
    const span = startStage(app, parent, 'static file', LaneRoute, page.sources.decl);
    sendPageFile(app, req, reply, page, built);
    span.end();
    return;
  }
  if (built === undefined && (e.render === 'spa' || page.template === undefined)) {
    app.notFound(reply);
    return;
  }
  runAsync(app, reply, renderPage(app, req, reply, page, params, built, parent), parent);
}

async function renderPage(
  app: AppServices,
  req: IncomingMessage,
  reply: Reply,
  page: PageRuntime,
  params: Record<string, string>,
  file: StaticEntry | undefined,
  parent: Context,
): Promise<void> {
  const e = page.entry;
  const typed = decodeParams(page, params, reply);
  if (typed === undefined) return;
  const state = requestState(req, reply.res, page, params);
  state.typedParams = typed;
  const done = app.deadlines.add(state, reply);
  try {
    const ctx = requestContext(state, parent);
    if (!isPublic(e.guards) && !(await passGuards(app, page, ctx, reply))) return;
    if (file !== undefined) {
      const span = startStage(app, ctx, 'static file', LaneRoute, page.sources.decl);
      sendPageFile(app, req, reply, page, file);
      span.end();
      return;
    }
    let data: unknown;
    const load = page.load;
    if (load !== undefined && load.ok) {
      const name = e.load?.export ?? '';
      const span = startStage(app, ctx, `load ${name}`, LaneHandler, page.sources.handler);
      if (app.tracer !== undefined) markHandler(span, name);
      try {
        data = await load.handler.fn(stageContext(span, ctx));
      } catch (thrown) {
        const { status, message } = thrownStatus(thrown);
        if (status >= 500) {
          logFault(app, reply, `load of page ${e.pageId} failed`, thrown);
          stageFailed(ctx, span, thrown, `load of page ${e.pageId}`);
        }
        span.end();
        reply.error(status, 'request_failed', message);
        return;
      }
      span.setStatus('ok');
      span.end();
      if (data instanceof Response) {
        // A load answering a Response (a redirect to a login page, say) is request-specific.
        await reply.write(data, { noStore: true });
        return;
      }
    } else if (e.serverFields.length > 0) {
      const message = load && !load.ok ? load.message : `kit load function for page ${e.pageId} is not implemented`;
      reply.error(501, 'handler_not_implemented', message);
      return;
    }
    if (reply.res.headersSent) return;
    const span = startStage(app, ctx, `render ${e.pageId}`, LaneSSR, page.sources.decl);
    const forms = page.tokenForms ? pageForms(app, req) : undefined;
    let body: string;
    try {
      body = renderTemplate(page.template!, data, params, forms?.forms);
    } catch (thrown) {
      stageFailed(ctx, span, thrown, `render of page ${e.pageId}`);
      span.end();
      throw thrown;
    }
    span.setStatus('ok');
    span.end();
    if (app.traceBridge) body = injectBridge(body);
    sendHtml(reply, body, e.cache ?? NO_STORE, forms);
  } finally {
    done();
  }
}

/**
 * A page's built file. A page with a form that posts to this origin is rendered again, with the
 * `paths` record the file was built with, to write its CSRF fields (then `no-store`).
 */
export function sendPageFile(
  app: AppServices,
  req: IncomingMessage,
  reply: Reply,
  page: PageRuntime,
  file: StaticEntry,
): void {
  const template = page.tokenForms ? page.template : undefined;
  if (template !== undefined) {
    const params = page.entry.fileParams?.[file.key] ?? {};
    const forms = pageForms(app, req);
    const html = renderTemplate(template, params, params, forms.forms);
    if (forms.forms.fields > 0) {
      const body = app.traceBridge ? injectBridge(html) : html;
      const headers: Record<string, string | number> = {
        'Content-Type': file.type,
        'Content-Length': Buffer.byteLength(body),
        'Cache-Control': NO_STORE,
        'X-Content-Type-Options': 'nosniff',
      };
      const cookie = forms.cookie();
      if (cookie) headers['Set-Cookie'] = cookie;
      reply.send(200, headers, body);
      return;
    }
  }
  sendFile(reply, file, page.entry.cache ?? 'no-cache');
}

/** Request-time HTML: with CSRF fields written, `no-store` (and a new token's cookie); else the page's policy. */
function sendHtml(reply: Reply, html: string, cache: string, forms: PageForms | undefined): void {
  if (forms === undefined || forms.forms.fields === 0) {
    // The common case in one flat header list (no header object to build and walk).
    const length = Buffer.byteLength(html);
    reply.send(
      200,
      [
        'Content-Type',
        HTML_TYPE,
        'Cache-Control',
        cache,
        'X-Content-Type-Options',
        'nosniff',
        'Content-Length',
        length,
      ],
      html,
    );
    return;
  }
  const headers: Record<string, string | number> = {
    'Content-Type': HTML_TYPE,
    'Cache-Control': NO_STORE,
    'X-Content-Type-Options': 'nosniff',
  };
  const cookie = forms.cookie();
  if (cookie) headers['Set-Cookie'] = cookie;
  headers['Content-Length'] = Buffer.byteLength(html);
  reply.send(200, headers, html);
}

export function sendFile(reply: Reply, file: StaticEntry, cache: string): void {
  reply.send(200, file.headers(cache), file.body());
}
