// The per-file summary: everything the workspace and the cross-file rules need, computed from one
// AST only. An edit invalidates its own file's summary and nothing else.
import type {
  ActDecl,
  ApiDecl,
  CacheDecl,
  ComponentDecl,
  Declaration,
  Element,
  FileKind,
  FragmentDecl,
  GuardDecl,
  KitFile,
  LayoutDecl,
  MarkupNode,
  PageIdDecl,
  PathsBlock,
  PropsBlock,
  Range,
  RenderDecl,
  RevalidateDecl,
  RouteDecl,
  ServerBlock,
  StringLit,
  UseDecl,
  ViewBlock,
  Word,
  PackageDecl,
  MetaDecl,
} from '#grammar/index.js';
import { isOneOf, RENDER_MODES, type RenderMode } from '#shared/language/facts.js';
import type { ParsedRoute } from '#shared/route/index.js';
import { parsedRoute } from './route-cache.js';
import { exactSize } from './exact-size.js';
import { MarkupMemo, type MarkupVisitor } from './markup-memo.js';
import { baseName, dirName, ownerIdFromPath } from './names.js';

export type { RenderMode } from '#shared/language/facts.js';

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

/**
 * A literal root-relative link of the markup: `<a href="/…">`, or the `action="/…"` of a plain form
 * (not `g:post`, `g:command` or `g:query`, whose paths are registered routes). Values with `{…}`
 * are not links here: what they point at is known only when they render.
 */
export interface InternalLink {
  /** As written, query and fragment included. */
  href: string;
  method: 'GET' | 'POST';
  range: Range;
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
  /** By alias, first declaration first (read-only: a file without `use` shares one empty map). */
  uses: ReadonlyMap<string, UseDecl>;
  componentCalls: ComponentCall[];
  contractRefs: ContractRef[];
  links: InternalLink[];
  /** Count of `<slot>` elements without a `name` in the view (layouts need exactly one). */
  defaultSlotCount: number;
  /** The `<slot>` elements of the view, in document order (`slotOutlet` reads one). */
  slotElements: Element[];
  declarations: Declaration[];
}

export function attrText(el: Element, name: string): { value: string; range: Range } | undefined {
  for (const a of el.attrs) {
    if (a.name !== name || !a.value || a.value.type !== 'string') continue;
    // Read for every link of every page: one pass, no closures.
    const parts = a.value.parts;
    let value = '';
    let literal = true;
    for (let i = 0; i < parts.length && literal; i++) {
      const p = parts[i];
      if (p.type === 'text') value += p.value;
      else literal = false;
    }
    if (literal) return { value, range: a.value.range };
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
    uses: NO_USES,
    componentCalls: [],
    contractRefs: [],
    links: [],
    defaultSlotCount: 0,
    slotElements: [],
    declarations: file.declarations,
  };
  for (const d of file.declarations) {
    switch (d.kind) {
      case 'package':
        s.packageDecl ??= d;
        s.packageName = s.packageDecl.name.text;
        break;
      case 'page':
        s.pageIdDecl ??= d;
        break;
      case 'route':
        if (!s.route) s.route = { decl: d, parsed: parsedRoute(d.path.value) };
        break;
      case 'render':
        s.renderDecl ??= d;
        break;
      case 'guard':
        s.guardDecl ??= d;
        break;
      case 'layout':
        s.layoutDecl ??= d;
        break;
      case 'cache':
        s.cache ??= d;
        break;
      case 'revalidate':
        s.revalidate ??= d;
        break;
      case 'meta':
        s.meta[d.name] ??= d.value;
        break;
      case 'paths':
        s.paths ??= d;
        break;
      case 'server':
        s.server ??= d;
        break;
      case 'act':
        s.actions.push(d);
        break;
      case 'api':
        s.apis.push(d);
        break;
      case 'fragment':
        s.fragments.push(d);
        break;
      case 'view':
        s.view ??= d;
        break;
      case 'component':
        s.component ??= d;
        break;
      case 'props':
        s.props ??= d;
        break;
      case 'use':
        if (s.uses === NO_USES) s.uses = new Map();
        if (!s.uses.has(d.alias.text)) (s.uses as Map<string, UseDecl>).set(d.alias.text, d);
        break;
      default:
        break;
    }
  }
  if (s.pageIdDecl && s.kind === 'page') s.ownerId = s.pageIdDecl.id.text;
  if (s.component) s.ownerId = s.component.name.text;
  s.guards = s.guardDecl ? s.guardDecl.guards.map((g: Word) => g.text) : none<string>();
  s.layouts = s.layoutDecl ? s.layoutDecl.layouts.map((l: Word) => l.text) : none<string>();
  const mode = s.renderDecl?.mode.text;
  s.render = mode !== undefined && isOneOf(RENDER_MODES, mode) ? mode : s.server ? 'ssr' : 'spa';

  const bodies: MarkupNode[][] = [];
  if (s.view) bodies.push(s.view.body);
  for (const f of s.fragments) bodies.push(f.body);
  for (const body of bodies) {
    for (const x of VIEW_FACTS.collect(body, '', VIEW_FACT_VISITOR)) {
      if ('type' in x) {
        if (body === s.view?.body) s.slotElements.push(x);
        if (!x.attrs.some((a) => a.name === 'name')) s.defaultSlotCount++;
      } else if ('href' in x) s.links.push(x);
      else if ('kind' in x) s.contractRefs.push(x);
      else s.componentCalls.push(x);
    }
  }
  return compactSummary(s);
}

