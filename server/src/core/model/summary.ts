// The per-file summary: everything the workspace and the cross-file rules need, computed from one
// AST only. An edit invalidates its own file's summary and nothing else.
import type {
  ActDecl, ApiDecl, CacheDecl, ComponentDecl, Declaration, Element, FileKind, FragmentDecl, GuardDecl, KitFile,
  LayoutDecl, MarkupNode, PageIdDecl, PathsBlock, PropsBlock, Range, RenderDecl, RevalidateDecl, RouteDecl,
  ServerBlock, StringLit, UseDecl, ViewBlock, Word, PackageDecl, MetaDecl,
} from '../../../../grammar/src/ast.js';
import type { ParsedRoute } from '../../../../shared/route/index.js';
import { parsedRoute } from './route-cache.js';
import { baseName, dirName, ownerIdFromPath } from './names.js';

export type RenderMode = 'spa' | 'ssr' | 'hybrid';

export interface ComponentCall {
  name: string;
  alias?: string;
  localName: string;
  range: Range;
  element: Element;
}

export interface ContractRef {
  kind: 'command' | 'query';
  name: string;
  /** The `g:command` / `g:query` attribute. */
  range: Range;
  /** Explicit `action` path of a command form, if any. */
  actionPath?: { value: string; range: Range };
  element: Element;
}

export interface FileSummary {
  path: string;
  dir: string;
  kind: FileKind;
  /** Declared `package` name, else the directory's base name. */
  packageName: string;
  packageDecl?: PackageDecl;
  /** Page ID (pages), component name (components) or layout ID (layouts). */
  ownerId: string;
  pageIdDecl?: PageIdDecl;
  route?: { decl: RouteDecl; parsed: ParsedRoute };
  renderDecl?: RenderDecl;
  /** Effective render mode: explicit `render`, else `ssr` when a server block exists, else `spa`. */
  render: RenderMode;
  guardDecl?: GuardDecl;
  guards: string[];
  layoutDecl?: LayoutDecl;
  layouts: string[];
  cache?: CacheDecl;
  revalidate?: RevalidateDecl;
  meta: Partial<Record<MetaDecl['name'], StringLit>>;
  paths?: PathsBlock;
  server?: ServerBlock;
  actions: ActDecl[];
  apis: ApiDecl[];
  fragments: FragmentDecl[];
  view?: ViewBlock;
  component?: ComponentDecl;
  props?: PropsBlock;
  uses: Map<string, UseDecl>;
  componentCalls: ComponentCall[];
  contractRefs: ContractRef[];
  /** Count of `<slot>` elements without a `name` in the view (layouts need exactly one). */
  defaultSlotCount: number;
  declarations: Declaration[];
}

function walk(nodes: MarkupNode[], visit: (el: Element) => void): void {
  for (const n of nodes) {
    if (n.type !== 'element') continue;
    visit(n);
    walk(n.children, visit);
  }
}

export function walkElements(nodes: MarkupNode[], visit: (el: Element) => void): void {
  walk(nodes, visit);
}

export function attrText(el: Element, name: string): { value: string; range: Range } | undefined {
  for (const a of el.attrs) {
    if (a.name !== name || !a.value || a.value.type !== 'string') continue;
    if (a.value.parts.every((p) => p.type === 'text')) {
      return { value: a.value.parts.map((p) => (p.type === 'text' ? p.value : '')).join(''), range: a.value.range };
    }
  }
  return undefined;
}

export function summarize(file: KitFile): FileSummary {
  const s: FileSummary = {
    path: file.path,
    dir: dirName(file.path),
    kind: file.kind,
    packageName: baseName(dirName(file.path)) || 'main',
    ownerId: ownerIdFromPath(file.path, file.kind),
    render: 'spa',
    guards: [],
    layouts: [],
    meta: {},
    actions: [],
    apis: [],
    fragments: [],
    uses: new Map(),
    componentCalls: [],
    contractRefs: [],
    defaultSlotCount: 0,
    declarations: file.declarations,
  };
  for (const d of file.declarations) {
    switch (d.kind) {
      case 'package': s.packageDecl ??= d; s.packageName = s.packageDecl.name.text; break;
      case 'page': s.pageIdDecl ??= d; break;
      case 'route': if (!s.route) s.route = { decl: d, parsed: parsedRoute(d.path.value) }; break;
      case 'render': s.renderDecl ??= d; break;
      case 'guard': s.guardDecl ??= d; break;
      case 'layout': s.layoutDecl ??= d; break;
      case 'cache': s.cache ??= d; break;
      case 'revalidate': s.revalidate ??= d; break;
      case 'meta': s.meta[d.name] ??= d.value; break;
      case 'paths': s.paths ??= d; break;
      case 'server': s.server ??= d; break;
      case 'act': s.actions.push(d); break;
      case 'api': s.apis.push(d); break;
      case 'fragment': s.fragments.push(d); break;
      case 'view': s.view ??= d; break;
      case 'component': s.component ??= d; break;
      case 'props': s.props ??= d; break;
      case 'use': if (!s.uses.has(d.alias.text)) s.uses.set(d.alias.text, d); break;
      default: break;
    }
  }
  if (s.pageIdDecl && s.kind === 'page') s.ownerId = s.pageIdDecl.id.text;
  if (s.component) s.ownerId = s.component.name.text;
  s.guards = s.guardDecl ? s.guardDecl.guards.map((g: Word) => g.text) : [];
  s.layouts = s.layoutDecl ? s.layoutDecl.layouts.map((l: Word) => l.text) : [];
  const mode = s.renderDecl?.mode.text;
  s.render = mode === 'ssr' || mode === 'hybrid' || mode === 'spa' ? mode : s.server ? 'ssr' : 'spa';

  const bodies: MarkupNode[][] = [];
  if (s.view) bodies.push(s.view.body);
  for (const f of s.fragments) bodies.push(f.body);
  for (const body of bodies) {
    walk(body, (el) => {
      if (el.isComponent) {
        s.componentCalls.push({ name: el.name, alias: el.alias, localName: el.localName, range: el.nameRange, element: el });
      }
      if (el.name === 'slot' && !el.attrs.some((a) => a.name === 'name')) s.defaultSlotCount++;
      for (const a of el.attrs) {
        if (a.name !== 'g:command' && a.name !== 'g:query') continue;
        const ref = a.value && a.value.type === 'string' ? a.value.parts.map((p) => (p.type === 'text' ? p.value : '')).join('') : a.value && a.value.type === 'expr' && a.value.expr.type === 'path' ? a.value.expr.path.join('.') : '';
        const action = a.name === 'g:command' ? attrText(el, 'action') : undefined;
        s.contractRefs.push({ kind: a.name === 'g:command' ? 'command' : 'query', name: ref, range: a.range, actionPath: action, element: el });
      }
    });
  }
  return s;
}

/** The requested render mode is request-time (needs SSR). */
export function isRequestTime(s: FileSummary): boolean {
  return s.render === 'ssr' || s.render === 'hybrid';
}
