// compileSite: every page and fragment of a checked workspace → template IR plus the asset files
// the pages link. Each layout and component is compiled once (`parts.ts`); pages instantiate them.
// The static build renders the result to files; the generated app embeds the same IR and renders
// SSR and hybrid pages per request with the same renderer.
import type { Workspace } from '../workspace/workspace.js';
import type { CompiledFragment, CompiledPage, CompiledSite, CompileSiteOptions } from './compiled.js';
import { comparePages } from './document.js';
import { type EarlyPages, SiteCompiler } from './site-compiler.js';

export { comparePages, outputFile } from './document.js';

/**
 * Compiles every page and fragment of the workspace. Call it on a workspace without errors (as
 * `kit build` does); with errors the result is best effort.
 */
export function compileSite(ws: Workspace, options: CompileSiteOptions, early?: EarlyPages): CompiledSite {
  // Every view is compiled: pages still waiting for their markup (`DEV_START`) get it now (a lazy
  // compile, per page).
  if (!options.lazy) ws.completeMarkup();
  // Pages compiled as their files were read go with the compiler that compiled them (its assets
  // and parts), unless that compile may differ from this one's (`EarlyBodies.adopt`).
  const ahead = options.previous === undefined ? early?.adopt(ws) : undefined;
  const c = ahead ?? new SiteCompiler(ws.allKit(), options.cwd);
  const pages: CompiledPage[] = [];
  const fragments: CompiledFragment[] = [];
  // A lazy compile's pages were not all compiled, and its assets are those of the ones that were.
  const previous = options.previous?.site.lazy === undefined ? options.previous : undefined;
  const before = previous ? new Map(previous.site.pages.map((p) => [p.source, p])) : undefined;
  const assetsBefore = previous ? new Map(previous.site.assets.map((a) => ['/' + a.path, a])) : undefined;
  for (const e of ws.allKit()) {
    if (e.summary.kind !== 'page') continue;
    const old = before?.get(e.path);
    if (old !== undefined && !old.dependsOn.some((f) => previous!.changed.has(f))) {
      for (const href of old.assets) c.assets.adopt(assetsBefore!.get(href));
      if (old.kitJs) c.noteKitJs();
      if (old.errorPage !== undefined && !c.errorPages.has(old.errorPage))
        c.errorPages.set(old.errorPage, previous!.site.errorPages[old.errorPage]);
      pages.push(old);
      fragments.push(...c.compileFragments(e));
      continue;
    }
    const got = ahead && early!.take(e);
    const page = options.lazy
      ? c.lazyPage(
          e,
          () => {
            ws.completeMarkupOf(e.path);
            return ws.kit(e.path) ?? e;
          },
          got,
        )
      : got
        ? Object.assign(got.head, got.body)
        : c.compilePage(e);
    if (page) pages.push(page);
    fragments.push(...(got ? got.fragments : c.compileFragments(e)));
  }
  pages.sort(comparePages);
  fragments.sort((a, b) =>
    a.pageId !== b.pageId ? (a.pageId < b.pageId ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const errorPages = Object.fromEntries([...c.errorPages].sort(([a], [b]) => (a < b ? -1 : 1)));
  if (!options.lazy) return { pages, fragments, assets: c.assets.list(), diagnostics: c.diagnostics, errorPages };
  const compileAll = () => {
    for (const p of pages) if (!c.compiled.has(p)) void p.ir;
  };
  return {
    pages,
    fragments,
    get assets() {
      return c.assets.list();
    },
    diagnostics: c.diagnostics,
    errorPages,
    lazy: {
      asset: (path) => c.assets.get(path) ?? (compileAll(), c.assets.get(path)),
      compiled: (page) => c.compiled.has(page),
      // A page taken as it was from `previous` carries its body.
      once: (page) => c.once.get(page)?.() ?? page,
    },
  };
}
