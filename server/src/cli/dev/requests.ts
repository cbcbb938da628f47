// What `kit dev` asks of a request before the app answers it: whether a browser navigates to it
// (its answer is what the tab shows, so errors become the overlay), whether its origin may change
// state, which page it reads, and whether it may need the handler modules the start still binds.
import type { IncomingMessage } from 'node:http';
import type { KitApp } from '#shared/app/app.js';
import { originAllowed } from '#shared/app/cors.js';
import { resolvePage } from '#shared/app/pages.js';
import { SAFE_METHODS } from '#shared/language/facts.js';
import { checkRequestTarget } from '#shared/route/index.js';
import { isSameOriginRequest } from '#shared/trace/http-origin.js';
import type { DevSession } from './session.js';

/**
 * Whether a request is a browser's navigation (its answer is what the tab shows), not a script's:
 * `Sec-Fetch-Dest` says so where a browser sends it (`document` or a frame; a page's `fetch` is
 * `empty`); else an HTML request kit.js did not make (kit.js marks its own with `X-Kit-*`).
 */
export function isNavigation(req: IncomingMessage): boolean {
  const dest = req.headers['sec-fetch-dest'];
  if (dest !== undefined) return dest === 'document' || dest === 'iframe' || dest === 'frame';
  if (req.headers['x-kit-partial'] !== undefined || req.headers['x-kit-navigate'] !== undefined) return false;
  return (req.headers.accept ?? '').includes('text/html');
}

/**
 * Whether a state-changing request may come from where its `Origin` says: this server's own origin,
 * or one the endpoint's `cors` declares (the app then answers it as its CORS policy says). Tools
 * that send no `Origin` (curl, tests) are not browsers a foreign page drives: they pass.
 */
export function originOk(app: KitApp | undefined, req: IncomingMessage, path: string): boolean {
  if (SAFE_METHODS.has(req.method ?? 'GET') || req.headers.origin === undefined) return true;
  if (isSameOriginRequest(req)) return true;
  const t = checkRequestTarget(path);
  const ep = app !== undefined && t.ok ? app.routes.endpoints.lookup(req.method ?? '', t.segments) : undefined;
  return ep?.value.cors !== undefined && originAllowed(ep.value.cors, req.headers.origin);
}

export function pageIdOf(app: KitApp | undefined, path: string): string | undefined {
  if (app === undefined) return undefined;
  const t = checkRequestTarget(path);
  if (!t.ok) return undefined;
  return resolvePage(app, t.segments)?.page?.entry.pageId;
}

/**
 * Whether a request may need a handler module or the config (anything but a page read without a
 * load): while the start's checks run, the app has neither, and such a request waits for them.
 */
export function needsHandlers(session: DevSession, app: KitApp, req: IncomingMessage, path: string): boolean {
  if (path.startsWith('/_kit/')) return false;
  if (session.routeTable?.configModule !== undefined) return true;
  if (req.method !== 'GET' && req.method !== 'HEAD') return true;
  const t = checkRequestTarget(path);
  if (!t.ok) return false; // the app answers 400 without either
  const entry = resolvePage(app, t.segments)?.page?.entry;
  return entry === undefined || entry.load !== undefined;
}
