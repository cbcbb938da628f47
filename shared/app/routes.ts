// Start-up compilation of the route table: routers for pages and endpoints, bound handler
// functions, and the frozen metadata objects `app.route(ctx)` / `app.endpoint(ctx)` return.
import {
  compareMethods,
  compileRouter,
  matchRoute,
  parseRoutePattern,
  splitPath,
  type ParsedRoute,
  type RouteMatch,
  type Router,
} from '../route/index.js';
import { hasTokenForms, type Template } from '../render/index.js';
import type { EndpointInfo, RouteInfo } from './context.js';
import type { AppManifest, EndpointEntry, FieldConstraint, HandlerRef, InputField, PageEntry } from './manifest.js';
import type { SignatureKind } from './manifest.js';
import type { CorsPolicy } from './manifest.js';
import { endpointSources, pageSources, type StageSources } from './stage-sources.js';
import { checkPatterns } from './constraints.js';

// Handlers take the request context and, depending on their signature, one more argument.
export type HandlerFn = (ctx: unknown, arg?: unknown) => unknown;

export interface BoundHandler {
  fn: HandlerFn;
  signature: SignatureKind;
  fields: readonly InputField[];
}

/** A handler reference resolved against the loaded modules: bound, or why not (for the 501). */
export type Resolution = { ok: true; handler: BoundHandler } | { ok: false; message: string };

export interface PageRuntime {
  entry: PageEntry;
  parsed: ParsedRoute;
  info: RouteInfo;
  readonly template?: Template;
  /**
   * Its template holds a form that may post to this origin: rendered per request with a CSRF
   * token (`shared/render/forms.ts`), its built files too.
   */
  readonly tokenForms: boolean;
  load?: Resolution;
  /** Request path of each built file (file key → `/blog/hello-kit`), for params of file-served pages. */
  fileRoutes: Map<string, string>;
  /** Where the stage spans of its requests point. */
  sources: StageSources;
}

/** The templates the compiled routes render, by key: one holder, given new templates in place (`refreshTemplates`). */
interface TemplateTable {
  templates: AppManifest['templates'];
}

/**
 * A page's route at run time. Its template is looked up by key, and asked whether it has forms,
 * when the page is rendered: a page nobody asks for costs nothing (and `kit dev` compiles a page's
 * template only then), and new templates are one assignment to the shared table.
 */
class PageRoute implements PageRuntime {
  readonly fileRoutes = new Map<string, string>();
  constructor(
    readonly entry: PageEntry,
    readonly parsed: ParsedRoute,
    readonly info: RouteInfo,
    readonly load: Resolution | undefined,
    readonly sources: StageSources,
    private readonly table: TemplateTable,
  ) {}
  get template(): Template | undefined {
    const key = this.entry.template;
    return key === undefined ? undefined : this.table.templates[key];
  }
  /** The template last asked about its forms, and the answer (rendering asks on every request). */
  private asked: Template | undefined;
  private forms = false;
  get tokenForms(): boolean {
    const t = this.template;
    if (t !== this.asked) {
      this.asked = t;
      this.forms = t !== undefined && hasTokenForms(t);
    }
    return this.forms;
  }
}

export interface EndpointRuntime {
  entry: EndpointEntry;
  parsed: ParsedRoute;
  info: RouteInfo;
  endpoint: EndpointInfo;
  handler: Resolution;
  /** APIs and contracts answer errors as the JSON envelope. */
  json: boolean;
  cors?: CorsPolicy;
  fragmentTemplate?: Template;
  partialTargets?: ReadonlySet<string>;
  /** Actions: the page a failed or `showPage` submission re-renders. */
  page?: PageRuntime;
  constraints?: readonly FieldConstraint[];
  sources: StageSources;
}

export type Modules = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

const SIGNATURES_BY_KIND: Record<string, readonly SignatureKind[]> = {
  action: ['action0', 'action_input', 'action_form'],
  api: ['api'],
  fragment: ['fragment'],
  load: ['load'],
  command: ['command0', 'command_input'],
  query: ['query0', 'query_input'],
};

const FIELD_TYPES = new Set(['string', 'number', 'boolean', 'string[]', 'file', 'file[]']);

