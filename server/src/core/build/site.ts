// compileSite: every page and fragment of a checked workspace → template IR plus the asset files
// the pages link. Each layout and component is compiled once; pages instantiate them. The static
// build renders the result to files; the generated app embeds the same IR and renders SSR and
// hybrid pages per request with the same renderer.
import { resolve } from 'node:path';
import type { Element, MarkupNode, PropDecl } from '../../../../grammar/src/ast.js';
import { letBinding, MAX_MARKUP_DEPTH } from '../../../../grammar/src/index.js';
import { parseRoutePattern, type ParsedRoute } from '../../../../shared/route/index.js';
import { concretePaths } from '../model/concrete-paths.js';
import { decodeEntities, escapeHtml, isUnsafeUrl, type Template } from '../../../../shared/render/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/registry.js';
import { effectiveCachePolicy } from '../model/cache-policy.js';
import type { FileSummary, RenderMode } from '../model/summary.js';
import type { Workspace } from '../workspace/workspace.js';
import type { KitEntry } from '../model/entries.js';
import { componentKey, layoutKey } from '../resolve/names.js';
import { SourceError } from '../project/discover.js';
import { readSourceFile } from '../project/read-source.js';
import { declaredFiles } from '../model/asset-files.js';
import { AssetRegistry, type SiteAsset } from './assets.js';
import { OwnerAssets } from './owner-assets.js';
import { scopeClassFor } from './css-scope.js';
import {
  attributeExpr,
  type BoundName,
  compileElement,
  compileNodes,
  freshNesting,
  literalValue,
  type OwnerContext,
  type Scope,
} from './markup.js';
import { push, substitute, toTemplate, type PExpr, type PNode, type SlotContent } from './proto.js';
import { KIT_JS_PATH, KIT_JS_TAG, kitRuntimeSource } from './runtime-script.js';

/** A concrete path rendered ahead of time, and the file it is written to. */
export interface PrerenderPath {
  /** Concrete URL path, segments percent-encoded (`/blog/hello-kit`). */
  path: string;
  /** Output-relative file (`blog/hello-kit/index.html`); the directory names are the encoded segments. */
  file: string;
  /** The route params of this path (a `paths` record; empty for a static route). */
  params: Record<string, string>;
}

export interface CompiledPage {
  pageId: string;
  packageName: string;
  /** Source file (display path). */
  source: string;
  /** Route pattern as declared (`/blog/{slug}`). */
  route: string;
  parsed: ParsedRoute;
  render: RenderMode;
  guards: string[];
  /** Layout IDs, outermost first, parents included. */
  layouts: string[];
  /** Effective Cache-Control (declared `cache`, plus `stale-while-revalidate` from `revalidate`). */
  cache?: string;
  /** Declared `server { => { ... } }` fields (identifiers and dotted paths). */
  serverFields: string[];
  /** The whole document: head, layouts, view. Render with the paths record (or the load result). */
  ir: Template;
  /** Paths written by the static build: public SPA and hybrid pages; empty for SSR and protected pages. */
  prerender: PrerenderPath[];
  /** Whether the document references `/assets/kit/kit.js`. */
  kitJs: boolean;
  /** Stylesheet and module script URLs the head links, in order. */
  stylesheets: string[];
  scripts: string[];
  /**
   * Every file the page's output was made from, as display paths: its own file, its layouts, the
   * components it renders, and the css/js/asset files they read. `kit dev` recompiles a page when
   * one of them changes.
   */
  dependsOn: string[];
  /**
   * Every asset URL the page's document and its error page may reference: its stylesheets and
   * scripts, and what its owners bring (`kit dev` carries them over when it reuses the page).
   */
  assets: string[];
  /** Key into `CompiledSite.errorPages`: the error page this page's errors are answered with. */
  errorPage?: string;
}

export interface CompiledFragment {
  pageId: string;
  name: string;
  method: string;
  /** Fragment route as declared. */
  route: string;
  parsed: ParsedRoute;
  /** Literal `#id` target. */
  target: string;
  source: string;
  guards: string[];
  /** The fragment markup (no document, no layouts), rendered with the fragment's params. */
  ir: Template;
}

