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
  uses: Map<string, UseDecl>;
  componentCalls: ComponentCall[];
  contractRefs: ContractRef[];
  links: InternalLink[];
  /** Count of `<slot>` elements without a `name` in the view (layouts need exactly one). */
  defaultSlotCount: number;
  /** The `<slot>` elements of the view, in document order (`slotOutlet` reads one). */
  slotElements: Element[];
  declarations: Declaration[];
}

/** Visits every element of `nodes`, parents before children, in document order. */
export function walkElements(nodes: MarkupNode[], visit: (el: Element) => void): void {
  for (const n of nodes) {
    if (n.type !== 'element') continue;
    visit(n);
    walkElements(n.children, visit);
  }
}

// ---- Markup folds, memoised per element ---------------------------------------------------------
//
// Walks over a long view make every edit cost the whole view. A fold collects, in document order,
// what one element contributes by itself (`element`) and what the non-element nodes contribute
// (`node`); in a large body each element's result, its subtree included, is remembered by element
// identity. That is sound because an element object never changes after parsing except for its
// positions, which the incremental parser shifts in place (ancestors of a re-parsed element are
// copied, not mutated: grammar/src/markup-reuse.ts): results that point at the element's own range
// objects move with it. Anything else a contribution depends on goes into the memo's context key.

/** A remembered subtree: its contributions are `items`, then those of `kids`, in that order. */
class Fold<T> {
  /** How many contributions the subtree has in all. */
  readonly size: number;

  constructor(
    readonly items: readonly T[],
    readonly kids: readonly Fold<T>[],
  ) {
    let size = items.length;
    for (const k of kids) size += k.size;
    this.size = size;
  }
}

export interface MarkupVisitor<T> {
  /** What the element contributes by itself (its attributes, its name), children excluded. */
  element(el: Element, out: T[]): void;
  /** What a text, interpolation or comment node contributes. */
  node?(n: Exclude<MarkupNode, Element>, out: T[]): void;
}

/** Bodies shorter than this (in characters) are walked afresh: cheap, and they leave no memo behind. */
export const MEMO_MIN_BODY_CHARS = 16 * 1024;

/** Contexts kept per memo; an edit that changes a context's key starts a new one. */
const MEMO_CONTEXTS = 8;

/**
 * Subtrees with at most this many contributions keep them in one flat list: emitting a long body
 * then visits a few folds per top-level element instead of one per element.
 */
const FLAT_FOLD = 32;

/**
 * Long child lists are remembered in runs of this many nodes too, keyed by the run's first node:
 * the element enclosing an edit is new each time, and looking its thousands of children up one
 * by one would cost more than the rest of the walk. A run is reused while it holds the same nodes.
 */
const RUN = 64;
/** Runs with at most this many contributions are kept flat. */
const FLAT_RUN = 256;

interface Run<T> {
  nodes: MarkupNode[];
  fold: Fold<T>;
}

interface MemoTable<T> {
  elements: WeakMap<Element, Fold<T>>;
  runs: WeakMap<MarkupNode, Run<T>>;
}

export class MarkupMemo<T> {
  private readonly tables = new Map<string, MemoTable<T>>();
  private readonly empty = new Fold<T>([], []);

  /**
   * Every contribution of `body` in document order: each element's own before its children's.
   * `context` must name everything besides the element that `visitor` reads (file, names in
   * scope, ...): results are reused only under the same context, whichever visitor made them.
   */
  collect(body: MarkupNode[], context: string, visitor: MarkupVisitor<T>): T[] {
    const out: T[] = [];
    const table =
      body.length && body[body.length - 1].range.end.offset - body[0].range.start.offset >= MEMO_MIN_BODY_CHARS
        ? this.table(context)
        : undefined;
    if (!table) this.flat(body, visitor, out);
    else for (const f of this.nodes(body, visitor, table)) this.emit(f, out);
    return out;
  }

  private table(context: string): MemoTable<T> {
    let t = this.tables.get(context);
    if (t) this.tables.delete(context);
    else {
      t = { elements: new WeakMap(), runs: new WeakMap() };
      if (this.tables.size >= MEMO_CONTEXTS) this.tables.delete(this.tables.keys().next().value!);
    }
    this.tables.set(context, t);
    return t;
  }

  private flat(nodes: MarkupNode[], visitor: MarkupVisitor<T>, out: T[]): void {
    for (const n of nodes) {
      if (n.type === 'element') {
        visitor.element(n, out);
        this.flat(n.children, visitor, out);
      } else visitor.node?.(n, out);
    }
  }

