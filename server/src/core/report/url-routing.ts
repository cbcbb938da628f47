// Which page or endpoint answers a request, and which literal links of the workspace reach a route:
// the questions the editor asks of URLs (go to a URL, follow a link, a route's links, renaming a
// route). The answer is the generated app's (`shared/app/app.ts`, `pages.ts`, `routes.ts`): the
// target is checked as the app checks it, a GET with a trailing slash is redirected, endpoints
// answer by exact method before pages, then a concrete page route, a page's built file (a
// `paths {}` record of a dynamic page built ahead), a dynamic page route; a dynamic page built ahead
// answers nothing but its built paths. Routes are ranked by the app's router (`compileRouter`),
// compiled over only the routes whose shape can match the path (found through the `reg:` buckets
// that `broken_internal_link` reads), so a question costs a few bucket lookups whatever the size
// of the site, and the router's precedence among those routes is the whole router's.
import { API_METHODS } from '#shared/language/facts.js';
import type { PathRecord } from '#grammar/index.js';
import {
  checkRequestTarget,
  compileRouter,
  decodeParam,
  matchRoute,
  splitPath,
  toOriginForm,
} from '#shared/route/index.js';
import { limitedActionPaths, prerenderedPaths } from '../model/concrete-paths.js';
import { compareRegistrations, type KitEntry, type WorkspaceView } from '../model/entries.js';
import type { Registration } from '../model/registrations.js';
import type { FileSummary, InternalLink } from '../model/summary.js';
import { linkSegments, visitMatchingRoutes } from '../validate/cross/links.js';
import { bucket } from '../validate/cross/rule.js';

const HEALTH_PATH = '/_kit/health';
const TRACE_MOUNT = '/_kit/traces';

export interface RequestAnswer {
  method: string;
  /**
   * `route`: a page or endpoint of the workspace serves it; `redirect`: 308 to `location`; `kit`:
   * one of kit's own endpoints; `none`: an error status (400, 404, 405).
   */
  outcome: 'route' | 'redirect' | 'kit' | 'none';
  status: number;
  registration?: Registration;
  /** The route's params, decoded (a rest param's segments joined with `/`). */
  params: Record<string, string>;
  /** The `paths {}` record whose built file answers (a dynamic page built ahead of time). */
  record?: PathRecord;
  /** Where a redirect goes. */
  location?: string;
  /** What else decides the answer, or why nothing answers. */
  note?: string;
  /** Methods something answers with at the path (a 405's `Allow`). */
  allow?: string[];
  /** A page whose route matches but that answers nothing here (a dynamic page built ahead). */
  near?: Registration;
}

/** The registrations of `method` whose route matches the decoded `segs`, in global order. */
export type RouteSource = (method: string, segs: readonly string[]) => Registration[];

/** The workspace's routes, as the app would compile them. */
export function workspaceRoutes(view: WorkspaceView): RouteSource {
  return (method, segs) => {
    const out: Registration[] = [];
    visitMatchingRoutes(view, method, segs, (r) => void out.push(r));
    return out.sort(compareRegistrations);
  };
}

function summaryOf(view: WorkspaceView, r: Registration): FileSummary | undefined {
  return r.source === 'comment' ? undefined : view.kit(r.file)?.summary;
}

function none(method: string, status: number, note: string, extra: Partial<RequestAnswer> = {}): RequestAnswer {
  return { method, outcome: 'none', status, params: {}, note, ...extra };
}

function served(method: string, r: Registration, params: Record<string, string>, view: WorkspaceView): RequestAnswer {
  const answer: RequestAnswer = { method, outcome: 'route', status: 200, registration: r, params };
  const s = summaryOf(view, r);
  if (s && s.guards.length === 0 && r.source !== 'comment') {
    answer.status = 403;
    answer.note = `denied: ${r.kind === 'page' ? 'the page' : 'its page'} declares no guard`;
  }
  // The type of a param never decides which route answers, only whether its value decodes.
  for (const p of r.route.params) {
    const v = params[p.name];
    if (p.type !== 'string' && v !== undefined && !decodeParam(p.type, v).ok) {
      answer.status = 400;
      answer.note = `"${v}" does not decode as {${p.name}:${p.type}}`;
    }
  }
  return answer;
}