export interface CompiledSite {
  /** Pages sorted by page ID. */
  pages: CompiledPage[];
  /** Fragments sorted by page ID, then name. */
  fragments: CompiledFragment[];
  /** Asset files (hashed CSS and JS, and the link runtime when a page needs it), sorted by path. */
  assets: SiteAsset[];
  /** Build errors beyond `kit check` (a missing css/js file). Nothing should be written when present. */
  diagnostics: Diagnostic[];
  /**
   * Error pages by key (`error:layout:<pkg>.<id>`, `error:page:<pkg>.<id>`): documents rendered with
   * `{ status, message }` as data.
   */
  errorPages: Record<string, Template>;
}

export interface CompileSiteOptions {
  /** Directory that source display paths are relative to (default: process.cwd()). */
  cwd?: string;
  /**
   * An earlier compile of this workspace without diagnostics, and the files changed since: a page
   * none of whose `dependsOn` changed is taken from it as it is (`kit dev`). Valid only when no
   * file came or went and no changed `.kit` file changed its shape (names other files resolve).
   */
  previous?: { site: CompiledSite; changed: ReadonlySet<string> };
}

/** A compiled layout or component: proto nodes plus what instantiating it brings along. */
interface Part {
  nodes: PNode[];
  locals: number;
  kitJs: boolean;
  /** Component keys used inside, transitively, in first-use order. */
  components: string[];
  /** How deep its elements nest, and the deepest element a `<slot>` stands in (-1: none). */
  depth: number;
  slot: number;
  /** A call inside nests too deep (reported once, where it crosses); callers leave it out quietly. */
  cut: boolean;
}

// The document head every page starts with. `lang="en"`: the language has no declaration for the
// document language yet, and browsers and screen readers need one; English is the default until a
// page-level declaration exists (the language has none).
const DOC_START =
  '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" ' +
  'content="width=device-width, initial-scale=1">\n';

/** The first non-comment children of a component call, split into named and default slot content. */
function slotChildren(call: Element): { named: Map<string, Element>; rest: MarkupNode[] } {
  const named = new Map<string, Element>();
  const rest: MarkupNode[] = [];
  for (const c of call.children) {
    const g = c.type === 'element' ? c.attrs.find((a) => a.name === 'g:slot') : undefined;
    if (c.type === 'element' && g) {
      const name = literalValue(g) ?? '';
      if (!named.has(name)) named.set(name, c);
    } else rest.push(c);
  }
  return { named, rest };
}

class SiteCompiler {
  readonly diagnostics: Diagnostic[] = [];
  readonly assets = new AssetRegistry();
  private readonly owned: OwnerAssets;
  private readonly components = new Map<string, KitEntry>();
  private readonly layouts = new Map<string, KitEntry>();
  private readonly componentParts = new Map<string, Part | null>();
  private readonly layoutParts = new Map<string, Part>();
  private readonly chains = new Map<string, string[]>();
  readonly errorPages = new Map<string, Template>();
  /** The stylesheet and script URLs of each error page (a page reusing it keeps them). */
  private readonly errorPageAssets = new Map<string, string[]>();
  /** Ids handed to `let:` bindings of slot content (unique per compile, so nested bindings never mix). */
  private letIds = 0;

  constructor(
    private readonly ws: Workspace,
    private readonly cwd: string,
  ) {
    this.owned = new OwnerAssets(cwd, this.assets, this.diagnostics);
    for (const e of ws.allKit()) {
      const key = `${e.summary.packageName}.${e.summary.ownerId}`;
      if (e.summary.kind === 'component' && !this.components.has(key)) this.components.set(key, e);
      if (e.summary.kind === 'layout' && !this.layouts.has(key)) this.layouts.set(key, e);
    }
  }

  // ---- owners ---------------------------------------------------------------------------------

