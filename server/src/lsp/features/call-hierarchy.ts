// Call hierarchy: what a request to a page or endpoint runs. A page calls its guards, its
// endpoints (actions, APIs, fragments, `g:command`/`g:query` contracts) and its load function; an
// endpoint calls its guards (its page's) and its bound handler. Incoming calls go the other way: a
// handler is called by the endpoints (and pages, for a load) bound to it, an endpoint by its page,
// a guard by the pages and `//kit:` endpoints that declare it. Handlers are found the way go to
// definition finds them (`handlerExport`: the binding, else the export of that name beside the
// file), so both features agree; a guard is the key that registers it in the app config.
import {
  SymbolKind,
  type CallHierarchyIncomingCall,
  type CallHierarchyItem,
  type CallHierarchyOutgoingCall,
  type Position,
  type Range as LspRange,
} from 'vscode-languageserver';
import type { Range } from '#grammar/index.js';
import { isAppConfigPath } from '#core/model/app-config.js';
import type { BindTargetKind } from '#core/bind/types.js';
import type { KitEntry, ModuleEntry } from '#core/model/entries.js';
import type { CommentEndpoint } from '#core/model/handler-modules.js';
import { dirName, loadFunctionName } from '#core/model/names.js';
import { offsetOf, rangeOfOffsets, toRange } from '../convert.js';
import type { FeatureContext } from './context.js';
import { locate } from './locate.js';
import { handlerExport, type Place, postForms } from './navigation.js';

/** What an item stands for; the client hands it back with the item. */
export type CallData =
  | { k: 'page'; file: string }
  | { k: 'endpoint'; file: string; target: BindTargetKind; name: string }
  | { k: 'guard'; id: string; file: string; at: number }
  | { k: 'handler'; file: string; name: string };

const PUBLIC = 'public';

/** The `data` of an item, if it is one of ours (the client may send anything back). */
export function callData(data: unknown): CallData | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as Record<string, unknown>;
  const str = (k: string) => typeof d[k] === 'string';
  if (d.k === 'page' && str('file')) return d as CallData;
  if (d.k === 'endpoint' && str('file') && str('target') && str('name')) return d as CallData;
  if (d.k === 'guard' && str('id') && str('file') && Number.isSafeInteger(d.at)) return d as CallData;
  if (d.k === 'handler' && str('file') && str('name')) return d as CallData;
  return undefined;
}

function fileRange(text: string, start: number, end: number): LspRange {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return rangeOfOffsets({ lineStarts, length: text.length }, start, end);
}

// ---- items ---------------------------------------------------------------------------------------

function item(
  ctx: FeatureContext,
  file: string,
  name: string,
  kind: SymbolKind,
  detail: string,
  range: LspRange,
  selectionRange: LspRange,
  data: CallData,
): CallHierarchyItem {
  return { name, kind, detail, uri: ctx.uriOf(file), range, selectionRange, data };
}

function declRange(r: Range, keyword: Range): LspRange {
  return toRange({ start: keyword.start.offset < r.start.offset ? keyword.start : r.start, end: r.end });
}

function pageItem(ctx: FeatureContext, e: KitEntry): CallHierarchyItem {
  const s = e.summary;
  const selection = s.pageIdDecl?.id.range ?? s.route?.decl.path.range ?? s.declarations[0]?.keyword;
  const whole = rangeOfOffsets(e.ast, 0, e.ast.length);
  return item(
    ctx,
    e.path,
    s.ownerId,
    SymbolKind.File,
    s.route ? `page ${s.route.decl.path.value}` : 'page',
    whole,
    selection ? toRange(selection) : whole,
    { k: 'page', file: e.path },
  );
}

/** An endpoint a `.kit` page declares: its item, where it is named and where the page calls it. */
interface KitEndpoint {
  target: BindTargetKind;
  name: string;
  item: CallHierarchyItem;
  /** The declaration's symbol (or the contract attribute), and the `g:post` forms of an action. */
  calledAt: Range[];
}

