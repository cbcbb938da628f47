// The fast path's edits of `kit build` with its cache (`incremental.ts`, `planFast`): the changed
// files checked alone in a workspace of themselves and the layouts and components, and the build of
// an edit that changed pages only in their bytes, written into the output in place.
import type { PageRecord, SourceRecord } from '#core/build/cache-records.js';
import { sha256 } from '#core/build/cache-records.js';
import type { EarlyBodies } from '#core/build/early-bodies.js';
import type { CompiledPage } from '#core/build/index.js';
import { compareDiagnostics, type Diagnostic } from '#core/diagnostics/diagnostic.js';
import type { KitEntry } from '#core/model/entries.js';
import type { CheckOptions } from '#core/model/options.js';
import { diskFiles } from '#core/project/disk-files.js';
import type { Workspace } from '#core/workspace/workspace.js';
import { hex, type BuildContext, type Compiler, compiler } from './build-context.js';
import { pageOf, type BuildIndex } from './cache-index.js';
import { fingerprintOf, patchedEntries } from './output-state.js';

/**
 * A workspace of the layouts, the components and the pages `compile`, with each changed file
 * checked alone: undefined when one changed what other files see of it (its shape) or has an error.
 */
export function checkChanged(
  b: BuildContext,
  c: Compiler,
  x: BuildIndex,
  bySource: ReadonlyMap<string, SourceRecord>,
  compile: ReadonlySet<string>,
  changed: readonly string[],
  options: CheckOptions,
): { mini: Workspace; fresh: Map<string, KitEntry>; early: EarlyBodies } | undefined {
  // Each page compiled as it is read, and its tree let go of then (`EarlyBodies`), as in a whole
  // build: a layout edit compiles every page again, and holding all their trees until the writer
  // compiled each (10,000 pages) took the heap to 550 MB and a third of the build collecting it.
  const early = new c.EarlyBodies(b.io.cwd);
  const mini = new c.Workspace({ ...options, files: diskFiles(b.io.cwd) }, b.io.cwd, c.ONE_SHOT, early);
  const changedSet = new Set(changed);
  const pages = x.sources.filter((s) => s.kind === 'page' && (compile.has(s.path) || changedSet.has(s.path)));
  try {
    // Layouts and components first: a page read before its parts waits for them with its tree.
    for (const s of [...x.sources.filter((s) => s.kind !== 'page'), ...pages]) {
      const t = b.sources.read(s.path);
      mini.setKitFile(s.path, t.text, undefined, t.diagnostics);
    }
  } catch {
    // A file that cannot be read as text (no longer UTF-8 without NUL bytes): the whole load reports it.
    return undefined;
  }
  const fresh = new Map<string, KitEntry>();
  for (const p of changed) {
    const e = mini.kit(p);
    if (!e || sha256(c.crossShape(e)) !== bySource.get(p)!.shape) return undefined;
    if (e.local.some((d) => d.severity === 'error')) return undefined;
    fresh.set(p, e);
  }
  return { mini, fresh, early };
}

/**
 * The build of an edit that changed pages only in their bytes: only page files changed, none that
 * another page is made from, none whose error page is `404.html`, and each still compiles to the
 * same head (route, files, cache policy, error page) from the same files with the same assets. Its
 * other pages' records are not even read. Undefined when the edit is not of that kind.
 */
