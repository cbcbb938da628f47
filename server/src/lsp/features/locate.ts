// What is under the cursor: one resolver for hover, definition, references, rename and completion.
// It reads only the file's AST and summary; the features look the answer up in the workspace.
import type {
  ActDecl,
  ApiDecl,
  Attribute,
  ComponentDecl,
  Declaration,
  Element,
  FragmentDecl,
  GuardDecl,
  PageIdDecl,
  Range,
  RouteDecl,
  ServerBlock,
  StringLit,
  Word,
  Expr,
  MarkupNode,
  LayoutDecl,
} from '#grammar/index.js';
import { parseRoutePattern, type ParamType } from '#shared/route/index.js';
import { stringSpanRange } from '#core/model/ranges.js';
import type { ComponentCall, ContractRef } from '#core/model/summary.js';
import type { KitEntry } from '#core/model/entries.js';
import { contains } from '../convert.js';

export type EndpointDecl = ActDecl | ApiDecl | FragmentDecl;

export interface RouteParamHit {
  name: string;
  type: ParamType;
  rest: boolean;
  range: Range;
}

export type Target =
  | { kind: 'route'; decl: RouteDecl; param?: RouteParamHit }
  | { kind: 'pageId'; decl: PageIdDecl }
  | {
      kind: 'endpoint';
      decl: EndpointDecl;
      part: 'keyword' | 'symbol' | 'method' | 'path' | 'other';
      param?: RouteParamHit;
    }
  | { kind: 'guard'; word: Word; decl: GuardDecl }
  | { kind: 'layoutRef'; word: Word; decl: LayoutDecl }
  | { kind: 'componentCall'; call: ComponentCall; range: Range }
  | { kind: 'componentDecl'; decl: ComponentDecl }
  | { kind: 'postRef'; name: string; range: Range; element: Element }
  | { kind: 'contractRef'; ref: ContractRef; range: Range }
  | { kind: 'paramCall'; name: string; range: Range }
  | { kind: 'server'; decl: ServerBlock }
  | { kind: 'declaration'; decl: Declaration };

/** The route param under the cursor inside a route string. */
function routeParamAt(entry: KitEntry, lit: StringLit, offset: number): RouteParamHit | undefined {
  if (!contains(lit.range, offset)) return undefined;
  const parsed = parseRoutePattern(lit.value);
  for (const seg of parsed.segments) {
    if (seg.kind === 'static') continue;
    const range = stringSpanRange(entry.ast, lit, seg.span);
    if (contains(range, offset))
      return { name: seg.name, type: seg.kind === 'param' ? seg.type : 'string', rest: seg.kind === 'rest', range };
  }
  return undefined;
}

/** The range of the local name (`Card` of `ui.Card`) inside a tag name range. */
export function localNameRange(nameRange: Range, localName: string): Range {
  const start = nameRange.end.offset - localName.length;
  return {
    start: { offset: start, line: nameRange.end.line, column: nameRange.end.column - localName.length },
    end: nameRange.end,
  };
}

function endpointTarget(entry: KitEntry, d: EndpointDecl, offset: number): Target {
  const symbol = d.kind === 'fragment' ? d.name : d.symbol;
  if (contains(d.keyword, offset)) return { kind: 'endpoint', decl: d, part: 'keyword' };
  if (contains(symbol.range, offset)) return { kind: 'endpoint', decl: d, part: 'symbol' };
  if (contains(d.method.range, offset)) return { kind: 'endpoint', decl: d, part: 'method' };
  if (d.path && contains(d.path.range, offset))
    return { kind: 'endpoint', decl: d, part: 'path', param: routeParamAt(entry, d.path, offset) };
  return { kind: 'endpoint', decl: d, part: 'other' };
}