/**
 * The route the app's router picks among `candidates` (all of them match `segs`): the router
 * compiled over them, or the one candidate itself (most paths have one).
 */
function best(
  candidates: readonly Registration[],
  method: string,
  segs: readonly string[],
): { value: Registration; params: Record<string, string>; route: Registration['route'] } | undefined {
  if (candidates.length === 1) {
    const r = candidates[0];
    const params = matchRoute(r.route, segs);
    return params && { value: r, params, route: r.route };
  }
  if (candidates.length === 0) return undefined;
  return compileRouter(candidates.map((r) => ({ method: r.method, pattern: r.route, value: r }))).router.lookup(
    method,
    segs,
  );
}

/** The paths a path-less action of a dynamic SPA page answers at, else undefined (it answers its route). */
function limitedPaths(view: WorkspaceView, r: Registration): string[] | undefined {
  if (r.kind !== 'action' || r.source !== 'kit') return undefined;
  const s = summaryOf(view, r);
  const decl = s?.actions.find((a) => a.range === r.range);
  return s && decl ? limitedActionPaths(s, r.route, decl.path) : undefined;
}

/**
 * The endpoint the app's endpoint router answers with (`routes.ts` `ConcretePathRoutes`). A query
 * contract answers only requests that ask for JSON: for others (`json` false) the app goes on to
 * the pages, whichever endpoint would rank next.
 */
function endpointAnswer(
  view: WorkspaceView,
  candidates: readonly Registration[],
  method: string,
  segs: readonly string[],
  json: boolean,
): RequestAnswer | undefined {
  const open: Registration[] = [];
  const here = '/' + segs.join('/');
  for (const r of candidates) {
    if (r.kind === 'page') continue;
    const paths = limitedPaths(view, r);
    if (paths === undefined) open.push(r);
    else if (paths.includes(here)) return served(method, r, matchRoute(r.route, splitPath(here)) ?? {}, view);
  }
  const m = best(open, method, segs);
  return m && (json || m.value.kind !== 'query') ? served(method, m.value, m.params, view) : undefined;
}

function sameSegments(path: string, segs: readonly string[]): boolean {
  const t = checkRequestTarget(path);
  return t.ok && t.segments.length === segs.length && t.segments.every((s, i) => s === segs[i]);
}

/** The page a GET answers with (`pages.ts` `resolvePage`), or undefined when no page answers. */
function pageAnswer(view: WorkspaceView, candidates: readonly Registration[], segs: readonly string[]): RequestAnswer {
  const pages = candidates.filter((r) => r.kind === 'page');
  const m = best(pages, 'GET', segs);
  if (m && !m.route.isDynamic) return served('GET', m.value, m.params, view);
  for (const r of pages) {
    const s = r.route.isDynamic ? summaryOf(view, r) : undefined;
    if (!s) continue;
    for (const c of prerenderedPaths(s, r.route))
      if (sameSegments(c.path, segs)) return { ...served('GET', r, c.params, view), record: c.record };
  }
  if (m) {
    if (summaryOf(view, m.value)?.render !== 'spa') return served('GET', m.value, m.params, view);
    return none('GET', 404, `${m.value.owner} is built ahead of time at its paths {} only`, { near: m.value });
  }
  return none('GET', 404, 'no page or GET endpoint answers');
}

/**
 * Every method something answers with at `segs` (pages count for GET), in the order of `API_METHODS`
 * (the methods a route can be declared with: pages and fragments GET, actions POST, APIs any of them).
 */
function allowedAt(view: WorkspaceView, routes: RouteSource, segs: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of API_METHODS) {
    const candidates = routes(m, segs);
    if (endpointAnswer(view, candidates, m, segs, false)) out.push(m);
    else if (m === 'GET' && pageAnswer(view, candidates, segs).outcome === 'route') out.push(m);
  }
  return out;
}