export async function pagesOnly(
  b: BuildContext,
  x: BuildIndex,
  changed: readonly string[],
  bySource: ReadonlyMap<string, SourceRecord>,
  options: CheckOptions,
  outAbs: string,
  inPlace: boolean,
): Promise<{ diagnostics: Diagnostic[]; run: () => { pages: number; kept: number } } | undefined> {
  const o = x.output;
  // Locations no page names pile up until a build collects them: past a tenth, this one does.
  if (!inPlace || o === undefined || x.dead > Math.max(64, x.sources.length / 10)) return undefined;
  if (!changed.every((p) => bySource.get(p)!.kind === 'page' && !x.shared.has(p) && p !== o.notFound)) return undefined;
  const records = new Map<string, PageRecord>();
  for (const p of changed) {
    const r = pageOf(x, p);
    if (r === undefined) return undefined;
    records.set(p, r);
  }
  const c = await compiler();
  const checked = checkChanged(b, c, x, bySource, new Set(records.keys()), changed, options);
  if (checked === undefined) return undefined;
  const site = c.compileSite(checked.mini, { cwd: b.io.cwd, lazy: true }, checked.early);
  if (site.diagnostics.length || site.pages.length !== records.size) return undefined;
  const files: { rel: string; content: string }[] = [];
  const replaced: PageRecord[] = [];
  for (const page of site.pages) {
    const r = records.get(page.source);
    if (r === undefined || !sameHead(page, r)) return undefined;
    const body = site.lazy!.once(page);
    if (site.diagnostics.length) return undefined;
    if (!same(body.dependsOn, r.deps) || body.kitJs !== r.kitJs || !same(body.assets, r.assets)) return undefined;
    const written = new Map<string, [string, number]>();
    for (const pre of page.prerender) {
      if (!r.files.has(pre.file)) continue;
      const html = c.renderTemplate(body.ir, pre.params, pre.params);
      files.push({ rel: pre.file, content: html });
      written.set(pre.file, [sha256(html), Buffer.byteLength(html)]);
    }
    if (written.size !== r.files.size) return undefined;
    replaced.push({ ...r, key: b.keyOf(r, x.config, x.parts), files: written });
  }
  const diagnostics = mergeLocal(x.diagnostics, checked.fresh);
  const previous = b.lastOutput(outAbs, x).previous();
  if (previous === undefined) return undefined;
  const run = () => {
    const done = c.writeChangedFiles(outAbs, previous, files);
    const fresh = new Set(done.written);
    let dead = x.dead;
    for (const f of files)
      if (fresh.has(f.rel)) {
        b.cache.keep(sha256(f.content), f.content);
        dead++;
      }
    const before = b.lastOutput(outAbs, x).entries;
    const entries = before && patchedEntries(outAbs, before, done.written, []);
    try {
      b.cache.commitPages(
        {
          ...x,
          sources: x.sources.map((s) => b.sources.updated(s)),
          diagnostics,
          dead,
          output: {
            ...o,
            manifest: hex(done.manifest),
            fingerprint: entries ? fingerprintOf(entries, o.files) : '0'.repeat(64),
          },
        },
        replaced,
      );
    } catch (e) {
      b.warnUnwritten(e);
    }
    return { pages: o.pages, kept: o.pages - files.length };
  };
  return { diagnostics, run };
}

/** The same strings in the same order. */
function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Whether a page compiled now has the head its record has: the same route, files, cache policy and error page. */
function sameHead(p: CompiledPage, r: PageRecord): boolean {
  return (
    p.pageId === r.pageId &&
    p.route === r.route &&
    p.render === r.render &&
    p.cache === r.cache &&
    p.errorPage === r.errorPage &&
    p.prerender.length === r.prerender.length &&
    p.prerender.every((pre, i) => pre.path === r.prerender[i][0] && pre.file === r.prerender[i][1])
  );
}

/** The diagnostics of the last build with those of the changed files (their own, and only those) replaced. */
export function mergeLocal(all: readonly Diagnostic[], fresh: ReadonlyMap<string, KitEntry>): Diagnostic[] {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of all) {
    if (fresh.has(d.file)) continue;
    const list = byFile.get(d.file);
    if (list) list.push(d);
    else byFile.set(d.file, [d]);
  }
  for (const [path, e] of fresh) if (e.local.length) byFile.set(path, [...e.local].sort(compareDiagnostics));
  const out: Diagnostic[] = [];
  for (const file of [...byFile.keys()].sort()) for (const d of byFile.get(file)!) out.push(d);
  return out;
}
