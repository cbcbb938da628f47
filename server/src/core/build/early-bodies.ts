// Page bodies compiled as the files are read (`kit build`): a workspace hook (`StageHooks`) that
// compiles each page once its file is checked, while its tree is young, keeps the compiled page and
// lets the workspace drop the tree. A build otherwise holds every page's tree until all are read
// and checked, which is most of its memory. `compileSite` takes the pages compiled this way and
// compiles the rest as always; whatever could make an early compile differ from that one (a
// diagnostic, a name declared twice, a file replaced since) spoils them all, and `compileSite`
// then compiles everything itself, so the site, its diagnostics and their order never change.
import type { KitEntry } from '../model/entries.js';
import type { StageHooks } from '../workspace/stages.js';
import type { EarlyPageListener } from './early-output.js';
import type { Workspace } from '../workspace/workspace.js';
import { type EarlyPage, type EarlyPages, SiteCompiler } from './site-compiler.js';

export class EarlyBodies implements StageHooks, EarlyPages {
  private compiler: SiteCompiler | undefined;
  private readonly pages = new Map<string, EarlyPage>();
  /** How many pages were compiled as they were read, and how many waited for a layout or component. */
  readonly counts = { early: 0, waited: 0 };

  /** `listener`: told of each page compiled early (`EarlyOutput` writes its files then). */
  constructor(
    cwd: string,
    private readonly listener?: EarlyPageListener,
  ) {
    this.compiler = new SiteCompiler([], cwd);
  }

  /** Early pages are of no use any more: `compileSite` will compile every page itself. */
  get spoiled(): boolean {
    return this.compiler === undefined;
  }

  checked(e: KitEntry): boolean {
    const c = this.compiler;
    if (!c) return false;
    const s = e.summary;
    if (s.kind !== 'page') {
      if (!c.addPart(e)) this.spoil();
      return false;
    }
    // A file with errors stops the build before it compiles; one whose parts are not all read yet
    // compiles with the rest.
    if (e.local.some((d) => d.severity === 'error') || !c.partsReady(s)) {
      this.counts.waited++;
      return false;
    }
    const before = c.diagnostics.length;
    let page: EarlyPage | undefined;
    try {
      page = c.earlyPage(e);
    } catch {
      // The compile of the whole site meets it again, in its own order.
      this.spoil();
      return false;
    }
    if (c.diagnostics.length > before) this.spoil();
    if (!page || this.spoiled) return false;
    this.pages.set(e.path, page);
    this.counts.early++;
    this.listener?.page(page);
    return true;
  }

  /**
   * The compiler of the early pages, with every layout and component of `ws` known, when its pages
   * are those `compileSite` would make; undefined once spoiled (a name declared twice: which entry
   * wins may differ from the workspace's order).
   */
  adopt(ws: Workspace): SiteCompiler | undefined {
    const c = this.compiler;
    if (!c) return undefined;
    for (const e of ws.allKit()) {
      if (c.addPart(e)) continue;
      this.spoil();
      return undefined;
    }
    return c;
  }

  /** The page compiled early from the entry `e` is now (once); undefined: compile it now. */
  take(e: KitEntry): EarlyPage | undefined {
    const page = this.pages.get(e.path);
    if (page === undefined || page.entry !== e) return undefined;
    this.pages.delete(e.path);
    return page;
  }

  private spoil(): void {
    this.compiler = undefined;
    this.pages.clear();
  }
}
