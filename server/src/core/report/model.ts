// The report model: every page route and every endpoint of a workspace, with the values all
// reports share (rows, records, graphs, tree, hover). Built once per report from the workspace;
// each output is a projection of these objects, so `kit routes` and `kit endpoints` cannot drift.
import type { Range } from '#grammar/index.js';
import { SAFE_METHODS } from '#shared/language/facts.js';
import type { ParsedRoute } from '#shared/route/index.js';
import { parsedRoute } from '../model/route-cache.js';
import type { Workspace } from '../workspace/workspace.js';
import type { FileSummary, ContractRef } from '../model/summary.js';
import type { CommentEndpoint } from '../model/handler-modules.js';
import { effectiveCachePolicy } from '../model/cache-policy.js';
import { limitedActionPaths } from '../model/concrete-paths.js';
import { baseName, dirName, loadFunctionName } from '../model/names.js';
import { packageOfUse } from '../resolve/names.js';
import { findBinding, type BindTargetKind, type HandlerBinding } from '../bind/types.js';
import { endpointHandlerLabel, pageHandlerLabel } from './handler-labels.js';
import type { Directive, EndpointKind, EndpointSource } from './types.js';
import { compareText } from './order.js';

export interface PageInfo {
  summary: FileSummary;
  file: string;
  pageId: string;
  package: string;
  route: string;
  parsed: ParsedRoute;
  /** Effective cache policy. */
  cache?: string;
  handler: string;
  range: Range;
  /** Binding of `Load<PageID>` when the page has `server {}`. */
  load?: HandlerBinding;
}

export interface ContractInfo {
  name: string;
  kind: 'command' | 'query';
  alias?: string;
  /** Package the contract function lives in (resolved through `use` for `alias.Name`). */
  packageName?: string;
  importPath?: string;
  ref: ContractRef;
}

export interface EndpointInfo {
  kind: EndpointKind;
  endpointSource: EndpointSource;
  directive: Directive;
  method: string;
  route: string;
  parsed: ParsedRoute;
  /** The concrete paths it is limited to (a path-less action of a dynamic SPA page). */
  paths?: string[];
  pageId: string;
  package: string;
  packagePath: string;
  packageName: string;
  symbol: string;
  guards: string[];
  csrf: boolean;
  file: string;
  range: Range;
  handler: string;
  binding?: HandlerBinding;
  contract?: ContractInfo;
  /** The owning page (absent for comment endpoints). */
  page?: PageInfo;
  /** Position among the owner's endpoints, for stable ordering. */
  order: number;
}

export interface ReportModel {
  pages: PageInfo[];
  endpoints: EndpointInfo[];
}

function pageInfo(ws: Workspace, s: FileSummary): PageInfo | undefined {
  if (s.kind !== 'page' || !s.route) return undefined;
  const route = s.route.decl.path.value;
  const info: PageInfo = {
    summary: s,
    file: s.path,
    pageId: s.ownerId,
    package: s.packageName,
    route,
    parsed: s.route.parsed,
    handler: pageHandlerLabel(s.ownerId, s.render),
    range: s.route.decl.range,
  };
  const cache = effectiveCachePolicy(s.cache?.value.value, s.revalidate?.value.text);
  if (cache !== undefined) info.cache = cache;
  if (s.server) info.load = findBinding(ws.bindingFor(s.path), 'load', loadFunctionName(s.ownerId));
  return info;
}

interface Declared {
  kind: EndpointKind;
  endpointSource: EndpointSource;
  directive: Directive;
  method: string;
  route: string;
  symbol: string;
  csrf: boolean;
  range: Range;
  contract?: ContractInfo;
}