  private context(
    s: FileSummary,
    opts: { props?: ReadonlySet<string>; slots: boolean; route?: ParsedRoute },
  ): OwnerContext {
    return {
      summary: s,
      scopeClass: s.declarations.some((d) => d.kind === 'style')
        ? scopeClassFor(s.kind, s.packageName, s.ownerId)
        : undefined,
      props: opts.props,
      slots: opts.slots,
      route: opts.route,
      assetUrls: this.owned.filesOf(s),
      locals: { n: 0 },
      facts: { kitJs: false, components: [] },
      nesting: freshNesting(),
      component: (call, ctx, scope, out) => this.instantiate(call, ctx, scope, out),
    };
  }

  private compilePart(kind: 'component' | 'layout', entry: KitEntry): Part {
    const s = entry.summary;
    const props = kind === 'component' ? new Set((s.props?.props ?? []).map((p) => p.name.text)) : undefined;
    const ctx = this.context(s, { props, slots: true });
    const nodes: PNode[] = [];
    if (s.view) compileNodes(s.view.body, ctx, new Map(), nodes, 0, true);
    const { facts, nesting } = ctx;
    return {
      nodes,
      locals: ctx.locals.n,
      kitJs: facts.kitJs,
      components: facts.components,
      depth: nesting.max,
      slot: nesting.slot,
      cut: nesting.cut,
    };
  }

  /** A compiled layout (layouts nest through pages' chains, never inside each other's markup). */
  private layoutPart(key: string): Part | undefined {
    let part = this.layoutParts.get(key);
    const entry = this.layouts.get(key);
    if (part === undefined && entry) this.layoutParts.set(key, (part = this.compilePart('layout', entry)));
    return part;
  }

  /**
   * A compiled component. It is compiled with every component it calls that is not compiled yet,
   * callees first (a depth-first walk with its own stack), so compiling never recurses from one
   * component into the next: a chain of thousands of components costs no call stack. A call back
   * into a component still being compiled (a cycle, which kit check reports) finds null and stops.
   */
  private componentPart(key: string): Part | undefined {
    if (!this.componentParts.has(key)) {
      const order: string[] = [];
      const walk: { key: string; calls: string[] }[] = [];
      const enter = (k: string) => {
        const s = this.components.get(k)!.summary;
        this.componentParts.set(k, null);
        const calls = s.componentCalls.map((c) => componentKey(s, c)).filter((c) => c !== undefined);
        walk.push({ key: k, calls: calls.reverse() });
      };
      if (this.components.has(key)) enter(key);
      while (walk.length) {
        const top = walk[walk.length - 1];
        const next = top.calls.pop();
        if (next === undefined) order.push(walk.pop()!.key);
        else if (this.components.has(next) && !this.componentParts.has(next)) enter(next);
      }
      for (const k of order) this.componentParts.set(k, this.compilePart('component', this.components.get(k)!));
    }
    return this.componentParts.get(key) ?? undefined;
  }

