// What one rebuild of `kit dev` changed, for the browser: the pages whose HTML differs (their open
// tabs reload), those whose only change is their stylesheets (swapped in place), and whether the
// routes stayed the same (then the running app takes the new content and keeps its routers).
import type { RouteTable } from '#core/app/route-table.js';
import type { CompiledPage, CompiledSite } from '#core/build/index.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import type { CompileProblem } from './handler-loader.js';

/** What one batch of file changes did. */
export interface ChangeReport {
  /** Display paths of the files that changed, came or went. */
  files: string[];
  /** Page IDs whose HTML changed (their open tabs reload). */
  reload: Set<string>;
  /** Page IDs whose only change is stylesheets: old href → new href, in order. */
  css: Map<string, [string, string][]>;
  /** Every open page reloads (guards, config, pages that came or went). */
  reloadAll: boolean;
  /** Errors now (empty when the site built). */
  errors: Diagnostic[];
  warnings: number;
  /** The errors and warnings now, as `kit check` reports them (what the terminal tells of). */
  problems: Diagnostic[];
  /** A handler module that does not compile (the previous version keeps serving). */
  handlerProblem?: CompileProblem;
  ms: number;
}

/** How a page renders, minus its stylesheet URLs: equal keys and different sheets is a CSS-only change. */
function renderKey(p: CompiledPage): string {
  let json = JSON.stringify(p.ir);
  p.stylesheets.forEach((href, i) => {
    json = json.split(JSON.stringify(href).slice(1, -1)).join(`\u0000css${i}`);
  });
  return `${JSON.stringify(p.scripts)}\u0000${p.route}\u0000${p.guards.join(',')}\u0000${p.cache}\u0000${json}`;
}

/** Whether two route tables differ in content only (templates, built files), not in routes. */
export function sameRoutes(a: RouteTable, b: RouteTable): boolean {
  return (
    a.configModule === b.configModule &&
    a.manifest.notFound === b.manifest.notFound &&
    sameData([...a.modules], [...b.modules]) &&
    sameData(a.manifest.pages, b.manifest.pages) &&
    sameData(a.manifest.endpoints, b.manifest.endpoints)
  );
}

/**
 * Deep equality of plain data (what JSON holds): the route table's rows. Not `util.isDeepStrictEqual`,
 * which checks prototypes and property descriptors too and costs a save in a 1,000-page site about
 * 2.5 ms more (measured): it runs on every save. Keys are walked with `for...in` (the rows' own,
 * enumerable keys: plain data has no others), which makes no array of them per object: `Object.keys`
 * made a fifth of a save's garbage.
 */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let n = 0;
  for (const k in ra) {
    if (!(k in rb) || !sameData(ra[k], rb[k])) return false;
    n++;
  }
  for (const _ in rb) n--;
  return n === 0;
}

/** Pages recompiled since the last build, compared with what they were; reused pages did not change. */
export function pageChanges(before: CompiledSite | undefined, after: CompiledSite, report: ChangeReport): void {
  if (before === undefined) return;
  const old = new Map(before.pages.map((p) => [p.pageId, p]));
  for (const p of after.pages) {
    const prev = old.get(p.pageId);
    // A page taken over from the last compile is the same object; a new page has no open tab, nor
    // has one a lazy compile never compiled (nobody asked for it).
    if (prev === p || prev === undefined || before.lazy?.compiled(prev) === false) continue;
    if (renderKey(prev) !== renderKey(p)) report.reload.add(p.pageId);
    else if (prev.stylesheets.join('\n') !== p.stylesheets.join('\n'))
      report.css.set(
        p.pageId,
        prev.stylesheets.map((href, i): [string, string] => [href, p.stylesheets[i]]).filter(([a, b]) => a !== b),
      );
  }
}