function kitEndpoints(ctx: FeatureContext, e: KitEntry): KitEndpoint[] {
  const s = e.summary;
  const out: KitEndpoint[] = [];
  const route = s.route?.decl.path.value ?? '';
  const posts = s.actions.length ? postForms(e) : [];
  for (const d of [...s.actions, ...s.apis, ...s.fragments]) {
    const target: BindTargetKind = d.kind === 'act' ? 'action' : d.kind === 'api' ? 'api' : 'fragment';
    const sym = d.kind === 'fragment' ? d.name : d.symbol;
    const path = d.path?.value || route;
    const data: CallData = { k: 'endpoint', file: e.path, target, name: sym.text };
    out.push({
      target,
      name: sym.text,
      item: item(
        ctx,
        e.path,
        sym.text,
        d.kind === 'fragment' ? SymbolKind.Function : SymbolKind.Method,
        `${d.kind} ${d.method.text.toUpperCase()} ${path}`,
        declRange(d.range, d.keyword),
        toRange(sym.range),
        data,
      ),
      calledAt: [sym.range, ...(d.kind === 'act' ? posts.filter((p) => p.name === sym.text).map((p) => p.range) : [])],
    });
  }
  const seen = new Set<string>();
  for (const c of s.contractRefs) {
    if (!c.name || seen.has(`${c.kind} ${c.name}`)) continue;
    seen.add(`${c.kind} ${c.name}`);
    const uses = s.contractRefs.filter((x) => x.kind === c.kind && x.name === c.name).map((x) => x.range);
    const method = c.kind === 'command' ? 'POST' : 'GET';
    out.push({
      target: c.kind,
      name: c.name,
      item: item(
        ctx,
        e.path,
        c.name,
        SymbolKind.Method,
        `g:${c.kind} ${method} ${c.actionPath?.value ?? route}`,
        toRange(c.range),
        toRange(c.range),
        { k: 'endpoint', file: e.path, target: c.kind, name: c.name },
      ),
      calledAt: uses,
    });
  }
  return out;
}

function commentEndpointItem(ctx: FeatureContext, m: ModuleEntry, c: CommentEndpoint): CallHierarchyItem {
  return item(
    ctx,
    m.path,
    c.functionName,
    SymbolKind.Method,
    `//kit:${c.kind} ${c.method} ${c.path}`,
    toRange({ start: c.range.start, end: c.functionRange.end }),
    toRange(c.functionRange),
    { k: 'endpoint', file: m.path, target: c.kind === 'act' ? 'action' : 'api', name: c.functionName },
  );
}

function handlerItem(ctx: FeatureContext, place: Place, name: string): CallHierarchyItem {
  const r = toRange(place.range);
  return item(ctx, place.file, name, SymbolKind.Function, place.file, r, r, {
    k: 'handler',
    file: place.file,
    name,
  });
}

/**
 * A guard: the key registering it in the app config; a guard nothing registers stays where it was
 * met (`file`, `at`: the guard word of a page, the comment of an endpoint).
 */
function guardItem(ctx: FeatureContext, id: string, met: { file: string; range: Range }): CallHierarchyItem {
  for (const m of ctx.ws.moduleMembers('guardcfg')) {
    const key = m.config?.guards.at.get(id);
    if (!key) continue;
    const r = fileRange(m.text, key.start, key.end);
    return item(ctx, m.path, id, SymbolKind.Key, `guard, registered in ${m.path}`, r, r, {
      k: 'guard',
      id,
      file: met.file,
      at: met.range.start.offset,
    });
  }
  const r = toRange(met.range);
  return item(ctx, met.file, id, SymbolKind.Key, 'guard, not registered in an app config', r, r, {
    k: 'guard',
    id,
    file: met.file,
    at: met.range.start.offset,
  });
}

/** A page's protective guards, each with the words that name it. */
function pageGuards(e: KitEntry): Map<string, Range[]> {
  const out = new Map<string, Range[]>();
  for (const w of e.summary.guardDecl?.guards ?? []) {
    if (w.text === PUBLIC) continue;
    const list = out.get(w.text);
    if (list) list.push(w.range);
    else out.set(w.text, [w.range]);
  }
  return out;
}

