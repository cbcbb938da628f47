// Definition, references and rename. Everything resolves through the workspace model's buckets
// (component definitions and uses, layout definitions and uses, page IDs) and the handler binding,
// never through text search. Links and route strings go through the URL features
// (`url-links.ts`, `route-rename.ts`): what the generated app answers a URL with.
import type { Location, Position, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import type { Range } from '#grammar/index.js';
import { findBinding, type BindTargetKind } from '#core/bind/types.js';
import { dirName, isExportedSymbol, loadFunctionName } from '#core/model/names.js';
import { componentKey, layoutKey } from '#core/resolve/names.js';
import type { KitEntry } from '#core/model/entries.js';
import { contains, offsetOf, toRange } from '../convert.js';
import type { FeatureContext } from './context.js';
import { localNameRange, locate, type Target } from './locate.js';
import { RenameError } from './rename-error.js';
import { leftLinksMessage, prepareRouteRename, renameRoute } from './route-rename.js';
import { linkDefinition, routeReferences } from './url-links.js';

export { RenameError };

/** A named thing that several places refer to. */
export type SymbolRef =
  | { kind: 'component'; key: string; name: string }
  | { kind: 'layout'; key: string; name: string }
  | { kind: 'page'; id: string }
  | { kind: 'handler'; file: string; name: string; target: BindTargetKind };

export interface Place {
  file: string;
  range: Range;
}

const COMPONENT_NAME = /^[A-Z][A-Za-z0-9_]*$/;

/** The named thing a located target is, and the range of its name there. */
export function symbolOf(entry: KitEntry, t: Target): { ref: SymbolRef; range: Range } | undefined {
  switch (t.kind) {
    case 'componentCall': {
      const key = componentKey(entry.summary, t.call);
      return key
        ? { ref: { kind: 'component', key, name: t.call.localName }, range: localNameRange(t.range, t.call.localName) }
        : undefined;
    }
    case 'componentDecl':
      return {
        ref: { kind: 'component', key: `${entry.summary.packageName}.${t.decl.name.text}`, name: t.decl.name.text },
        range: t.decl.name.range,
      };
    case 'layoutRef': {
      const key = layoutKey(entry.summary, t.word.text);
      return key ? { ref: { kind: 'layout', key, name: t.word.text }, range: t.word.range } : undefined;
    }
    case 'pageId':
      return { ref: { kind: 'page', id: entry.summary.ownerId }, range: t.decl.id.range };
    case 'endpoint': {
      if (t.part !== 'symbol') return undefined;
      const sym = t.decl.kind === 'fragment' ? t.decl.name : t.decl.symbol;
      const target: BindTargetKind = t.decl.kind === 'act' ? 'action' : t.decl.kind === 'api' ? 'api' : 'fragment';
      return { ref: { kind: 'handler', file: entry.path, name: sym.text, target }, range: sym.range };
    }
    case 'postRef':
      return { ref: { kind: 'handler', file: entry.path, name: t.name, target: 'action' }, range: t.range };
    default:
      return undefined;
  }
}

/** The exported TypeScript function a handler binds to: from the binding, else by export name in the directory. */
export function handlerExport(
  ctx: FeatureContext,
  file: string,
  target: BindTargetKind,
  name: string,
): Place | undefined {
  const b = findBinding(ctx.ws.bindingFor(file), target, name);
  if (b?.module && b.functionRange) return { file: b.module, range: b.functionRange };
  const functionName = b?.functionName ?? name.slice(name.lastIndexOf('.') + 1);
  const dir = dirName(file);
  for (const m of ctx.ws.allModules()) {
    if (dirName(m.path) !== dir) continue;
    const exp = m.summary.exports.find((x) => x.name === functionName);
    if (exp) return { file: m.path, range: exp.range };
  }
  return undefined;
}

export function declarationPlaces(ctx: FeatureContext, ref: SymbolRef): Place[] {
  switch (ref.kind) {
    case 'component':
      return ctx.ws
        .kitMembers(`cdef:${ref.key}`)
        .filter((e) => e.summary.component)
        .map((e) => ({ file: e.path, range: e.summary.component!.name.range }));
    case 'layout':
      return ctx.ws
        .kitMembers(`ldef:${ref.key}`)
        .filter((e) => e.summary.kind === 'layout')
        .map((e) => ({ file: e.path, range: e.ast.declarations[0]?.range ?? zero() }));
    case 'page':
      return ctx.ws
        .kitMembers(`page:${ref.id}`)
        .map((e) => ({ file: e.path, range: e.summary.pageIdDecl?.id.range ?? e.summary.route?.decl.range ?? zero() }));
    case 'handler': {
      const e = ctx.ws.kit(ref.file);
      if (!e) return [];
      const s = e.summary;
      const decls =
        ref.target === 'action'
          ? s.actions.filter((a) => a.symbol.text === ref.name).map((a) => a.symbol.range)
          : ref.target === 'api'
            ? s.apis.filter((a) => a.symbol.text === ref.name).map((a) => a.symbol.range)
            : s.fragments.filter((f) => f.name.text === ref.name).map((f) => f.name.range);
      return decls.map((range) => ({ file: e.path, range }));
    }
  }
}

function zero(): Range {
  return { start: { offset: 0, line: 0, column: 0 }, end: { offset: 0, line: 0, column: 0 } };
}

/**
 * Every use of a symbol (not its declaration). Component uses are the local-name parts of tags.
 * `inFile`: the uses in that `.kit` file only (document highlights), without reading the others.
 */
export function usePlaces(ctx: FeatureContext, ref: SymbolRef, inFile?: KitEntry): Place[] {
  const out: Place[] = [];
  switch (ref.kind) {
    case 'component':
      for (const e of inFile ? [inFile] : ctx.ws.kitMembers(`cuse:${ref.key}`)) {
        for (const c of e.summary.componentCalls) {
          if (componentKey(e.summary, c) !== ref.key) continue;
          out.push({ file: e.path, range: localNameRange(c.element.nameRange, c.localName) });
          if (c.element.closeNameRange)
            out.push({ file: e.path, range: localNameRange(c.element.closeNameRange, c.localName) });
        }
      }
      break;
    case 'layout':
      for (const e of inFile ? [inFile] : ctx.ws.kitMembers(`luse:${ref.key}`)) {
        for (const w of e.summary.layoutDecl?.layouts ?? [])
          if (layoutKey(e.summary, w.text) === ref.key) out.push({ file: e.path, range: w.range });
      }
      break;
    case 'page': {
      for (const e of ctx.ws.kitMembers(`page:${ref.id}`)) {
        const load = e.summary.server ? handlerExport(ctx, e.path, 'load', loadFunctionName(ref.id)) : undefined;
        if (load) out.push(load);
      }
      break;
    }
    case 'handler': {
      const e = ctx.ws.kit(ref.file);
      if (e && ref.target === 'action') {
        for (const el of postForms(e)) if (el.name === ref.name) out.push({ file: e.path, range: el.range });
      }
      const exp = handlerExport(ctx, ref.file, ref.target, ref.name);
      if (exp) out.push(exp);
      break;
    }
  }
  return out;
}

/** Every `g:post={Name}` reference of a file. */
export function postForms(e: KitEntry): { name: string; range: Range }[] {
  const out: { name: string; range: Range }[] = [];
  const visit = (nodes: import('#grammar/index.js').MarkupNode[]) => {
    for (const n of nodes) {
      if (n.type !== 'element') continue;
      for (const a of n.attrs) {
        if (a.name === 'g:post' && a.value?.type === 'expr' && a.value.expr.type === 'path')
          out.push({ name: a.value.expr.path.join('.'), range: a.value.expr.range });
      }
      visit(n.children);
    }
  };
  if (e.summary.view) visit(e.summary.view.body);
  for (const f of e.summary.fragments) visit(f.body);
  return out;
}

function toLocation(ctx: FeatureContext, p: Place): Location {
  return { uri: ctx.uriOf(p.file), range: toRange(p.range) };
}

const CONFLICT_CODES = new Set([
  'duplicate_route',
  'route_method_conflict',
  'ambiguous_dynamic_route',
  'duplicate_page_id',
]);

export function definition(ctx: FeatureContext, path: string, position: Position): Location[] | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const viaLink = linkDefinition(ctx, entry, position);
  if (viaLink) return viaLink.length ? viaLink : null;
  const offset = offsetOf(entry.ast, position);
  const t = locate(entry, offset);
  if (!t) return null;
  const places: Place[] = [];
  switch (t.kind) {
    case 'endpoint':
      if (t.part === 'symbol') {
        const sym = symbolOf(entry, t);
        if (sym && sym.ref.kind === 'handler') {
          const exp = handlerExport(ctx, path, sym.ref.target, sym.ref.name);
          if (exp) places.push(exp);
        }
      }
      break;
    case 'postRef': {
      const act = entry.summary.actions.find((a) => a.symbol.text === t.name);
      if (act) places.push({ file: path, range: act.range });
      break;
    }
    case 'componentCall':
    case 'layoutRef': {
      const sym = symbolOf(entry, t);
      if (sym) places.push(...declarationPlaces(ctx, sym.ref));
      break;
    }
    case 'server': {
      const exp = handlerExport(ctx, path, 'load', loadFunctionName(entry.summary.ownerId));
      if (exp) places.push(exp);
      break;
    }
    case 'contractRef': {
      const exp = handlerExport(ctx, path, t.ref.kind, t.ref.name);
      if (exp) places.push(exp);
      break;
    }
    default:
      break;
  }
  if (places.length === 0) {
    // A conflict diagnostic's route (or page ID) leads to the first declaration.
    for (const d of ctx.ws.diagnosticsFor(path)) {
      if (CONFLICT_CODES.has(d.code) && contains(d.range, offset))
        for (const r of d.related ?? []) places.push({ file: r.file, range: r.range });
    }
  }
  return places.length ? places.map((p) => toLocation(ctx, p)) : null;
}

