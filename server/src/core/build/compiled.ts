// What `compileSite` makes of a workspace: pages and fragments as template IR, the asset files they
// link and the error pages; what the static writer, the generated app and `kit dev` read.
import type { ParsedRoute } from '#shared/route/index.js';
import type { Template } from '#shared/render/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { RenderMode } from '../model/summary.js';
import type { SiteAsset } from './assets.js';

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

/** A page's fields that come from its markup (a lazy compile makes them when first read). */
export type PageBody = Pick<CompiledPage, 'ir' | 'kitJs' | 'stylesheets' | 'scripts' | 'dependsOn' | 'assets'>;

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
  /**
   * Set when page bodies compile as they are first read (`CompileSiteOptions.lazy`): `assets` and
   * `diagnostics` then grow as they do.
   */
  lazy?: {
    /** The asset at an output path, compiling the bodies not compiled yet when none is known so far. */
    asset(path: string): SiteAsset | undefined;
    /** Whether a page's body was compiled. */
    compiled(page: CompiledPage): boolean;
    /**
     * A page's body compiled afresh and kept nowhere (the page's own fields stay as they are), and
     * its file's view markup let go of (the workspace re-parses it from the text if it is read
     * again). The static build compiles each page this way as it writes it, so that pages never
     * pile up in memory. Only for a workspace whose trees are its own (read from disk, not an
     * editor's).
     */
    once(page: CompiledPage): PageBody;
  };
}

export interface CompileSiteOptions {
  /** Directory that source display paths are relative to (the front door's working directory). */
  cwd: string;
  /**
   * An earlier compile of this workspace without diagnostics, and the files changed since: a page
   * none of whose `dependsOn` changed is taken from it as it is (`kit dev`). Valid only when no
   * file came or went and no changed `.kit` file changed its shape (names other files resolve).
   */
  previous?: { site: CompiledSite; changed: ReadonlySet<string> };
  /**
   * Compile each page's body (its template and assets) when it is first read, and its view markup
   * then if the workspace deferred it (`kit dev` answering its first requests): the routes are
   * known at once. The static build compiles each page as it writes it and lets go of it then
   * (`lazy.once`). Not a base for `previous`.
   */
  lazy?: boolean;
}