// ---- prepare -------------------------------------------------------------------------------------

/** The item at a position of a `.kit` file: a guard, an endpoint, else its page. */
export function prepareCallHierarchy(
  ctx: FeatureContext,
  path: string,
  position: Position,
): CallHierarchyItem[] | null {
  const e = ctx.ws.kit(path);
  if (!e || e.summary.kind !== 'page') return null;
  const offset = offsetOf(e.ast, position);
  const t = locate(e, offset);
  if (t?.kind === 'guard' && t.word.text !== PUBLIC)
    return [guardItem(ctx, t.word.text, { file: path, range: t.word.range })];
  const endpoints = kitEndpoints(ctx, e);
  const named = (target: BindTargetKind, name: string) =>
    endpoints.find((x) => x.target === target && x.name === name)?.item;
  let found: CallHierarchyItem | undefined;
  if (t?.kind === 'endpoint') {
    const d = t.decl;
    found = named(
      d.kind === 'act' ? 'action' : d.kind === 'api' ? 'api' : 'fragment',
      d.kind === 'fragment' ? d.name.text : d.symbol.text,
    );
  } else if (t?.kind === 'postRef') found = named('action', t.name);
  else if (t?.kind === 'contractRef') found = named(t.ref.kind, t.ref.name);
  else if (t?.kind === 'server') {
    const load = handlerExport(ctx, path, 'load', loadFunctionName(e.summary.ownerId));
    if (load) found = handlerItem(ctx, load, loadFunctionName(e.summary.ownerId));
  }
  return [found ?? pageItem(ctx, e)];
}

/** The item at a position of a handler module: a `//kit:` endpoint comment, or an exported function. */
export function prepareCallHierarchyInModule(
  ctx: FeatureContext,
  path: string,
  position: Position,
): CallHierarchyItem[] | null {
  const m = ctx.ws.module(path);
  if (!m || isAppConfigPath(path)) return null;
  const lineStart = nthLineStart(m.text, position.line);
  const offset = lineStart + position.character;
  // On the comment: the endpoint it declares; on the function below it: the handler.
  for (const c of m.summary.endpoints)
    if (c.range.start.offset <= offset && position.line < c.functionRange.start.line)
      return [commentEndpointItem(ctx, m, c)];
  for (const x of m.summary.exports)
    if (x.range.start.line === position.line) return [handlerItem(ctx, { file: path, range: x.range }, x.name)];
  return null;
}