function exprAt(e: Expr, offset: number): Target | undefined {
  if (!contains(e.range, offset)) return undefined;
  switch (e.type) {
    case 'param':
      return { kind: 'paramCall', name: e.name.value, range: e.range };
    case 'not':
      return exprAt(e.expr, offset);
    case 'binary':
      return exprAt(e.left, offset) ?? exprAt(e.right, offset);
    case 'for':
      return exprAt(e.collection, offset);
    default:
      return undefined;
  }
}

function attrTarget(entry: KitEntry, el: Element, a: Attribute, offset: number): Target | undefined {
  if (
    a.name === 'g:post' &&
    a.value?.type === 'expr' &&
    a.value.expr.type === 'path' &&
    contains(a.value.range, offset)
  ) {
    return { kind: 'postRef', name: a.value.expr.path.join('.'), range: a.value.expr.range, element: el };
  }
  if (a.name === 'g:command' || a.name === 'g:query') {
    const ref = entry.summary.contractRefs.find(
      (c) => c.range === a.range || (c.element === el && c.kind === (a.name === 'g:command' ? 'command' : 'query')),
    );
    if (ref && contains(a.range, offset)) return { kind: 'contractRef', ref, range: a.value?.range ?? a.range };
  }
  if (!a.value) return undefined;
  if (a.value.type === 'expr') return exprAt(a.value.expr, offset);
  for (const p of a.value.parts)
    if (p.type === 'interp') {
      const t = exprAt(p.expr, offset);
      if (t) return t;
    }
  return undefined;
}

function markupAt(entry: KitEntry, nodes: MarkupNode[], offset: number): Target | undefined {
  for (const n of nodes) {
    if (!contains(n.range, offset)) continue;
    if (n.type === 'interp') return exprAt(n.expr, offset);
    if (n.type !== 'element') return undefined;
    if (n.isComponent) {
      const call = entry.summary.componentCalls.find((c) => c.element === n);
      if (call && contains(n.nameRange, offset)) return { kind: 'componentCall', call, range: n.nameRange };
      if (call && n.closeNameRange && contains(n.closeNameRange, offset))
        return { kind: 'componentCall', call, range: n.closeNameRange };
    }
    if (contains(n.openRange, offset)) {
      for (const a of n.attrs) if (contains(a.range, offset)) return attrTarget(entry, n, a, offset);
      return undefined;
    }
    return markupAt(entry, n.children, offset);
  }
  return undefined;
}

/** The declaration whose range holds `offset` (its keyword line included). */
export function declarationAt(entry: KitEntry, offset: number): Declaration | undefined {
  for (const d of entry.ast.declarations) {
    if (d.keyword.start.offset <= offset && offset <= d.range.end.offset) return d;
  }
  return undefined;
}

export function locate(entry: KitEntry, offset: number): Target | undefined {
  const d = declarationAt(entry, offset);
  if (!d) return undefined;
  switch (d.kind) {
    case 'route':
      return { kind: 'route', decl: d, param: routeParamAt(entry, d.path, offset) };
    case 'page':
      return { kind: 'pageId', decl: d };
    case 'act':
    case 'api':
      return endpointTarget(entry, d, offset);
    case 'fragment':
      if (contains(d.bodyRange, offset) && offset > d.bodyRange.start.offset)
        return markupAt(entry, d.body, offset) ?? { kind: 'declaration', decl: d };
      return endpointTarget(entry, d, offset);
    case 'guard': {
      const word = d.guards.find((g) => contains(g.range, offset));
      return word ? { kind: 'guard', word, decl: d } : { kind: 'declaration', decl: d };
    }
    case 'layout': {
      const word = d.layouts.find((l) => contains(l.range, offset));
      return word ? { kind: 'layoutRef', word, decl: d } : { kind: 'declaration', decl: d };
    }
    case 'component':
      return { kind: 'componentDecl', decl: d };
    case 'server':
      return contains(d.keyword, offset) ? { kind: 'server', decl: d } : { kind: 'declaration', decl: d };
    case 'view':
      return markupAt(entry, d.body, offset) ?? { kind: 'declaration', decl: d };
    default:
      return { kind: 'declaration', decl: d };
  }
}
