// Route registrations: every (method, route) a file claims — its page route, its actions, APIs,
// fragments and command/query contracts, and the `//kit:` comment endpoints of handler modules.
// Conflict, duplicate and ambiguity rules compare registrations, never raw declarations.
import type { Range } from '#grammar/index.js';
import type { ParsedRoute } from '#shared/route/index.js';
import { exactSize } from './exact-size.js';
import { parsedRoute } from './route-cache.js';
import type { FileSummary } from './summary.js';
import type { CommentEndpoint } from './handler-modules.js';

export type RegistrationKind = 'page' | 'action' | 'api' | 'fragment' | 'command' | 'query';

export interface Registration {
  kind: RegistrationKind;
  source: 'kit' | 'comment' | 'contract';
  method: string;
  route: ParsedRoute;
  /** `page home`, `action inbox.Archive`, `api site.Stats`, `command contract Save`. */
  owner: string;
  file: string;
  /** Where a diagnostic about this registration points. */
  range: Range;
  /** Position inside its file, for the global "first declared" order. */
  order: number;
  pageId?: string;
  /** Contract name, for the identical-reference exemption. */
  contract?: string;
}

/** The route an endpoint without its own path inherits. */
function endpointRoute(s: FileSummary, path: { value: string } | undefined): ParsedRoute | undefined {
  if (path && path.value !== '') return parsedRoute(path.value);
  return s.route?.parsed;
}

/** What the workspace keeps for every file (`exactSize`). */
export function fileRegistrations(s: FileSummary): Registration[] {
  return exactSize(pageRegistrations(s));
}

function pageRegistrations(s: FileSummary): Registration[] {
  const regs: Registration[] = [];
  if (s.kind !== 'page') return regs;
  const pageId = s.ownerId;
  let order = 0;
  const pageRoute = s.route?.parsed;
  if (s.route && pageRoute && pageRoute.valid) {
    regs.push({
      kind: 'page',
      source: 'kit',
      method: 'GET',
      route: pageRoute,
      owner: `page ${pageId}`,
      file: s.path,
      range: s.route.decl.range,
      order: order++,
      pageId,
    });
  }
  // Inline endpoints register only when the page route itself is valid (an invalid route registers nothing).
  if (!pageRoute || !pageRoute.valid) return regs;
  for (const a of s.actions) {
    const r = endpointRoute(s, a.path);
    if (r && r.valid && !r.hasRest)
      regs.push({
        kind: 'action',
        source: 'kit',
        method: a.method.text.toUpperCase(),
        route: r,
        owner: `action ${pageId}.${a.symbol.text}`,
        file: s.path,
        range: a.range,
        order: order++,
        pageId,
      });
  }
  for (const a of s.apis) {
    const r = endpointRoute(s, a.path);
    if (r && r.valid && !r.hasRest)
      regs.push({
        kind: 'api',
        source: 'kit',
        method: a.method.text.toUpperCase(),
        route: r,
        owner: `api ${pageId}.${a.symbol.text}`,
        file: s.path,
        range: a.range,
        order: order++,
        pageId,
      });
  }
  for (const f of s.fragments) {
    const r = parsedRoute(f.path.value);
    if (r.valid)
      regs.push({
        kind: 'fragment',
        source: 'kit',
        method: f.method.text.toUpperCase(),
        route: r,
        owner: `fragment ${pageId}.${f.name.text}`,
        file: s.path,
        range: f.range,
        order: order++,
        pageId,
      });
  }
  for (const c of s.contractRefs) {
    if (!c.name) continue;
    const explicit = c.actionPath?.value;
    if (explicit === undefined && pageRoute.isDynamic) continue; // contract_route_invalid reports it
    const r = explicit !== undefined ? parsedRoute(explicit) : pageRoute;
    if (!r.valid || r.isDynamic) continue;
    regs.push({
      kind: c.kind,
      source: 'contract',
      method: c.kind === 'command' ? 'POST' : 'GET',
      route: r,
      owner: `${c.kind} contract ${c.name}`,
      file: s.path,
      range: c.range,
      order: order++,
      pageId,
      contract: c.name,
    });
  }
  return regs;
}

export function commentRegistrations(path: string, packageName: string, endpoints: CommentEndpoint[]): Registration[] {
  const regs: Registration[] = [];
  let order = 0;
  for (const e of endpoints) {
    const r = parsedRoute(e.path);
    if (!r.valid || r.hasRest) continue;
    regs.push({
      kind: e.kind === 'act' ? 'action' : 'api',
      source: 'comment',
      method: e.method.toUpperCase(),
      route: r,
      owner: `${e.kind} ${packageName}.${e.functionName}`,
      file: path,
      range: e.range,
      order: order++,
      pageId: `${packageName}.${e.functionName}`,
    });
  }
  return regs;
}