function pageEndpoints(ws: Workspace, page: PageInfo): EndpointInfo[] {
  const s = page.summary;
  const out: EndpointInfo[] = [];
  const fb = ws.bindingFor(s.path);
  const inherit = (path: { value: string } | undefined) => (path && path.value !== '' ? path.value : page.route);
  const push = (e: Declared, target: BindTargetKind, bindName: string) => {
    const binding = findBinding(fb, target, bindName);
    const c = e.contract;
    out.push({
      kind: e.kind,
      endpointSource: e.endpointSource,
      directive: e.directive,
      method: e.method,
      route: e.route,
      parsed: e.route === page.route ? page.parsed : parsedRoute(e.route),
      pageId: page.pageId,
      package: s.packageName,
      // A contract of another package (`alias.Name`) binds to that package's modules.
      packagePath: c && binding ? binding.dir : s.dir,
      packageName: c?.packageName ?? s.packageName,
      symbol: e.symbol,
      guards: s.guards,
      csrf: e.csrf,
      file: s.path,
      range: e.range,
      handler: c
        ? endpointHandlerLabel(
            e.kind,
            s.packageName,
            e.symbol.slice(e.symbol.lastIndexOf('.') + 1),
            c.packageName ?? s.packageName,
          )
        : endpointHandlerLabel(e.kind, page.pageId, e.symbol),
      binding,
      contract: c,
      page,
      order: out.length,
    });
  };
  for (const a of s.actions) {
    const first = out.length;
    push(
      {
        kind: 'action',
        endpointSource: 'kit',
        directive: 'act',
        method: a.method.text.toUpperCase(),
        route: inherit(a.path),
        symbol: a.symbol.text,
        csrf: true,
        range: a.range,
      },
      'action',
      a.symbol.text,
    );
    // A path-less action of a dynamic SPA page answers only where the page exists: its generated paths.
    const limited = limitedActionPaths(s, page.parsed, a.path);
    if (limited) out[first].paths = limited;
  }
  for (const a of s.apis) {
    const method = a.method.text.toUpperCase();
    push(
      {
        kind: 'api',
        endpointSource: 'kit',
        directive: 'api',
        method,
        route: inherit(a.path),
        symbol: a.symbol.text,
        csrf: !SAFE_METHODS.has(method),
        range: a.range,
      },
      'api',
      a.symbol.text,
    );
  }
  for (const f of s.fragments) {
    push(
      {
        kind: 'fragment',
        endpointSource: 'kit',
        directive: 'fragment',
        method: f.method.text.toUpperCase(),
        route: f.path.value,
        symbol: f.name.text,
        csrf: false,
        range: f.range,
      },
      'fragment',
      f.name.text,
    );
  }
  const seen = new Set<string>();
  for (const c of s.contractRefs) {
    if (!c.name) continue;
    const explicit = c.actionPath?.value;
    // Without an explicit path a contract on a dynamic page has no route (contract_route_invalid).
    if (explicit === undefined && page.parsed.isDynamic) continue;
    const route = explicit ?? page.route;
    const method = c.kind === 'command' ? 'POST' : 'GET';
    const key = `${c.kind} ${c.name} ${method} ${route}`;
    if (seen.has(key)) continue;
    seen.add(key);
    push(
      {
        kind: c.kind,
        endpointSource: 'contract',
        directive: c.kind === 'command' ? 'g:command' : 'g:query',
        method,
        route,
        symbol: c.name,
        csrf: c.kind === 'command',
        range: c.range,
        contract: contractInfo(s, c),
      },
      c.kind,
      c.name,
    );
  }
  return out;
}

function contractInfo(s: FileSummary, c: ContractRef): ContractInfo {
  const dot = c.name.lastIndexOf('.');
  const info: ContractInfo = { name: c.name, kind: c.kind, ref: c };
  if (dot < 0) {
    info.packageName = s.packageName;
    return info;
  }
  info.alias = c.name.slice(0, dot);
  const use = s.uses.get(info.alias);
  if (use) {
    info.packageName = packageOfUse(use.pkg.value);
    info.importPath = use.pkg.value;
  }
  return info;
}

function commentEndpoints(ws: Workspace, dirPackages: Map<string, string>): EndpointInfo[] {
  const out: EndpointInfo[] = [];
  for (const m of ws.allModules()) {
    const dir = dirName(m.path);
    const pkg = dirPackages.get(dir) ?? (baseName(dir) || 'main');
    const fb = ws.bindingFor(m.path);
    m.summary.endpoints.forEach((e: CommentEndpoint, i: number) => {
      const kind: EndpointKind = e.kind === 'act' ? 'action' : 'api';
      out.push({
        kind,
        endpointSource: 'comment',
        directive: e.kind,
        method: e.method,
        route: e.path,
        parsed: parsedRoute(e.path),
        pageId: `${pkg}.${e.functionName}`,
        package: pkg,
        packagePath: dir,
        packageName: pkg,
        symbol: e.functionName,
        guards: e.guards ?? [],
        csrf: kind === 'action' || !SAFE_METHODS.has(e.method),
        file: m.path,
        range: e.range,
        handler: endpointHandlerLabel(kind, pkg, e.functionName),
        binding: findBinding(fb, kind, e.functionName),
        order: i,
      });
    });
  }
  return out;
}

/** Package of each directory holding `.kit` files: the first declared `package` there. */
export function directoryPackages(ws: Workspace): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of ws.allKit()) {
    const s = e.summary;
    if (s.packageDecl && !out.has(s.dir)) out.set(s.dir, s.packageName);
  }
  return out;
}

export function buildReportModel(ws: Workspace): ReportModel {
  const pages: PageInfo[] = [];
  for (const e of ws.allKit()) {
    const p = pageInfo(ws, e.summary);
    if (p) pages.push(p);
  }
  pages.sort((a, b) => compareText(a.pageId, b.pageId) || compareText(a.file, b.file));
  const endpoints: EndpointInfo[] = [];
  for (const p of pages) endpoints.push(...pageEndpoints(ws, p));
  endpoints.push(...commentEndpoints(ws, directoryPackages(ws)));
  endpoints.sort((a, b) => compareText(a.pageId, b.pageId) || compareText(a.file, b.file) || a.order - b.order);
  return { pages, endpoints };
}
