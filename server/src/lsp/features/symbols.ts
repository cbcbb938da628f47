// Outline, workspace symbol search and folding: projections of one file's AST (outline, folding)
// or of the workspace's summaries (symbol search by route path, page ID, component, layout, handler).
import {
  FoldingRangeKind,
  SymbolKind,
  type DocumentSymbol,
  type FoldingRange,
  type SymbolInformation,
} from 'vscode-languageserver';
import type { Declaration, MarkupNode, Range } from '#grammar/index.js';
import type { KitEntry } from '#core/model/entries.js';
import { toRange } from '../convert.js';
import type { FeatureContext } from './context.js';
import { urlSymbols } from './go-to-url.js';

function declName(d: Declaration): { name: string; detail?: string; kind: SymbolKind; selection: Range } {
  switch (d.kind) {
    case 'route':
      return { name: d.path.value, detail: 'route', kind: SymbolKind.Key, selection: d.path.range };
    case 'page':
      return { name: d.id.text, detail: 'page ID', kind: SymbolKind.Constant, selection: d.id.range };
    case 'act':
      return {
        name: d.symbol.text,
        detail: `act ${d.method.text} ${d.path?.value || '(page route)'}`,
        kind: SymbolKind.Method,
        selection: d.symbol.range,
      };
    case 'api':
      return {
        name: d.symbol.text,
        detail: `api ${d.method.text} ${d.path?.value || '(page route)'}`,
        kind: SymbolKind.Method,
        selection: d.symbol.range,
      };
    case 'fragment':
      return {
        name: d.name.text,
        detail: `fragment ${d.method.text} ${d.path.value} ${d.target.value}`,
        kind: SymbolKind.Function,
        selection: d.name.range,
      };
    case 'guard':
      return {
        name: d.guards.map((g) => g.text).join(', ') || 'guard',
        detail: 'guard',
        kind: SymbolKind.Property,
        selection: d.keyword,
      };
    case 'layout':
      return {
        name: d.layouts.map((l) => l.text).join(', ') || 'layout',
        detail: 'layout',
        kind: SymbolKind.Property,
        selection: d.keyword,
      };
    case 'component':
      return { name: d.name.text, detail: 'component', kind: SymbolKind.Class, selection: d.name.range };
    case 'props':
      return { name: 'props', kind: SymbolKind.Struct, selection: d.keyword };
    case 'paths':
      return {
        name: 'paths',
        detail: `${d.records.length} path${d.records.length === 1 ? '' : 's'}`,
        kind: SymbolKind.Array,
        selection: d.keyword,
      };
    case 'server':
      return {
        name: d.go ? 'go server' : 'server',
        detail: d.fields.map((f) => f.text).join(', '),
        kind: SymbolKind.Object,
        selection: d.keyword,
      };
    case 'view':
      return { name: 'view', kind: SymbolKind.Namespace, selection: d.keyword };
    case 'style':
      return { name: 'style', kind: SymbolKind.Namespace, selection: d.keyword };
    case 'meta':
      return { name: d.name, detail: d.value.value, kind: SymbolKind.Property, selection: d.keyword };
    case 'package':
      return { name: d.name.text, detail: 'package', kind: SymbolKind.Package, selection: d.name.range };
    default:
      return { name: d.kind, kind: SymbolKind.Property, selection: d.keyword };
  }
}

function declRange(d: Declaration): Range {
  // The declaration's extent, from its keyword (where a keyword comes first) to its end.
  return { start: d.keyword.start.offset < d.range.start.offset ? d.keyword.start : d.range.start, end: d.range.end };
}

function children(d: Declaration): DocumentSymbol[] | undefined {
  if (d.kind === 'props') {
    return d.props.map((p) => ({
      name: p.name.text,
      detail: p.type.text,
      kind: SymbolKind.Field,
      range: toRange(p.range),
      selectionRange: toRange(p.name.range),
    }));
  }
  if (d.kind === 'view' || d.kind === 'fragment') {
    const out: DocumentSymbol[] = [];
    const visit = (nodes: MarkupNode[]) => {
      for (const n of nodes) {
        if (n.type !== 'element') continue;
        if (n.isComponent)
          out.push({
            name: `<${n.name}>`,
            detail: 'component call',
            kind: SymbolKind.Class,
            range: toRange(n.range),
            selectionRange: toRange(n.nameRange),
          });
        visit(n.children);
      }
    };
    visit(d.body);
    return out.length ? out : undefined;
  }
  return undefined;
}