export interface RequestOptions {
  /** The request asks for JSON (`Accept: application/json`): query contracts answer it. */
  json?: boolean;
  routes?: RouteSource;
}

/**
 * What the generated app answers to `method` at `target` (a request path, query and fragment
 * allowed, or an absolute `http(s)` URL): a GET with a trailing slash is the redirect, not where it
 * leads (`finalAnswer`).
 */
export function answerRequest(
  view: WorkspaceView,
  method: string,
  target: string,
  options: RequestOptions = {},
): RequestAnswer {
  const routes = options.routes ?? workspaceRoutes(view);
  const t = checkRequestTarget(toOriginForm(target));
  if (!t.ok) return none(method, t.status, t.reason);
  const getLike = method === 'GET' || method === 'HEAD';
  if (t.path === TRACE_MOUNT || t.path.startsWith(TRACE_MOUNT + '/'))
    return {
      method,
      outcome: 'kit',
      status: 200,
      params: {},
      note: 'the trace viewer (loopback only, with tracing on)',
    };
  if (t.path === HEALTH_PATH && getLike)
    return { method, outcome: 'kit', status: 200, params: {}, note: 'health check' };
  if (t.trailingSlash && getLike)
    return { method, outcome: 'redirect', status: 308, params: {}, location: t.rawPath.slice(0, -1) + t.query };
  const segs = t.segments;
  // HEAD is GET for pages only: endpoints answer their exact method.
  const candidates = routes(getLike ? 'GET' : method, segs);
  if (method !== 'HEAD') {
    const ep = endpointAnswer(view, candidates, method, segs, options.json === true);
    if (ep) return ep;
  }
  if (getLike) {
    const page = pageAnswer(view, candidates, segs);
    // A page that matched answers, if only with a 404 (a dynamic page built ahead, not at this path).
    if (page.outcome === 'route' || page.near) return { ...page, method };
    const allow = allowedAt(view, routes, segs);
    return allow.length > 0 ? none(method, 405, `${t.path} accepts ${allow.join(', ')}`, { allow }) : page;
  }
  const allow = allowedAt(view, routes, segs);
  return allow.length > 0
    ? none(method, 405, `${t.path} accepts ${allow.join(', ')}`, { allow })
    : none(method, 404, 'nothing answers');
}

/** `answerRequest`, past a trailing-slash redirect (its `location` kept in the answer). */
export function finalAnswer(
  view: WorkspaceView,
  method: string,
  target: string,
  options: RequestOptions = {},
): RequestAnswer {
  const a = answerRequest(view, method, target, options);
  if (a.outcome !== 'redirect' || a.location === undefined) return a;
  return { ...answerRequest(view, method, a.location, options), location: a.location };
}

/**
 * What each method answers at `target`: GET always (a page, an endpoint or why not; an HTML
 * request), a query contract's answer to a JSON GET when it differs, then every other method some
 * endpoint answers with there.
 */
export function answersAt(view: WorkspaceView, target: string, routes = workspaceRoutes(view)): RequestAnswer[] {
  const out = [answerRequest(view, 'GET', target, { routes })];
  const t = checkRequestTarget(toOriginForm(target));
  if (!t.ok || out[0].outcome === 'redirect' || out[0].outcome === 'kit') return out;
  const json = endpointAnswer(view, routes('GET', t.segments), 'GET', t.segments, true);
  if (json?.registration?.kind === 'query') out.push({ ...json, note: 'for requests that ask for JSON' });
  // Only endpoints answer other methods.
  for (const m of API_METHODS) {
    if (m === 'GET') continue;
    const a = endpointAnswer(view, routes(m, t.segments), m, t.segments, false);
    if (a) out.push(a);
  }
  return out;
}

/** A literal link of a `.kit` file (`<a href>`, a plain form's `action`) and what the app answers to it. */
export interface ReachingLink {
  file: string;
  link: InternalLink;
  answer: RequestAnswer;
}

/** Answers by `<METHOD> <path>` (query and fragment cut), for one question over many links. */
export type AnswerMemo = Map<string, RequestAnswer>;

const urlShapes = new WeakMap<KitEntry, string>();