export function references(
  ctx: FeatureContext,
  path: string,
  position: Position,
  includeDeclaration: boolean,
): Location[] | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const t = locate(entry, offsetOf(entry.ast, position));
  const viaRoute = routeReferences(ctx, entry, t, includeDeclaration);
  if (viaRoute) return viaRoute;
  const sym = t && symbolOf(entry, t);
  if (!sym) return null;
  const places = [...(includeDeclaration ? declarationPlaces(ctx, sym.ref) : []), ...usePlaces(ctx, sym.ref)];
  return places.map((p) => toLocation(ctx, p));
}

function renamable(ref: SymbolRef): boolean {
  return ref.kind === 'component' || ref.kind === 'handler';
}

export function prepareRename(
  ctx: FeatureContext,
  path: string,
  position: Position,
): { range: ReturnType<typeof toRange>; placeholder: string } | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const t = locate(entry, offsetOf(entry.ast, position));
  const route = prepareRouteRename(entry, t, position);
  if (route) return route;
  const sym = t && symbolOf(entry, t);
  if (!sym || !renamable(sym.ref)) return null;
  return { range: toRange(sym.range), placeholder: sym.ref.kind === 'page' ? sym.ref.id : sym.ref.name };
}

export interface RenameOptions {
  /** The client applies change annotations: a route rename's links come as a group to confirm. */
  annotations?: boolean;
  /** Tells the user what a rename left alone (links a route rename could not rewrite). */
  report?(message: string): void;
}

