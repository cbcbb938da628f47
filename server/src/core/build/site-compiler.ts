// The compiler of one site (`SiteCompiler`): each page's head and body, its fragments, error pages
// (`error-pages.ts`) and the asset files the pages link, with each layout and component compiled once
// (`parts.ts`). `compileSite` (site.ts) runs it over a workspace; `early-bodies.ts` runs it as files are read.
import { MAX_MARKUP_DEPTH, type ViewBlock } from '#grammar/index.js';
import { parseRoutePattern } from '#shared/route/index.js';
import type { Template } from '#shared/render/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/registry.js';
import { effectiveCachePolicy } from '../model/cache-policy.js';
import type { FileSummary } from '../model/summary.js';
import type { Workspace } from '../workspace/workspace.js';
import type { KitEntry } from '../model/entries.js';
import { markupOnce, releaseMarkup } from '../model/markup-release.js';
import { AssetRegistry } from './assets.js';
import { OwnerAssets } from './owner-assets.js';
import { compileNodes } from './markup.js';
import type { OwnerContext } from './owner-context.js';
import { PartCompiler } from './parts.js';
import { finishTemplate } from './forms.js';
import { substitute, type PNode } from './proto.js';
import { KIT_JS_PATH, kitRuntimeSource } from './runtime-script.js';
import { documentMeta, documentStart, prerenderPaths, wholeDocument } from './document.js';
import { ErrorPages } from './error-pages.js';
import type { CompiledFragment, CompiledPage, PageBody } from './compiled.js';

/** A page's fields that come from its markup: compiled with it (`lazyPage`: when first read). */
const BODY_FIELDS = [
  'ir',
  'kitJs',
  'stylesheets',
  'scripts',
  'dependsOn',
  'assets',
] as const satisfies readonly (keyof PageBody)[];
type PageHead = Omit<CompiledPage, (typeof BODY_FIELDS)[number]>;

/** Each lazy page's compile on first read (`lazyPage`), which the shared accessors below call. */
const bodyOnRead = new WeakMap<object, () => PageBody>();

/**
 * The accessors of a lazy page's body fields, the same for every page: each compiles the page's
 * body when first read. (A closure and a descriptor per field and page were most of what making a
 * lazy page cost: 4,000 pages, 24,000 of each.)
 */
const BODY_ACCESSORS: PropertyDescriptorMap = Object.fromEntries(
  BODY_FIELDS.map((k) => [
    k,
    {
      get(this: object) {
        return bodyOnRead.get(this)!()[k];
      },
      enumerable: true,
      configurable: true,
    },
  ]),
);

/** A page compiled as its file was read (`early-bodies.ts`): what `compileSite` would make of it. */
export interface EarlyPage {
  /** The entry it was compiled from. */
  entry: KitEntry;
  head: PageHead;
  body: PageBody;
  fragments: CompiledFragment[];
}

/** Pages compiled before `compileSite` runs, by the compiler it then goes on with (`early-bodies.ts`). */
export interface EarlyPages {
  /** The compiler of those pages, when they are what `compileSite` would make of `ws`. */
  adopt(ws: Workspace): SiteCompiler | undefined;
  /** The page compiled from the entry `e` (once). */
  take(e: KitEntry): EarlyPage | undefined;
}

/** The compiler of one site: its assets, error pages, diagnostics and compiled layouts and components. */
export class SiteCompiler {
  readonly diagnostics: Diagnostic[] = [];
  readonly assets = new AssetRegistry();
  private readonly owned: OwnerAssets;
  private readonly parts: PartCompiler;
  private readonly errors: ErrorPages;
  /** The compiled error documents, by key (`CompiledPage.errorPage`). */
  readonly errorPages: Map<string, Template>;

  /** `kits`: the entries whose layouts and components pages use (more may come: `addPart`). */
  constructor(
    kits: readonly KitEntry[],
    private readonly cwd: string,
  ) {
    this.owned = new OwnerAssets(cwd, this.assets, this.diagnostics);
    this.parts = new PartCompiler(kits, this.owned, this.diagnostics);
    this.errors = new ErrorPages(cwd, this.parts, this.owned, this.diagnostics);
    this.errorPages = this.errors.templates;
  }

  /** Makes a layout or component known; false when another file declares its name (`PartCompiler.add`). */
  addPart(e: KitEntry): boolean {
    return this.parts.add(e);
  }

  /** Whether every layout and component a file renders is known (`PartCompiler.ready`). */
  partsReady(s: FileSummary): boolean {
    return this.parts.ready(s);
  }

  /** A page and its fragments compiled from its markup as it is now (`EarlyBodies`); undefined: not a page to write. */
  earlyPage(e: KitEntry): EarlyPage | undefined {
    const s = e.summary;
    const head = this.pageHead(s);
    if (!head || !s.view) return undefined;
    return { entry: e, head, body: this.pageBody(s, s.view, head), fragments: this.compileFragments(e) };
  }