/**
 * What of a `.kit` file the answers above read: its registrations, render mode, guards, `paths {}`
 * records and which actions have a path. Two versions of one shape answer every request alike, so
 * answers remembered for the workspace stay true across an edit that leaves every file's URL shape
 * as it was (`AnswerMemo` holders drop only those pointing into the edited files: their
 * registrations and records are new objects).
 */
export function urlShape(e: KitEntry): string {
  let shape = urlShapes.get(e);
  if (shape !== undefined) return shape;
  const s = e.summary;
  shape = `${s.kind} ${s.render} ${s.guards.join(',')}\n`;
  for (const r of e.registrations) shape += `${r.kind} ${r.method} ${r.route.pattern} ${r.owner} ${r.order}\n`;
  for (const rec of s.paths?.records ?? [])
    shape += `=> ${rec.fields.map((f) => `${f.name.text}:${'kind' in f.value ? '?' : f.value.value}`).join(',')}\n`;
  for (const a of s.actions) shape += `act ${a.path?.value ?? ''}\n`;
  urlShapes.set(e, shape);
  return shape;
}

/** The `AnswerMemo` key of a link: its method and path, query and fragment cut. */
export function answerKey(link: InternalLink): string {
  const cut = link.href.search(/[?#]/);
  return `${link.method} ${cut < 0 ? link.href : link.href.slice(0, cut)}`;
}

/** What the app answers to a link, past a trailing-slash redirect; undefined for a link that is no request path. */
export function linkAnswer(
  view: WorkspaceView,
  link: InternalLink,
  memo: AnswerMemo = new Map(),
  routes: RouteSource = workspaceRoutes(view),
): RequestAnswer | undefined {
  if (linkSegments(link.href) === undefined) return undefined;
  const key = answerKey(link);
  let a = memo.get(key);
  if (a === undefined)
    memo.set(key, (a = finalAnswer(view, link.method, key.slice(link.method.length + 1), { routes })));
  return a;
}

/**
 * The first segments of the links that may reach a route (`''` for `/`), or undefined when any may
 * (a route starting with a param).
 */
function firstSegments(targets: readonly Registration[]): Set<string> | undefined {
  const firsts = new Set<string>();
  for (const r of targets) {
    const first = r.route.segments[0];
    if (first !== undefined && first.kind !== 'static') return undefined;
    firsts.add(first?.kind === 'static' ? first.value : '');
  }
  return firsts;
}

/** The `.kit` files whose links may reach a route: those linking under its first segments (`link:` buckets), or all. */
function linkingFiles(
  view: WorkspaceView,
  firsts: ReadonlySet<string> | undefined,
): Iterable<{ path: string; summary: FileSummary }> {
  if (!firsts) return view.allKit();
  const out = new Map<string, { path: string; summary: FileSummary }>();
  for (const f of firsts) for (const e of view.kitMembers(bucket('link', f))) out.set(e.path, e);
  return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * Every literal link of the workspace that the app answers with one of `targets`, in file order;
 * a link to a dynamic page built ahead counts even at a path none of its records makes (the app
 * answers 404 there, but the link is written for that page).
 */
export function linksReaching(
  view: WorkspaceView,
  targets: readonly Registration[],
  memo: AnswerMemo = new Map(),
  routes: RouteSource = workspaceRoutes(view),
): ReachingLink[] {
  const wanted = new Set(targets);
  const methods = new Set(targets.map((r) => r.method));
  const firsts = firstSegments(targets);
  const out: ReachingLink[] = [];
  for (const e of linkingFiles(view, firsts)) {
    for (const link of e.summary.links) {
      if (!methods.has(link.method)) continue;
      // A file of the bucket links elsewhere too: only links under the route's first segment can reach it.
      const first = linkSegments(link.href)?.[0] ?? '';
      if (firsts && !firsts.has(first)) continue;
      const answer = linkAnswer(view, link, memo, routes);
      const r = answer?.registration ?? answer?.near;
      if (answer && r && wanted.has(r)) out.push({ file: e.path, link, answer });
    }
  }
  return out;
}
