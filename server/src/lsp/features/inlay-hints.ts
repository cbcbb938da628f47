// Inlay hints: what kit derives and the source does not spell out. After a path-less action or API,
// the method and path it answers (`→ POST /blog/{slug}`); after `param("id")` of a typed route
// param, the type it decodes to; after `revalidate`, the Cache-Control the page is served with;
// after each endpoint of a page, the guards it inherits from the page (guards are declared by
// pages only: layouts cannot declare them). Each kind is a client setting, `kit.inlayHints.<kind>`
// (default on). Hints are computed from the file alone, and only for the range asked for.
import { InlayHintKind, type InlayHint, type Range as LspRange } from 'vscode-languageserver';
import type { Expr, MarkupNode, Pos, Range } from '#grammar/index.js';
import type { ParamType, ParsedRoute } from '#shared/route/index.js';
import { effectiveCachePolicy } from '#core/model/cache-policy.js';
import { limitedActionPaths } from '#core/model/concrete-paths.js';
import { parsedRoute } from '#core/model/route-cache.js';
import { offsetOf, toPosition } from '../convert.js';
import type { FeatureContext } from './context.js';

export const INLAY_HINT_KINDS = ['derivedRoutes', 'paramTypes', 'cachePolicy', 'inheritedGuards'] as const;
export type InlayHintKindName = (typeof INLAY_HINT_KINDS)[number];

/** Which kinds of hints the client wants: `kit.inlayHints.<kind>` of the settings, each on unless false. */
export class InlayHintSettings {
  private readonly off = new Set<InlayHintKindName>();

  /** Reads the `kit` settings section; true when a kind was turned on or off. */
  configure(kit: unknown): boolean {
    const section = (kit as { inlayHints?: unknown } | null | undefined)?.inlayHints;
    let changed = false;
    for (const k of INLAY_HINT_KINDS) {
      const value =
        typeof section === 'object' && section !== null ? (section as Record<string, unknown>)[k] : undefined;
      const off = value === false;
      if (off !== this.off.has(k)) {
        changed = true;
        if (off) this.off.add(k);
        else this.off.delete(k);
      }
    }
    return changed;
  }

  enabled(kind: InlayHintKindName): boolean {
    return !this.off.has(kind);
  }
}

function hint(at: Pos, label: string, tooltip: string): InlayHint {
  return { position: toPosition(at), label, paddingLeft: true, tooltip };
}

/** A type right after what it types (`param("id"): int`). */
function typeHint(at: Pos, label: string, tooltip: string): InlayHint {
  return { position: toPosition(at), label, kind: InlayHintKind.Type, tooltip };
}

function guardsLabel(guards: readonly string[]): string {
  return guards.length ? `guard ${guards.join(', ')}` : 'no guard: denied (403)';
}

/** The `param("x")` calls of an expression. */
function paramCalls(e: Expr, out: { name: string; end: Pos }[]): void {
  switch (e.type) {
    case 'param':
      out.push({ name: e.name.value, end: e.range.end });
      return;
    case 'not':
      return paramCalls(e.expr, out);
    case 'binary':
      paramCalls(e.left, out);
      return paramCalls(e.right, out);
    case 'for':
      return paramCalls(e.collection, out);
    default:
      return;
  }
}

function overlaps(r: Range, from: number, to: number): boolean {
  return r.end.offset >= from && r.start.offset <= to;
}

/** Every `param("x")` of the markup between the offsets, in document order. */
function markupParamCalls(nodes: readonly MarkupNode[], from: number, to: number, out: { name: string; end: Pos }[]) {
  for (const n of nodes) {
    if (!overlaps(n.range, from, to)) continue;
    if (n.type === 'interp') paramCalls(n.expr, out);
    if (n.type !== 'element') continue;
    for (const a of n.attrs) {
      if (!a.value) continue;
      if (a.value.type === 'expr') paramCalls(a.value.expr, out);
      else for (const p of a.value.parts) if (p.type === 'interp') paramCalls(p.expr, out);
    }
    markupParamCalls(n.children, from, to, out);
  }
}

function paramTypeHints(route: ParsedRoute, body: readonly MarkupNode[], from: number, to: number): InlayHint[] {
  const typed = new Map<string, ParamType>();
  for (const s of route.segments) if (s.kind === 'param' && s.typed) typed.set(s.name, s.type);
  if (typed.size === 0) return [];
  const calls: { name: string; end: Pos }[] = [];
  markupParamCalls(body, from, to, calls);
  const out: InlayHint[] = [];
  for (const c of calls) {
    const type = typed.get(c.name);
    if (type && c.end.offset >= from && c.end.offset <= to)
      out.push(
        typeHint(
          c.end,
          `: ${type}`,
          `route param {${c.name}:${type}}: a request whose value does not decode answers 400`,
        ),
      );
  }
  return out;
}

export function inlayHints(
  ctx: FeatureContext,
  path: string,
  range: LspRange,
  settings: InlayHintSettings,
): InlayHint[] | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const from = offsetOf(entry.ast, range.start);
  const to = offsetOf(entry.ast, range.end);
  const s = entry.summary;
  const out: InlayHint[] = [];
  const inRange = (at: Pos) => at.offset >= from && at.offset <= to;
  const pageRoute = s.kind === 'page' ? s.route?.parsed : undefined;
  for (const d of s.declarations) {
    if (!overlaps(d.range, from, to)) continue;
    if (d.kind === 'revalidate' && settings.enabled('cachePolicy')) {
      const policy = effectiveCachePolicy(s.cache?.value.value, d.value.text);
      if (policy !== undefined && s.revalidate === d && inRange(d.value.range.end))
        out.push(hint(d.value.range.end, `→ ${policy}`, 'Cache-Control of successful HTML answers'));
    }
    if ((d.kind === 'act' || d.kind === 'api') && pageRoute) {
      const derived = !d.path || d.path.value === '';
      if (derived && settings.enabled('derivedRoutes') && inRange(d.method.range.end)) {
        const method = d.method.text.toUpperCase();
        const limited = d.kind === 'act' ? limitedActionPaths(s, pageRoute, d.path) : undefined;
        const where = limited ? ` (${limited.length} built path${limited.length === 1 ? '' : 's'} only)` : '';
        out.push(
          hint(d.method.range.end, `→ ${method} ${pageRoute.pattern}${where}`, "the page's route: no path declared"),
        );
      }
    }
    if ((d.kind === 'act' || d.kind === 'api' || d.kind === 'fragment') && s.kind === 'page') {
      const end = d.kind === 'fragment' ? d.target.range.end : d.range.end;
      if (settings.enabled('inheritedGuards') && inRange(end))
        out.push(hint(end, guardsLabel(s.guards), `inherited from page ${s.ownerId}`));
    }
    if (settings.enabled('paramTypes')) {
      if (d.kind === 'view' && pageRoute) out.push(...paramTypeHints(pageRoute, d.body, from, to));
      if (d.kind === 'fragment') out.push(...paramTypeHints(parsedRoute(d.path.value), d.body, from, to));
    }
  }
  return out;
}