/** The `uses` of a file without `use` declarations. */
const NO_USES: ReadonlyMap<string, UseDecl> = new Map();
/** The shared value of every empty list of a summary: frozen, so that a stray push fails loudly. */
const NONE: readonly never[] = Object.freeze([]);

/** `NONE` as the mutable list type the summary declares (nothing may push to it: it is frozen). */
function none<T>(): T[] {
  return NONE as unknown as T[];
}

/** `a` at its size (`exactSize`), or the shared empty list: an empty one is an object of its own. */
function sized<T>(a: T[]): T[] {
  return a.length === 0 ? none<T>() : exactSize(a);
}

/**
 * The summary `s` with its lists at exact size and the shared empty values (`summarize`'s lists
 * grow by `push`); also for a summary cloned from a loading thread, whose empty values are copies.
 */
export function compactSummary(s: FileSummary): FileSummary {
  s.actions = sized(s.actions);
  s.apis = sized(s.apis);
  s.fragments = sized(s.fragments);
  s.componentCalls = sized(s.componentCalls);
  s.contractRefs = sized(s.contractRefs);
  s.links = sized(s.links);
  s.slotElements = sized(s.slotElements);
  if (s.uses.size === 0) s.uses = NO_USES;
  return s;
}

/** What the view walk of `summarize` gathers, element by element (it depends on nothing else). */
const VIEW_FACTS = new MarkupMemo<ViewFact>();
/** A component call, a contract reference, an internal link or a `<slot>` element. */
type ViewFact = ComponentCall | ContractRef | InternalLink | Element;

function isRootRelative(v: string): boolean {
  return v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/\\');
}

/**
 * One string for all equal ones that summaries keep. A site links its pages from many others (ten
 * links a page, each target linked ten times over) and calls its components with the same props,
 * and each href or prop name was a string of its own, kept as long as the workspace. The table
 * forgets everything once it holds `SHARED`.
 */
const sharedStrings = new Map<string, string>();
const SHARED = 1 << 16;

export function sharedString(text: string): string {
  const known = sharedStrings.get(text);
  if (known !== undefined) return known;
  if (sharedStrings.size >= SHARED) sharedStrings.clear();
  sharedStrings.set(text, text);
  return text;
}

function internalLink(el: Element): InternalLink | undefined {
  if (el.name === 'a') {
    const href = attrText(el, 'href');
    return href && isRootRelative(href.value)
      ? { href: sharedString(href.value), method: 'GET', range: href.range }
      : undefined;
  }
  if (el.name !== 'form' || el.attrs.some((a) => a.name === 'g:post' || a.name === 'g:command' || a.name === 'g:query'))
    return undefined;
  const action = attrText(el, 'action');
  if (!action || !isRootRelative(action.value)) return undefined;
  const method = attrText(el, 'method')?.value.toLowerCase() === 'post' ? 'POST' : 'GET';
  return { href: sharedString(action.value), method, range: action.range };
}

const VIEW_FACT_VISITOR: MarkupVisitor<ViewFact> = {
  element(el, out) {
    const link = internalLink(el);
    if (link) out.push(link);
    if (el.isComponent) {
      out.push({ name: el.name, alias: el.alias, localName: el.localName, range: el.nameRange, element: el });
    }
    if (el.name === 'slot') out.push(el);
    for (const a of el.attrs) {
      if (a.name !== 'g:command' && a.name !== 'g:query') continue;
      const ref =
        a.value && a.value.type === 'string'
          ? a.value.parts.map((p) => (p.type === 'text' ? p.value : '')).join('')
          : a.value && a.value.type === 'expr' && a.value.expr.type === 'path'
            ? a.value.expr.path.join('.')
            : '';
      const action = a.name === 'g:command' ? attrText(el, 'action') : undefined;
      out.push({
        kind: a.name === 'g:command' ? 'command' : 'query',
        name: ref,
        range: a.range,
        actionPath: action,
        element: el,
      });
    }
  },
};

/** The requested render mode is request-time (needs SSR). */
export function isRequestTime(s: FileSummary): boolean {
  return s.render === 'ssr' || s.render === 'hybrid';
}