  // ---- pages ----------------------------------------------------------------------------------

  compilePage(e: KitEntry): CompiledPage | undefined {
    const s = e.summary;
    const head = this.pageHead(s);
    // One object grown in place (a spread of both makes a third, slower to build and to read).
    return head && s.view && Object.assign(head, this.pageBody(s, s.view, head));
  }

  /**
   * A page whose body (template and assets) compiles when one of its fields is first read, from
   * the summary `entry()` answers then (`kit dev` compiles the pages it is asked for). `ahead`: the
   * page compiled as its file was read, whose body the first read (or `once`) takes.
   */
  lazyPage(e: KitEntry, entry: () => KitEntry, ahead?: EarlyPage): CompiledPage | undefined {
    const head = ahead?.head ?? this.pageHead(e.summary);
    const was = e.summary.view;
    if (!head || !was) return undefined;
    const page = head as CompiledPage;
    let early = ahead?.body;
    const takeEarly = (): PageBody | undefined => {
      const body = early;
      early = undefined;
      return body;
    };
    const compile = (): PageBody => {
      // The file as it is now; one that lost its view since compiles as it was.
      const now = entry().summary;
      const body = takeEarly() ?? (now.view ? this.pageBody(now, now.view, head) : this.pageBody(e.summary, was, head));
      for (const k of BODY_FIELDS)
        Object.defineProperty(page, k, { value: body[k], writable: true, enumerable: true, configurable: true });
      this.compiled.add(page);
      return body;
    };
    bodyOnRead.set(page, compile);
    Object.defineProperties(page, BODY_ACCESSORS);
    this.once.set(page, () => {
      const taken = takeEarly();
      if (taken) return taken;
      const now = entry();
      const s = now.summary.view ? now.summary : e.summary;
      const body = this.pageBody(s, s.view ?? was, head, true);
      releaseMarkup(now.ast, now.text);
      return body;
    });
    return page;
  }

  /** Pages whose body was compiled by reading it (`lazyPage`). */
  readonly compiled = new WeakSet<CompiledPage>();
  /** Each lazy page's body compiled afresh and not kept (`CompiledSite.lazy.once`). */
  readonly once = new WeakMap<CompiledPage, () => PageBody>();

  /** What routing and the route table read of a page: its declarations, no markup. */
  private pageHead(s: FileSummary): PageHead | undefined {
    if (s.kind !== 'page' || !s.route || !s.route.parsed.valid || !s.view) return undefined;
    const route = s.route.parsed;
    const cache = effectiveCachePolicy(s.cache?.value.value, s.revalidate?.value.text);
    return {
      pageId: s.ownerId,
      packageName: s.packageName,
      source: s.path,
      route: route.pattern,
      parsed: route,
      render: s.render,
      guards: s.guards,
      layouts: this.layoutIds(s),
      ...(cache !== undefined ? { cache } : {}),
      serverFields: s.server ? s.server.fields.map((f) => f.text) : [],
      prerender: prerenderPaths(s, route),
      ...this.errorPageField(s),
    };
  }

  /** The IDs of a page's layouts, outermost first. */
  private layoutIds(s: FileSummary): string[] {
    const ids: string[] = [];
    for (const k of this.parts.layoutChain(s)) {
      const l = this.parts.layout(k);
      if (l) ids.push(l.summary.ownerId);
    }
    return ids;
  }

  /**
   * The document of a page (layouts and view) and the assets it links; `once`: its markup read for
   * this compile only (`markupOnce`).
   */
  private pageBody(s: FileSummary, view: ViewBlock, head: PageHead, once = false): PageBody {
    const ctx = this.parts.context(s, { slots: false, route: head.parsed });
    const inView: PNode[] = [];
    compileNodes(once ? markupOnce(view) : view.body, ctx, new Map(), inView, 0, true);
    const chain = this.parts.layoutChain(s);
    const facts = ctx.facts;
    const layoutComponents: string[] = [];
    const body = this.inLayouts(s, view, ctx, chain, inView, layoutComponents);
    const owners = this.pageOwners(s, chain, layoutComponents, facts.components);
    const stylesheets = this.owned.pageStylesheets(s, owners);
    const scripts: string[] = [];
    for (const o of owners) for (const h of this.owned.scriptsOf(o)) if (!scripts.includes(h)) scripts.push(h);
    const doc = wholeDocument(documentStart(documentMeta(s, owners), stylesheets, facts.kitJs, scripts), body);
    if (facts.kitJs) this.noteKitJs();
    return {
      ir: finishTemplate(doc, ctx.locals.n, `page ${s.ownerId}`, true),
      kitJs: facts.kitJs,
      stylesheets,
      scripts,
      dependsOn: this.dependsOn(owners),
      assets: this.pageAssets(owners, stylesheets, scripts, head.errorPage),
    };
  }