export function documentSymbols(ctx: FeatureContext, path: string): DocumentSymbol[] | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const s = entry.summary;
  const decls: DocumentSymbol[] = entry.ast.declarations
    .filter((d) => d.kind !== 'package')
    .map((d) => {
      const n = declName(d);
      const sym: DocumentSymbol = {
        name: n.name,
        kind: n.kind,
        range: toRange(declRange(d)),
        selectionRange: toRange(n.selection),
      };
      if (n.detail) sym.detail = n.detail;
      const kids = children(d);
      if (kids) sym.children = kids;
      return sym;
    });
  const whole = {
    start: { line: 0, character: 0 },
    end: { line: Math.max(0, entry.ast.lineStarts.length - 1), character: 0 },
  };
  const first = entry.ast.declarations[0];
  const selection = s.pageIdDecl?.id.range ?? s.component?.name.range ?? s.route?.decl.path.range ?? first?.keyword;
  const label =
    s.kind === 'page' ? `page ${s.ownerId}` : s.kind === 'component' ? `component ${s.ownerId}` : `layout ${s.ownerId}`;
  const root: DocumentSymbol = {
    name: label,
    detail:
      s.kind === 'page'
        ? s.route
          ? `${s.route.decl.path.value} (${s.render})`
          : 'no route'
        : `package ${s.packageName}`,
    kind: s.kind === 'page' ? SymbolKind.Module : s.kind === 'component' ? SymbolKind.Class : SymbolKind.Namespace,
    range: whole,
    selectionRange: selection ? toRange(selection) : whole,
    children: decls,
  };
  return [root];
}

// ---- workspace symbols --------------------------------------------------------------------------

const MAX_WORKSPACE_SYMBOLS = 500;

/** Case-insensitive subsequence match, so `bpost` finds `blog.post`. */
function fuzzy(name: string, q: string): boolean {
  const n = name.toLowerCase();
  let i = 0;
  for (const ch of q.toLowerCase()) {
    i = n.indexOf(ch, i);
    if (i < 0) return false;
    i++;
  }
  return true;
}

/** A route of the workspace as a query by route lists it. */
interface RouteRow {
  /** The pattern in lower case, compared with the query. */
  lower: string;
  name: string;
  kind: SymbolKind;
  file: string;
  range: Range;
  container: string;
}

const routeRowCache = new WeakMap<FeatureContext, { revision: number; rows: RouteRow[] }>();

/**
 * Every route of a workspace (page routes, endpoints, `//kit:` comment endpoints), made once per
 * revision: a query by route is typed a character at a time with no edit in between, and each
 * keystroke compares the query with every route.
 */
function routeRows(ctx: FeatureContext): RouteRow[] {
  const cached = routeRowCache.get(ctx);
  if (cached?.revision === ctx.ws.revision) return cached.rows;
  const rows: RouteRow[] = [];
  const row = (route: string, name: string, kind: SymbolKind, file: string, range: Range, container: string) =>
    rows.push({ lower: route.toLowerCase(), name, kind, file, range, container });
  for (const e of ctx.ws.allKit()) {
    const s = e.summary;
    const pageRoute = s.route?.decl.path.value;
    if (s.kind === 'page' && pageRoute !== undefined)
      row(pageRoute, `GET ${pageRoute}`, SymbolKind.Key, e.path, s.route!.decl.path.range, `page ${s.ownerId}`);
    endpoints(e, (method, route, name, range) =>
      row(route, `${method} ${route}`, SymbolKind.Method, e.path, range, `${name} (page ${s.ownerId})`),
    );
  }
  for (const m of ctx.ws.allModules())
    for (const ep of m.summary.endpoints)
      row(
        ep.path,
        `${ep.method} ${ep.path}`,
        SymbolKind.Method,
        m.path,
        ep.functionRange,
        `${ep.functionName} (//kit:${ep.kind})`,
      );
  routeRowCache.set(ctx, { revision: ctx.ws.revision, rows });
  return rows;
}