function nthLineStart(text: string, line: number): number {
  let at = 0;
  for (let i = 0; i < line; i++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  return at;
}

// ---- outgoing ------------------------------------------------------------------------------------

function guardCalls(ctx: FeatureContext, file: string, guards: Map<string, Range[]>): CallHierarchyOutgoingCall[] {
  return [...guards].map(([id, ranges]) => ({
    to: guardItem(ctx, id, { file, range: ranges[0] }),
    fromRanges: ranges.map(toRange),
  }));
}

export function outgoingCalls(ctx: FeatureContext, data: CallData): CallHierarchyOutgoingCall[] {
  if (data.k === 'page') {
    const e = ctx.ws.kit(data.file);
    if (!e) return [];
    const out = guardCalls(ctx, e.path, pageGuards(e));
    for (const x of kitEndpoints(ctx, e)) out.push({ to: x.item, fromRanges: x.calledAt.map(toRange) });
    if (e.summary.server) {
      const name = loadFunctionName(e.summary.ownerId);
      const load = handlerExport(ctx, e.path, 'load', name);
      if (load) out.push({ to: handlerItem(ctx, load, name), fromRanges: [toRange(e.summary.server.keyword)] });
    }
    return out;
  }
  if (data.k !== 'endpoint') return [];
  const kit = ctx.ws.kit(data.file);
  if (kit) {
    const x = kitEndpoints(ctx, kit).find((y) => y.target === data.target && y.name === data.name);
    if (!x) return [];
    const out = guardCalls(ctx, kit.path, pageGuards(kit));
    const fn = handlerExport(ctx, kit.path, data.target, data.name);
    const fnName = data.name.slice(data.name.lastIndexOf('.') + 1);
    if (fn) out.push({ to: handlerItem(ctx, fn, fnName), fromRanges: [toRange(x.calledAt[0])] });
    return out;
  }
  const m = ctx.ws.module(data.file);
  const c = m?.summary.endpoints.find((y) => y.functionName === data.name);
  if (!m || !c) return [];
  const guards = new Map<string, Range[]>();
  for (const g of c.guards ?? []) if (g !== PUBLIC) guards.set(g, [c.range]);
  const out = guardCalls(ctx, m.path, guards);
  const fn = handlerExport(ctx, m.path, data.target, c.functionName) ?? { file: m.path, range: c.functionRange };
  out.push({ to: handlerItem(ctx, fn, c.functionName), fromRanges: [toRange(c.functionRange)] });
  return out;
}

// ---- incoming ------------------------------------------------------------------------------------

/** Does `a` name the function `name` of module `file`? */
function samePlace(a: Place | undefined, file: string, name: string, ctx: FeatureContext): boolean {
  if (!a || a.file !== file) return false;
  return ctx.ws.module(file)?.text.slice(a.range.start.offset, a.range.end.offset) === name;
}

/** The pages and endpoints whose handler (or load) is `name` of module `file`. */
function handlerCallers(ctx: FeatureContext, file: string, name: string): CallHierarchyIncomingCall[] {
  const out: CallHierarchyIncomingCall[] = [];
  const dir = dirName(file);
  // `.kit` files bind in their own directory; contracts of another package (`alias.Name`) bind here too.
  for (const d of [dir, ...ctx.ws.bindingDependents(dir)]) {
    for (const e of ctx.ws.kitMembers(`bind:${d}`)) {
      if (e.summary.kind !== 'page') continue;
      for (const x of kitEndpoints(ctx, e)) {
        if (samePlace(handlerExport(ctx, e.path, x.target, x.name), file, name, ctx))
          out.push({ from: x.item, fromRanges: [toRange(x.calledAt[0])] });
      }
      const server = e.summary.server;
      const load = server && handlerExport(ctx, e.path, 'load', loadFunctionName(e.summary.ownerId));
      if (server && samePlace(load, file, name, ctx))
        out.push({ from: pageItem(ctx, e), fromRanges: [toRange(server.keyword)] });
    }
  }
  for (const m of ctx.ws.moduleMembers(`bind:${dir}`)) {
    for (const c of m.summary.endpoints) {
      const target = c.kind === 'act' ? 'action' : 'api';
      const fn = handlerExport(ctx, m.path, target, c.functionName) ?? { file: m.path, range: c.functionRange };
      if (samePlace(fn, file, name, ctx))
        out.push({ from: commentEndpointItem(ctx, m, c), fromRanges: [toRange(c.range)] });
    }
  }
  return out;
}

export function incomingCalls(ctx: FeatureContext, data: CallData): CallHierarchyIncomingCall[] {
  switch (data.k) {
    case 'handler':
      return handlerCallers(ctx, data.file, data.name);
    case 'endpoint': {
      const e = ctx.ws.kit(data.file);
      const x = e && kitEndpoints(ctx, e).find((y) => y.target === data.target && y.name === data.name);
      return e && x ? [{ from: pageItem(ctx, e), fromRanges: x.calledAt.map(toRange) }] : [];
    }
    case 'guard': {
      const out: CallHierarchyIncomingCall[] = [];
      for (const e of ctx.ws.kitMembers(`guard:${data.id}`)) {
        const words = pageGuards(e).get(data.id);
        if (words && e.summary.kind === 'page') out.push({ from: pageItem(ctx, e), fromRanges: words.map(toRange) });
      }
      for (const m of ctx.ws.moduleMembers(`guard:${data.id}`))
        for (const c of m.summary.endpoints)
          if (c.guards?.includes(data.id))
            out.push({ from: commentEndpointItem(ctx, m, c), fromRanges: [toRange(c.range)] });
      return out;
    }
    default:
      return [];
  }
}