export function rename(
  ctx: FeatureContext,
  path: string,
  position: Position,
  newName: string,
  options: RenameOptions = {},
): WorkspaceEdit | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const t = locate(entry, offsetOf(entry.ast, position));
  const route = renameRoute(ctx, entry, t, position, newName, { annotations: options.annotations === true });
  if (route) {
    const left = leftLinksMessage(route);
    if (left) options.report?.(left);
    return route.edit;
  }
  const sym = t && symbolOf(entry, t);
  if (!sym || !renamable(sym.ref))
    throw new RenameError('only components, endpoint symbols (act, api, fragment) and route strings can be renamed');
  if (sym.ref.kind === 'component' && !COMPONENT_NAME.test(newName))
    throw new RenameError(
      `"${newName}" is not a component name: it must start with an uppercase letter and contain only letters, ` +
        `digits and _`,
    );
  if (sym.ref.kind === 'handler' && !isExportedSymbol(newName))
    throw new RenameError(
      `"${newName}" is not a handler symbol: it must be an exported identifier starting with an uppercase letter`,
    );
  return { changes: symbolChanges(ctx, sym.ref, newName) };
}

/** The edits renaming a symbol: its declarations and every use, each place once, by URI. */
export function symbolChanges(ctx: FeatureContext, ref: SymbolRef, newName: string): Record<string, TextEdit[]> {
  const places = [...declarationPlaces(ctx, ref), ...usePlaces(ctx, ref)];
  const changes: Record<string, TextEdit[]> = {};
  const seen = new Set<string>();
  for (const p of places) {
    const id = `${p.file}:${p.range.start.offset}`;
    if (seen.has(id)) continue;
    seen.add(id);
    (changes[ctx.uriOf(p.file)] ??= []).push({ range: toRange(p.range), newText: newName });
  }
  return changes;
}