export function workspaceSymbols(contexts: FeatureContext[], query: string): SymbolInformation[] {
  const q = query.trim();
  const byRoute = q.startsWith('/');
  // A request path (not a pattern): what serves it comes first (`go-to-url.ts`).
  const out: SymbolInformation[] =
    byRoute && !q.includes('{')
      ? urlSymbols(
          contexts.map((ctx) => ({ ctx, name: '' })),
          q,
        )
      : [];
  const served = new Set(out.map((x) => `${x.location.uri}:${x.location.range.start.line}`));
  const add = (ctx: FeatureContext, name: string, kind: SymbolKind, file: string, range: Range, container?: string) => {
    if (out.length >= MAX_WORKSPACE_SYMBOLS) return;
    const location = { uri: ctx.uriOf(file), range: toRange(range) };
    if (served.has(`${location.uri}:${location.range.start.line}`)) return;
    out.push({ name, kind, location, containerName: container });
  };
  if (byRoute) {
    // `/blog` matches every route under it (`/blog`, `/blog/{slug}`) and, while typing, `/blogroll` too.
    const prefix = (q.length > 1 ? q.replace(/\/+$/, '') : q).toLowerCase();
    for (const ctx of contexts)
      for (const r of routeRows(ctx))
        if (r.lower.startsWith(prefix)) add(ctx, r.name, r.kind, r.file, r.range, r.container);
    return out;
  }
  for (const ctx of contexts) {
    for (const e of ctx.ws.allKit()) {
      const s = e.summary;
      const pageRoute = s.route?.decl.path.value;
      if (s.kind === 'page' && pageRoute !== undefined && (fuzzy(pageRoute, q) || fuzzy(s.ownerId, q))) {
        add(ctx, `GET ${pageRoute}`, SymbolKind.Key, e.path, s.route!.decl.path.range, `page ${s.ownerId}`);
      }
      endpoints(e, (method, route, name, range) => {
        if (fuzzy(route, q) || fuzzy(name, q))
          add(ctx, `${method} ${route}`, SymbolKind.Method, e.path, range, `${name} (page ${s.ownerId})`);
      });
      if (s.kind !== 'page' && fuzzy(s.ownerId, q)) {
        add(
          ctx,
          s.ownerId,
          s.kind === 'component' ? SymbolKind.Class : SymbolKind.Namespace,
          e.path,
          s.component?.name.range ?? e.ast.declarations[0]?.range ?? zero(),
          `${s.kind} in package ${s.packageName}`,
        );
      }
    }
    for (const m of ctx.ws.allModules()) {
      for (const ep of m.summary.endpoints) {
        if (fuzzy(ep.path, q) || fuzzy(ep.functionName, q))
          add(
            ctx,
            `${ep.method} ${ep.path}`,
            SymbolKind.Method,
            m.path,
            ep.functionRange,
            `${ep.functionName} (//kit:${ep.kind})`,
          );
      }
    }
  }
  return out;
}

function endpoints(e: KitEntry, visit: (method: string, route: string, name: string, range: Range) => void): void {
  const s = e.summary;
  const page = s.route?.decl.path.value ?? '';
  for (const a of s.actions) visit(a.method.text, a.path?.value || page, a.symbol.text, a.symbol.range);
  for (const a of s.apis) visit(a.method.text, a.path?.value || page, a.symbol.text, a.symbol.range);
  for (const f of s.fragments) visit(f.method.text, f.path.value, f.name.text, f.name.range);
}

function zero(): Range {
  return { start: { offset: 0, line: 0, column: 0 }, end: { offset: 0, line: 0, column: 0 } };
}

// ---- folding -------------------------------------------------------------------------------------

export function foldingRanges(ctx: FeatureContext, path: string): FoldingRange[] | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const out: FoldingRange[] = [];
  const fold = (start: number, end: number, kind?: FoldingRangeKind) => {
    if (end > start) out.push(kind ? { startLine: start, endLine: end, kind } : { startLine: start, endLine: end });
  };
  for (const d of entry.ast.declarations) {
    const start = d.keyword.start.line;
    // Keep the closing `}` line visible.
    if (d.range.end.line > start) fold(start, d.range.end.line - 1);
    if (d.kind === 'view' || d.kind === 'fragment') markupFolds(d.body, fold);
  }
  // Runs of `//` comment lines.
  let runStart = -1;
  let prev = -2;
  for (const c of entry.ast.comments) {
    const line = c.range.start.line;
    if (line !== prev + 1) {
      if (runStart >= 0) fold(runStart, prev, FoldingRangeKind.Comment);
      runStart = line;
    }
    prev = line;
  }
  if (runStart >= 0) fold(runStart, prev, FoldingRangeKind.Comment);
  return out.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}

function markupFolds(nodes: MarkupNode[], fold: (start: number, end: number, kind?: FoldingRangeKind) => void): void {
  for (const n of nodes) {
    if (n.type === 'comment') fold(n.range.start.line, n.range.end.line, FoldingRangeKind.Comment);
    if (n.type !== 'element') continue;
    fold(n.range.start.line, n.range.end.line - 1);
    markupFolds(n.children, fold);
  }
}