  /** A component call: props from the call's attributes, slots from its children. */
  private instantiate(call: Element, ctx: OwnerContext, scope: Scope, out: PNode[]): void {
    const key = componentKey(ctx.summary, call);
    const def = key ? this.components.get(key) : undefined;
    const part = key && def ? this.componentPart(key) : undefined;
    if (!key || !def || !part) {
      if (!def)
        this.diagnostics.push(
          diag(
            'unknown_component',
            ctx.summary.path,
            call.nameRange,
            `${ctx.summary.ownerId}: unknown component <${call.name}>`,
          ),
        );
      return;
    }
    const props = new Map<string, PExpr>();
    for (const p of def.summary.props?.props ?? []) props.set(p.name.text, this.propValue(p, call, ctx, scope));
    const slots = new Map<string, SlotContent>();
    const { named, rest } = slotChildren(call);
    // Slot content is measured from its own top (the component's slot decides where it lands).
    const outer = ctx.nesting;
    const inner = freshNesting();
    ctx.nesting = inner;
    for (const [name, el] of named) {
      const nodes: PNode[] = [];
      const content = this.slotScope(el, scope);
      if (el.name === 'template') compileNodes(el.children, ctx, content.scope, nodes, 0, true);
      else compileElement(el, ctx, content.scope, nodes, 0);
      slots.set(name, { nodes, lets: content.lets });
    }
    if (
      !slots.has('') &&
      rest.some((n) => n.type === 'element' || n.type === 'interp' || (n.type === 'text' && n.value.trim() !== ''))
    ) {
      const nodes: PNode[] = [];
      // `let:` on the call itself binds the default slot's values.
      const content = this.slotScope(call, scope);
      compileNodes(rest, ctx, content.scope, nodes, 0, true);
      slots.set('', { nodes, lets: content.lets });
    }
    ctx.nesting = outer;
    const depth = part.slot >= 0 && slots.size ? Math.max(part.depth, part.slot + inner.max) : part.depth;
    if (part.cut || inner.cut) {
      outer.cut = true;
      return;
    }
    if (outer.now + depth > MAX_MARKUP_DEPTH) {
      outer.cut = true;
      this.diagnostics.push(
        diag(
          'markup_too_deep',
          ctx.summary.path,
          call.nameRange,
          `${ctx.summary.ownerId}: <${call.name}> here nests elements ${outer.now + depth} deep with its content; ` +
            `the limit is ${MAX_MARKUP_DEPTH}: flatten the markup`,
        ),
      );
      return;
    }
    outer.max = Math.max(outer.max, outer.now + depth);
    if (part.slot >= 0 && inner.slot >= 0) outer.slot = Math.max(outer.slot, outer.now + part.slot + inner.slot);
    const base = ctx.locals.n;
    ctx.locals.n += part.locals;
    for (const n of substitute(part.nodes, { props, slots, base })) push(out, n);
    const facts = ctx.facts;
    if (part.kitJs) facts.kitJs = true;
    for (const c of [key, ...part.components]) if (!facts.components.includes(c)) facts.components.push(c);
  }

  /** The scope of slot content: the caller's, plus the names its `let:` attributes bind (fresh ids). */
  private slotScope(el: Element, scope: Scope): { scope: Scope; lets?: ReadonlyMap<string, number> } {
    let lets: Map<string, number> | undefined;
    let inner: Map<string, BoundName> | undefined;
    for (const a of el.attrs) {
      const name = letBinding(a);
      if (!name) continue;
      const id = this.letIds++;
      (lets ??= new Map()).set(name, id);
      (inner ??= new Map(scope)).set(name, { k: 'let', id, p: [] });
    }
    return { scope: inner ?? scope, lets };
  }

  private propValue(p: PropDecl, call: Element, ctx: OwnerContext, scope: Scope): PExpr {
    const a = call.attrs.find((x) => x.name === p.name.text && x.form === 'normal');
    if (!a) return { k: 'lit', v: p.default ? p.default.value : null };
    return attributeExpr(a, ctx, scope, p.type.text);
  }

  /** Layout keys of a page, outermost first: each named layout preceded by its parents, once each. */
  private layoutChain(s: FileSummary): string[] {
    if (s.layouts.length === 0) return [];
    const uses = [...s.uses.entries()].map(([a, u]) => `${a}=${u.pkg.value}`).join(',');
    const key = `${s.packageName}\u0000${uses}\u0000${s.layouts.join(',')}`;
    let chain = this.chains.get(key);
    if (!chain) this.chains.set(key, (chain = this.resolveChain(s)));
    return chain;
  }

  /** Parents before children, once each; a walk with its own stack (layout chains can be long). */
  private resolveChain(s: FileSummary): string[] {
    const out: string[] = [];
    const done = new Set<string>();
    const visiting = new Set<string>();
    const walk: { key: string; from: FileSummary; parents: string[] }[] = [];
    const enter = (from: FileSummary, id: string) => {
      const key = layoutKey(from, id);
      const def = key ? this.layouts.get(key) : undefined;
      if (!key || !def || done.has(key) || visiting.has(key)) return;
      visiting.add(key);
      walk.push({ key, from: def.summary, parents: [...def.summary.layouts].reverse() });
    };
    for (const id of s.layouts) {
      enter(s, id);
      while (walk.length) {
        const top = walk[walk.length - 1];
        const parent = top.parents.pop();
        if (parent !== undefined) {
          enter(top.from, parent);
          continue;
        }
        walk.pop();
        visiting.delete(top.key);
        done.add(top.key);
        out.push(top.key);
      }
    }
    return out;
  }