function notImplemented(kind: string, ref: HandlerRef | undefined, name: string): string {
  if (ref?.message) return ref.message;
  const what =
    kind === 'load'
      ? 'load function'
      : kind === 'api'
        ? 'API handler'
        : kind === 'command' || kind === 'query'
          ? `${kind} contract`
          : kind === 'fragment'
            ? 'fragment hook'
            : 'action handler';
  return `kit ${what} ${name} is not implemented`;
}

export function resolveHandler(kind: string, ref: HandlerRef | undefined, modules: Modules, name: string): Resolution {
  if (!ref || ref.status !== 'bound' || !ref.module || !ref.signature)
    return { ok: false, message: notImplemented(kind, ref, name) };
  if (!(SIGNATURES_BY_KIND[kind] ?? []).includes(ref.signature))
    return { ok: false, message: `kit ${kind} ${name} has an unsupported signature (${ref.signature})` };
  const mod = modules[ref.module];
  const fn = mod && Object.prototype.hasOwnProperty.call(mod, ref.export) ? mod[ref.export] : undefined;
  if (typeof fn !== 'function') return { ok: false, message: notImplemented(kind, undefined, name) };
  const fields = ref.inputFields ?? [];
  if (ref.signature.endsWith('_input') && fields.some((f) => !FIELD_TYPES.has(f.type))) {
    return { ok: false, message: `kit ${kind} ${name} takes an input type with fields forms cannot carry` };
  }
  return { ok: true, handler: { fn: fn as HandlerFn, signature: ref.signature, fields } };
}

function routeParams(parsed: ParsedRoute): { name: string; type: string }[] {
  return parsed.params.map((p) => Object.freeze({ name: p.name, type: p.type }));
}

function pageInfo(p: PageEntry, parsed: ParsedRoute): RouteInfo {
  return Object.freeze({
    kind: 'page' as const,
    pageId: p.pageId,
    method: 'GET',
    path: p.route,
    render: p.render,
    cache: p.cache,
    guards: Object.freeze([...p.guards]),
    layouts: Object.freeze([...p.layouts]),
    dynamicParams: Object.freeze(parsed.params.map((x) => x.name).sort()),
    routeParams: Object.freeze(routeParams(parsed)),
    hasLoad: p.load !== undefined,
  });
}

function endpointInfo(e: EndpointEntry, parsed: ParsedRoute): RouteInfo {
  return Object.freeze({
    kind: e.kind,
    pageId: e.pageId,
    method: e.method,
    path: e.route,
    guards: Object.freeze([...e.guards]),
    layouts: Object.freeze([] as string[]),
    dynamicParams: Object.freeze(parsed.params.map((x) => x.name).sort()),
    routeParams: Object.freeze(routeParams(parsed)),
    hasLoad: false,
  });
}

export interface CompiledRoutes {
  pages: Router<PageRuntime>;
  endpoints: Router<EndpointRuntime>;
  pageList: PageRuntime[];
  endpointList: EndpointRuntime[];
  /** Static file key → the page it was built for. */
  fileOwners: Map<string, PageRuntime>;
  /** Problems found at start-up (route table inconsistencies): logged, never fatal for other routes. */
  warnings: string[];
  /** The pages' templates (`PageRoute`). */
  templates: TemplateTable;
}

/**
 * Points compiled routes at new templates of the same keys (`KitApp.replaceContent`); routers,
 * handlers and everything else stay as compiled.
 */
export function refreshTemplates(routes: CompiledRoutes, templates: AppManifest['templates']): void {
  routes.templates.templates = templates;
  for (const ep of routes.endpointList) {
    const key = ep.entry.fragment?.template;
    if (key !== undefined) ep.fragmentTemplate = templates[key];
  }
}