  /** The non-empty folds of `nodes`, in order. */
  private nodes(nodes: MarkupNode[], visitor: MarkupVisitor<T>, table: MemoTable<T>): Fold<T>[] {
    if (nodes.length <= RUN) return this.span(nodes, 0, nodes.length, visitor, table);
    const kids: Fold<T>[] = [];
    for (let i = 0; i < nodes.length; i += RUN) {
      const end = Math.min(nodes.length, i + RUN);
      let run = table.runs.get(nodes[i]);
      if (!run || !sameNodes(run.nodes, nodes, i, end)) {
        run = { nodes: nodes.slice(i, end), fold: this.fold([], this.span(nodes, i, end, visitor, table), FLAT_RUN) };
        table.runs.set(nodes[i], run);
      }
      if (run.fold !== this.empty) kids.push(run.fold);
    }
    return kids;
  }

  /** The non-empty folds of `nodes[from, to)`; what the other nodes between them contribute as folds of their own. */
  private span(
    nodes: MarkupNode[],
    from: number,
    to: number,
    visitor: MarkupVisitor<T>,
    table: MemoTable<T>,
  ): Fold<T>[] {
    const kids: Fold<T>[] = [];
    let loose: T[] = [];
    for (let i = from; i < to; i++) {
      const n = nodes[i];
      if (n.type === 'element') {
        const f = this.element(n, visitor, table);
        if (f === this.empty) continue;
        if (loose.length) {
          kids.push(new Fold(loose, []));
          loose = [];
        }
        kids.push(f);
      } else visitor.node?.(n, loose);
    }
    if (loose.length) kids.push(new Fold(loose, []));
    return kids;
  }

  private element(el: Element, visitor: MarkupVisitor<T>, table: MemoTable<T>): Fold<T> {
    const hit = table.elements.get(el);
    if (hit) return hit;
    const items: T[] = [];
    visitor.element(el, items);
    const f = this.fold(items, this.nodes(el.children, visitor, table), FLAT_FOLD);
    table.elements.set(el, f);
    return f;
  }

  /** `items` then `kids` as one fold, flattened when it holds at most `flatMax` contributions. */
  private fold(items: T[], kids: Fold<T>[], flatMax: number): Fold<T> {
    if (kids.length && items.length + kids.reduce((n, k) => n + k.size, 0) <= flatMax) {
      for (const k of kids) this.emit(k, items);
      kids = [];
    }
    return items.length || kids.length ? new Fold(items, kids) : this.empty;
  }

  private emit(f: Fold<T>, out: T[]): void {
    const items = f.items;
    for (let i = 0; i < items.length; i++) out.push(items[i]);
    const kids = f.kids;
    for (let i = 0; i < kids.length; i++) this.emit(kids[i], out);
  }
}

function sameNodes(run: MarkupNode[], nodes: MarkupNode[], from: number, to: number): boolean {
  if (run.length !== to - from) return false;
  for (let i = from; i < to; i++) if (run[i - from] !== nodes[i]) return false;
  return true;
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
        if (!s.uses.has(d.alias.text)) s.uses.set(d.alias.text, d);
        break;
      default:
        break;
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
    for (const x of VIEW_FACTS.collect(body, '', VIEW_FACT_VISITOR)) {
      if ('type' in x) {
        if (body === s.view?.body) s.slotElements.push(x);
        if (!x.attrs.some((a) => a.name === 'name')) s.defaultSlotCount++;
      } else if ('href' in x) s.links.push(x);
      else if ('kind' in x) s.contractRefs.push(x);
      else s.componentCalls.push(x);
    }
  }
  return s;
}

/** What the view walk of `summarize` gathers, element by element (it depends on nothing else). */
const VIEW_FACTS = new MarkupMemo<ViewFact>();
/** A component call, a contract reference, an internal link or a `<slot>` element. */
type ViewFact = ComponentCall | ContractRef | InternalLink | Element;

function isRootRelative(v: string): boolean {
  return v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/\\');
}

function internalLink(el: Element): InternalLink | undefined {
  if (el.name === 'a') {
    const href = attrText(el, 'href');
    return href && isRootRelative(href.value) ? { href: href.value, method: 'GET', range: href.range } : undefined;
  }
  if (el.name !== 'form' || el.attrs.some((a) => a.name === 'g:post' || a.name === 'g:command' || a.name === 'g:query'))
    return undefined;
  const action = attrText(el, 'action');
  if (!action || !isRootRelative(action.value)) return undefined;
  const method = attrText(el, 'method')?.value.toLowerCase() === 'post' ? 'POST' : 'GET';
  return { href: action.value, method, range: action.range };
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