  // ---- pages ----------------------------------------------------------------------------------

  compilePage(e: KitEntry): CompiledPage | undefined {
    const s = e.summary;
    if (s.kind !== 'page' || !s.route || !s.route.parsed.valid || !s.view) return undefined;
    const route = s.route.parsed;
    const ctx = this.context(s, { slots: false, route });
    let body: PNode[] = [];
    compileNodes(s.view.body, ctx, new Map(), body, 0, true);
    const chain = this.layoutChain(s);
    const facts = ctx.facts;
    const layoutComponents: string[] = [];
    let depth = ctx.nesting.max;
    for (let i = ctx.nesting.cut ? -1 : chain.length - 1; i >= 0; i--) {
      const part = this.layoutPart(chain[i]);
      if (!part) continue;
      depth = part.slot >= 0 ? Math.max(part.depth, part.slot + depth) : part.depth;
      if (depth > MAX_MARKUP_DEPTH) {
        this.diagnostics.push(
          diag(
            'markup_too_deep',
            s.path,
            s.layoutDecl?.range ?? s.view.range,
            `${s.ownerId}: with its layouts (from ${chain[i].slice(chain[i].lastIndexOf('.') + 1)} out) the page ` +
              `nests elements ${depth} deep; the limit is ${MAX_MARKUP_DEPTH}: flatten the markup`,
          ),
        );
        break;
      }
      const base = ctx.locals.n;
      ctx.locals.n += part.locals;
      body = substitute(part.nodes, { props: new Map(), slots: new Map([['', { nodes: body }]]), base });
      if (part.kitJs) facts.kitJs = true;
      layoutComponents.unshift(...part.components);
    }
    const layoutEntries = chain.map((k) => this.layouts.get(k)!).filter(Boolean);
    const componentKeys: string[] = [];
    for (const c of [...layoutComponents, ...facts.components]) if (!componentKeys.includes(c)) componentKeys.push(c);
    const owners = [
      ...layoutEntries.map((l) => l.summary),
      ...componentKeys.map((k) => this.components.get(k)!.summary),
      s,
    ];
    const stylesheets = this.owned.pageStylesheets(s, owners);
    const scripts: string[] = [];
    for (const o of owners) for (const h of this.owned.scriptsOf(o)) if (!scripts.includes(h)) scripts.push(h);

    const title =
      s.meta.title?.value ??
      [...layoutEntries].reverse().find((l) => l.summary.meta.title)?.summary.meta.title?.value ??
      s.ownerId;
    const description =
      s.meta.description?.value ??
      [...layoutEntries].reverse().find((l) => l.summary.meta.description)?.summary.meta.description?.value;
    const head = documentStart(
      { title, description, canonical: s.meta.canonical?.value },
      stylesheets,
      facts.kitJs,
      scripts,
    );
    const dependsOn: string[] = [];
    for (const o of owners) for (const f of [o.path, ...this.owned.readsOf(o)]) dependsOn.push(f);
    // Only what was registered for this page already: asking for more would register it.
    const assets = new Set([...stylesheets, ...scripts]);
    for (const o of owners) for (const href of this.owned.filesOf(o).values()) assets.add(href);
    const doc: PNode[] = [head];
    for (const n of body) push(doc, n);
    push(doc, '\n</body>\n</html>\n');

    const cache = effectiveCachePolicy(s.cache?.value.value, s.revalidate?.value.text);
    const page: CompiledPage = {
      pageId: s.ownerId,
      packageName: s.packageName,
      source: s.path,
      route: route.pattern,
      parsed: route,
      render: s.render,
      guards: s.guards,
      layouts: layoutEntries.map((l) => l.summary.ownerId),
      ...(cache !== undefined ? { cache } : {}),
      serverFields: s.server ? s.server.fields.map((f) => f.text) : [],
      ir: toTemplate(doc, ctx.locals.n, `page ${s.ownerId}`),
      prerender: s.render === 'ssr' || isProtected(s) ? [] : prerenderPaths(s, route),
      kitJs: facts.kitJs,
      stylesheets,
      scripts,
      dependsOn: [...new Set(dependsOn)],
      assets: [],
      ...this.errorPageField(s),
    };
    for (const href of page.errorPage !== undefined ? (this.errorPageAssets.get(page.errorPage) ?? []) : [])
      assets.add(href);
    page.assets = [...assets];
    return page;
  }