export function compileRoutes(manifest: AppManifest, modules: Modules): CompiledRoutes {
  const warnings: string[] = [];
  const pageList: PageRuntime[] = [];
  const fileOwners = new Map<string, PageRuntime>();
  const templates: TemplateTable = { templates: manifest.templates };
  for (const p of manifest.pages) {
    const parsed = parseRoutePattern(p.route);
    const load = p.load ? resolveHandler('load', p.load, modules, p.load.export) : undefined;
    const rt = new PageRoute(p, parsed, pageInfo(p, parsed), load, pageSources(p), templates);
    for (const [requestPath, file] of Object.entries(p.files)) {
      rt.fileRoutes.set(file, requestPath);
      fileOwners.set(file, rt);
    }
    pageList.push(rt);
  }
  const pagesById = new Map(pageList.map((p) => [p.entry.pageId, p]));
  const endpointList: EndpointRuntime[] = manifest.endpoints.map((e) => {
    const parsed = parseRoutePattern(e.route);
    if (e.constraints !== undefined) checkPatterns(e.constraints, `action ${e.pageId}.${e.symbol}`);
    const json = e.kind === 'api' || e.kind === 'command' || e.kind === 'query';
    return {
      entry: e,
      parsed,
      info: endpointInfo(e, parsed),
      endpoint: Object.freeze({ kind: e.kind, pageId: e.pageId, name: e.symbol, method: e.method, path: e.route }),
      handler: resolveHandler(e.kind, e.handler, modules, `${e.pageId}.${e.symbol}`),
      json,
      cors: e.cors,
      fragmentTemplate: e.fragment?.template !== undefined ? manifest.templates[e.fragment.template] : undefined,
      partialTargets: e.partialTargets ? new Set(e.partialTargets) : undefined,
      page: e.kind === 'action' ? pagesById.get(e.pageId) : undefined,
      constraints: e.constraints,
      sources: endpointSources(e),
    };
  });
  const pages = compileRouter(pageList.map((p) => ({ method: 'GET', pattern: p.parsed, value: p })));
  for (const err of pages.errors) warnings.push(`page ${pageList[err.index].entry.pageId}: ${err.message}`);
  const open = endpointList.filter((e) => e.entry.paths === undefined);
  const endpoints = compileRouter(open.map((e) => ({ method: e.entry.method, pattern: e.parsed, value: e })));
  for (const err of endpoints.errors)
    warnings.push(
      `${open[err.index].entry.kind} ${open[err.index].entry.pageId}.${open[err.index].entry.symbol}: ${err.message}`,
    );
  const limited = new ConcretePathRoutes(endpoints.router);
  for (const e of endpointList) if (e.entry.paths !== undefined) limited.add(e, e.entry.paths);
  return { pages: pages.router, endpoints: limited, pageList, endpointList, fileOwners, warnings, templates };
}

/**
 * The endpoint router plus the endpoints limited to concrete paths (a path-less action of a
 * dynamic SPA page): those answer at exactly their paths, with the params of their route.
 */
class ConcretePathRoutes implements Router<EndpointRuntime> {
  private readonly byPath = new Map<string, RouteMatch<EndpointRuntime>>();
  private readonly methodsByPath = new Map<string, Set<string>>();

  constructor(private readonly router: Router<EndpointRuntime>) {}

  get size(): number {
    return this.router.size + this.byPath.size;
  }

  add(e: EndpointRuntime, paths: readonly string[]): void {
    for (const path of paths) {
      const params = matchRoute(e.parsed, splitPath(path));
      if (params === undefined) continue;
      this.byPath.set(`${e.entry.method} ${path}`, { value: e, params, route: e.parsed });
      let methods = this.methodsByPath.get(path);
      if (!methods) this.methodsByPath.set(path, (methods = new Set()));
      methods.add(e.entry.method);
    }
  }

  lookup(method: string, segments: readonly string[]): RouteMatch<EndpointRuntime> | undefined {
    if (this.byPath.size > 0) {
      const hit = this.byPath.get(`${method} /${segments.join('/')}`);
      if (hit !== undefined) return hit;
    }
    return this.router.lookup(method, segments);
  }

  allowedMethods(segments: readonly string[]): string[] {
    const methods = this.byPath.size > 0 ? this.methodsByPath.get(`/${segments.join('/')}`) : undefined;
    if (methods === undefined) return this.router.allowedMethods(segments);
    return [...new Set([...this.router.allowedMethods(segments), ...methods])].sort(compareMethods);
  }
}

/** Route params of a page served from one of its built files. */
export function paramsForFile(page: PageRuntime, file: string): Record<string, string> {
  const requestPath = page.fileRoutes.get(file);
  if (requestPath === undefined || !page.parsed.isDynamic) return {};
  const segments = splitPath(requestPath);
  return matchRoute(page.parsed, segments) ?? {};
}