  /**
   * The compiled view `body` inside the page's layouts, innermost first; the components the layouts
   * call go to `components`. A page nested deeper than `MAX_MARKUP_DEPTH` with its layouts is
   * reported, and left without the layouts from there out.
   */
  private inLayouts(
    s: FileSummary,
    view: ViewBlock,
    ctx: OwnerContext,
    chain: readonly string[],
    body: PNode[],
    components: string[],
  ): PNode[] {
    let depth = ctx.nesting.max;
    for (let i = ctx.nesting.cut ? -1 : chain.length - 1; i >= 0; i--) {
      const part = this.parts.layoutPart(chain[i]);
      if (!part) continue;
      depth = part.slot >= 0 ? Math.max(part.depth, part.slot + depth) : part.depth;
      if (depth > MAX_MARKUP_DEPTH) {
        this.diagnostics.push(
          diag(
            'markup_too_deep',
            s.path,
            s.layoutDecl?.range ?? view.range,
            `${s.ownerId}: with its layouts (from ${chain[i].slice(chain[i].lastIndexOf('.') + 1)} out) the page ` +
              `nests elements ${depth} deep; the limit is ${MAX_MARKUP_DEPTH}: flatten the markup`,
          ),
        );
        break;
      }
      const base = ctx.locals.n;
      ctx.locals.n += part.locals;
      body = substitute(part.nodes, { props: new Map(), slots: new Map([['', { nodes: body }]]), base });
      if (part.kitJs) ctx.facts.kitJs = true;
      components.unshift(...part.components);
    }
    return body;
  }

  /** The files a page is made from: each owner's file, then the files it reads, in owner order. */
  private dependsOn(owners: readonly FileSummary[]): string[] {
    const out = new Set<string>();
    for (let i = 0; i < owners.length; i++) {
      out.add(owners[i].path);
      const reads = this.owned.readsOf(owners[i]);
      for (let j = 0; j < reads.length; j++) out.add(reads[j]);
    }
    return [...out];
  }

  /**
   * The assets a page links: its stylesheets and scripts, its owners' declared files and its error
   * page's. Only what was registered for this page already: asking for more would register it.
   */
  private pageAssets(
    owners: readonly FileSummary[],
    stylesheets: readonly string[],
    scripts: readonly string[],
    errorPage: string | undefined,
  ): string[] {
    const out = new Set<string>(stylesheets);
    for (let i = 0; i < scripts.length; i++) out.add(scripts[i]);
    for (let i = 0; i < owners.length; i++) for (const href of this.owned.filesOf(owners[i]).values()) out.add(href);
    const ofError = errorPage === undefined ? undefined : this.errors.assetsOf(errorPage);
    if (ofError) for (const href of ofError) out.add(href);
    return [...out];
  }

  /**
   * Whose assets and metadata a page has: its layouts (outermost first), the components it and they
   * call (each once, in the order first called), then the page. Plain loops: this runs per page, and
   * the array builtins it used took a new compile of `pageBody` each time a page's lists came with
   * another elements kind (three recompiles of 90-140 ms each in a 4,000-page build).
   */
  private pageOwners(
    s: FileSummary,
    chain: readonly string[],
    layoutComponents: readonly string[],
    pageComponents: readonly string[],
  ): FileSummary[] {
    const owners: FileSummary[] = [];
    for (let i = 0; i < chain.length; i++) {
      const l = this.parts.layout(chain[i]);
      if (l) owners.push(l.summary);
    }
    const keys: string[] = [];
    for (const list of [layoutComponents, pageComponents])
      for (let i = 0; i < list.length; i++) if (!keys.includes(list[i])) keys.push(list[i]);
    for (let i = 0; i < keys.length; i++) owners.push(this.parts.component(keys[i])!.summary);
    owners.push(s);
    return owners;
  }

  private kitJs = false;

  /** A page links the link runtime: it is one of the site's assets. */
  noteKitJs(): void {
    if (this.kitJs) return;
    this.kitJs = true;
    this.assets.fixed(KIT_JS_PATH, kitRuntimeSource());
  }

  private errorPageField(s: FileSummary): { errorPage?: string } {
    const key = this.errors.of(s);
    return key === undefined ? {} : { errorPage: key };
  }

  compileFragments(e: KitEntry): CompiledFragment[] {
    const s = e.summary;
    const out: CompiledFragment[] = [];
    for (const f of s.fragments) {
      const parsed = parseRoutePattern(f.path.value);
      const ctx = this.parts.context(s, { slots: false, route: parsed });
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
        ir: finishTemplate(nodes, ctx.locals.n, `fragment ${s.ownerId}.${f.name.text}`, false),
      });
    }
    return out;
  }
}