  // ---- error pages ----------------------------------------------------------------------------

  private errorPageField(s: FileSummary): { errorPage?: string } {
    const key = this.errorPageOf(s);
    return key === undefined ? {} : { errorPage: key };
  }

  /** A page's error page: its own `error` document, else the innermost layout's that has one. */
  private errorPageOf(s: FileSummary): string | undefined {
    const chain = this.layoutChain(s);
    if (errorDocOf(s)) return this.errorPage(s, chain, `error:page:${s.packageName}.${s.ownerId}`);
    for (let i = chain.length - 1; i >= 0; i--) {
      const l = this.layouts.get(chain[i])?.summary;
      if (l && errorDocOf(l)) return this.errorPage(l, chain.slice(0, i + 1), `error:layout:${chain[i]}`);
    }
    return undefined;
  }

  /**
   * Compiles an `error` document once: a fragment goes into the layouts' slot (outermost first),
   * a whole document (`<!doctype` or `<html` first) stands alone; `{status}` and `{message}` are
   * the values it renders with, escaped like any interpolation.
   */
  private errorPage(owner: FileSummary, chain: readonly string[], key: string): string | undefined {
    if (this.errorPages.has(key)) return key;
    const f = declaredFiles(owner).find((d) => d.kind === 'error');
    if (!f?.path) return undefined;
    let text: string;
    try {
      text = readSourceFile(resolve(this.cwd, f.path), f.path).text;
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      this.diagnostics.push(diag('missing_asset', owner.path, f.range, `${owner.ownerId}: ${e.message}`));
      return undefined;
    }
    let body: PNode[] = [];
    for (const part of text.split(/(\{(?:status|message)\})/)) {
      if (part === '{status}' || part === '{message}')
        body.push({ t: 'text', e: { k: 'data', p: [part.slice(1, -1)] } });
      else push(body, part);
    }
    if (/^\s*<(!doctype|html)/i.test(text)) {
      this.errorPages.set(key, toTemplate(body, 0, key));
      return key;
    }
    let locals = 0;
    let kitJs = false;
    for (let i = chain.length - 1; i >= 0; i--) {
      const part = this.layoutPart(chain[i]);
      if (!part) continue;
      body = substitute(part.nodes, { props: new Map(), slots: new Map([['', { nodes: body }]]), base: locals });
      locals += part.locals;
      kitJs ||= part.kitJs;
    }
    const layouts = chain.map((k) => this.layouts.get(k)?.summary).filter((l) => l !== undefined);
    const stylesheets = [...new Set(layouts.flatMap((l) => this.owned.stylesheetsOf(l)))];
    const scripts = [...new Set(layouts.flatMap((l) => this.owned.scriptsOf(l)))];
    const title = [...layouts].reverse().find((l) => l.meta.title)?.meta.title?.value ?? 'Error';
    const doc: PNode[] = [documentStart({ title }, stylesheets, kitJs, scripts)];
    for (const n of body) push(doc, n);
    push(doc, '\n</body>\n</html>\n');
    this.errorPages.set(key, toTemplate(doc, locals, key));
    this.errorPageAssets.set(key, [...stylesheets, ...scripts]);
    return key;
  }

  compileFragments(e: KitEntry): CompiledFragment[] {
    const s = e.summary;
    const out: CompiledFragment[] = [];
    for (const f of s.fragments) {
      const parsed = parseRoutePattern(f.path.value);
      const ctx = this.context(s, { slots: false, route: parsed });
      const nodes: PNode[] = [];
      compileNodes(f.body, ctx, new Map(), nodes, 0, true);
      out.push({
        pageId: s.ownerId,
        name: f.name.text,
        method: f.method.text.toUpperCase(),
        route: f.path.value,
        parsed,
        target: f.target.value,
        source: s.path,
        guards: s.guards,
        ir: toTemplate(nodes, ctx.locals.n, `fragment ${s.ownerId}.${f.name.text}`),
      });
    }
    return out;
  }
}

/** The document up to `<body>`: head metadata, then stylesheets, the link runtime and module scripts. */
function documentStart(
  meta: { title: string; description?: string; canonical?: string },
  stylesheets: readonly string[],
  kitJs: boolean,
  scripts: readonly string[],
): string {
  let head = DOC_START + `<title>${escapeHtml(meta.title)}</title>\n`;
  if (meta.description !== undefined) head += `<meta name="description" content="${escapeHtml(meta.description)}">\n`;
  const canonical = meta.canonical;
  if (canonical !== undefined && !isUnsafeUrl(decodeEntities(canonical)))
    head += `<link rel="canonical" href="${escapeHtml(canonical)}">\n`;
  for (const h of stylesheets) head += `<link rel="stylesheet" href="${escapeHtml(h)}">\n`;
  if (kitJs) head += KIT_JS_TAG + '\n';
  for (const h of scripts) head += `<script type="module" src="${escapeHtml(h)}"></script>\n`;
  return head + '</head>\n<body>\n';
}

/** Output file of a concrete path: `/` → `index.html`, `/docs` → `docs/index.html`. */
export function outputFile(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1)}/index.html`;
}

/**
 * A page behind a protective guard is never written ahead of time, whatever its render mode: the
 * static output is meant for hosts that serve every file to anyone. `kit check` rejects such a
 * page when it is built ahead of time (`guard_requires_request_render`); a hybrid one is rendered
 * per request by the app instead.
 */
function isProtected(s: FileSummary): boolean {
  return s.guards.some((g) => g !== 'public');
}

function errorDocOf(s: FileSummary): boolean {
  return s.declarations.some((d) => d.kind === 'error');
}

function prerenderPaths(s: FileSummary, route: ParsedRoute): PrerenderPath[] {
  return concretePaths(s, route).map(({ path, params }) => ({ path, file: outputFile(path), params }));
}

/**
 * Compiles every page and fragment of the workspace. Call it on a workspace without errors (as
 * `kit build` does); with errors the result is best effort.
 */
export function compileSite(ws: Workspace, options: CompileSiteOptions = {}): CompiledSite {
  const c = new SiteCompiler(ws, options.cwd ?? process.cwd());
  const pages: CompiledPage[] = [];
  const fragments: CompiledFragment[] = [];
  const previous = options.previous;
  const before = previous ? new Map(previous.site.pages.map((p) => [p.source, p])) : undefined;
  const assetsBefore = previous ? new Map(previous.site.assets.map((a) => ['/' + a.path, a])) : undefined;
  for (const e of ws.allKit()) {
    if (e.summary.kind !== 'page') continue;
    const old = before?.get(e.path);
    if (old !== undefined && !old.dependsOn.some((f) => previous!.changed.has(f))) {
      for (const href of old.assets) c.assets.adopt(assetsBefore!.get(href));
      if (old.errorPage !== undefined && !c.errorPages.has(old.errorPage))
        c.errorPages.set(old.errorPage, previous!.site.errorPages[old.errorPage]);
      pages.push(old);
      fragments.push(...c.compileFragments(e));
      continue;
    }
    const page = c.compilePage(e);
    if (page) pages.push(page);
    fragments.push(...c.compileFragments(e));
  }
  pages.sort((a, b) => (a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : a.source < b.source ? -1 : 1));
  fragments.sort((a, b) =>
    a.pageId !== b.pageId ? (a.pageId < b.pageId ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  if (pages.some((p) => p.kitJs)) c.assets.fixed(KIT_JS_PATH, kitRuntimeSource());
  return {
    pages,
    fragments,
    assets: c.assets.list(),
    diagnostics: c.diagnostics,
    errorPages: Object.fromEntries([...c.errorPages].sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}
