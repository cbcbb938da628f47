// The workspace's files: what each `.kit` file and handler module says (entries in the index of
// `entry-index.ts`), updated file by file, with the buckets each update touches queued for
// validation; and what a start left for later (files' own rules, page views' markup). `Workspace`
// (workspace.ts) validates the queued buckets and answers the queries.
import {
  type KitFile,
  fileKindFromPath,
  isReparseable,
  parseKit,
  reparseKit,
  type ParseOptions,
} from '#grammar/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { CheckOptions } from '../model/options.js';
import { analyseKit, type KitAnalysis } from './analyse-kit.js';
import { releaseMarkup } from '../model/markup-release.js';
import { crossShape } from '../model/cross-shape.js';
import { dirName } from '../model/names.js';
import { type KitOf, placesMoved, pointsInto } from './anchors.js';
import { WorkspaceBindings } from './bindings.js';
import { FactStore } from './fact-store.js';
import { BucketQueue } from './bucket-queue.js';
import { EntryIndex } from './entry-index.js';
import { runLocalRules } from './local-rules.js';
import { DeferredFiles } from './deferred-files.js';
import { kitEntry, moduleEntry } from './make-entries.js';
import type { KitEntry } from '../model/entries.js';

/** How a workspace parses and keeps its `.kit` files. */
export interface WorkspaceLoadOptions extends ParseOptions {
  /**
   * Release each file's view and fragment markup once the file is validated; it is re-parsed from
   * the text if read again (`markup-release.ts`). For loads that mostly need declaration-level
   * facts: `kit check`, the reports, and the language server's files read from disk.
   */
  releaseMarkup?: boolean;
  /**
   * The files read before the first `runDeferredLocalRules` that empties the queue get their own
   * (local) rules only then, or when their diagnostics are asked for: `kit dev` answers its first
   * page before any rule has run. Files given with a tree (edits) are checked at once.
   */
  deferLocalRules?: boolean;
  /**
   * The page files read before the first `completeMarkup` that empties the queue are parsed without
   * their view markup (`ParseOptions.viewMarkup`); it is parsed when a file's markup is asked for
   * (`completeMarkupOf`), when its rules run, and before any flush that evaluates buckets. Until
   * then `kit(path)` answers the file without it: `kit dev` routes its first requests from the
   * declarations and parses the markup of the pages it renders. A load that flushes without
   * deferring every bucket parses every view at once.
   */
  deferMarkup?: boolean;
}
// Trees passed in by the caller (`setKitFile(path, text, ast)`: documents open in an editor) are
// kept whole whatever these options say.

export abstract class WorkspaceFiles extends EntryIndex {
  protected readonly facts = new FactStore();
  protected readonly queue = new BucketQueue();
  /** Files whose diagnostics may have changed since the last flush. */
  protected readonly changed = new Set<string>();
  protected revisionCount = 0;
  protected readonly kitOf: KitOf = (path) => this.kits.get(path);
  /** Files whose local rules wait (`deferLocalRules`). */
  protected readonly localRules: DeferredFiles;
  /** Page files whose view markup waits (`deferMarkup`). */
  protected readonly markupWaits: DeferredFiles;
  private readonly withoutViews: ParseOptions;
  /**
   * True until the first flush: files only join buckets, and the first flush evaluates every bucket
   * once (instead of noting each bucket as touched for each file that joins it).
   */
  protected bulk = true;

  /** Handler binding: one Program over all modules, results per directory (bucket `bind:<dir>`). */
  protected readonly bindings: WorkspaceBindings;

  /**
   * `root`: the directory relative workspace paths are relative to (the binder resolves module
   * imports from it), which the front doors give; a workspace of texts not on disk (tests) may
   * leave it out and have its paths read from the file system's root. `parse.incremental: false`
   * when files will not be edited (the command line).
   */
  constructor(
    protected checkOptions: CheckOptions = { ssr: false },
    root = '/',
    private readonly parse: WorkspaceLoadOptions = {},
  ) {
    super();
    this.localRules = new DeferredFiles(Boolean(parse.deferLocalRules));
    this.markupWaits = new DeferredFiles(Boolean(parse.deferMarkup));
    this.withoutViews = { ...parse, viewMarkup: false };
    this.bindings = new WorkspaceBindings(root, {
      kitMembers: (key) => this.kitMembers(key),
      moduleMembers: (key) => this.moduleMembers(key),
      allKit: () => this.allKit(),
      bindKeys: () => this.keysOf('bind'),
    });
  }

  get options(): Readonly<CheckOptions> {
    return this.checkOptions;
  }

  /** True when the trees this workspace parses itself lose their markup once validated. */
  get releasesMarkup(): boolean {
    return Boolean(this.parse.releaseMarkup);
  }

  /**
   * Bumped by every change of the model, and by a flush that re-evaluated buckets (binding results
   * arrive that way): anything derived from the workspace may be cached under it.
   */
  get revision(): number {
    return this.revisionCount;
  }

  /** `.kit` files whose local rules are still to run (`WorkspaceLoadOptions.deferLocalRules`). */
  get pendingLocalCount(): number {
    return this.localRules.size;
  }

  /**
   * Runs the deferred local rules of up to `limit` files (each file's diagnostics change as after
   * an edit); answers how many files are left. Once none is left, files are checked as they come.
   */
  runDeferredLocalRules(limit = Number.POSITIVE_INFINITY): number {
    this.runWaiting(this.localRules.take(limit));
    return this.localRules.size;
  }

  /** Runs the local rules of files taken from their queue, on their whole trees. */
  protected runWaiting(paths: readonly string[]): void {
    for (const path of paths) {
      const e = this.kits.get(path);
      if (!e) continue;
      // A file still without its markup gets it, and its rules run with the new analysis.
      if (this.markupWaits.takeFile(path)) {
        this.fillMarkup(path);
        continue;
      }
      runLocalRules(e, this.checkOptions);
      this.revisionCount++;
      this.changed.add(path);
    }
  }

  /** Page files whose view markup is still to parse (`WorkspaceLoadOptions.deferMarkup`). */
  get pendingMarkupCount(): number {
    return this.markupWaits.size;
  }

  /**
   * Parses the view markup of up to `limit` files that wait for it (each file changes as after an
   * edit); answers how many are left. Once none is left, files are parsed whole as they come.
   */
  completeMarkup(limit = Number.POSITIVE_INFINITY): number {
    // An empty queue is left as it is: taking from it would end deferring before any file came.
    if (this.markupWaits.size === 0) return 0;
    for (const path of this.markupWaits.take(limit)) this.fillMarkup(path);
    return this.markupWaits.size;
  }

  /** Parses the view markup of `path` now if it waits for it (a page about to be compiled). */
  completeMarkupOf(path: string): void {
    if (this.markupWaits.takeFile(path)) this.fillMarkup(path);
  }

  /**
   * The file at `path` parsed whole from its text (it left the markup queue); its local rules run
   * now unless they still wait in their own queue.
   */
  private fillMarkup(path: string): void {
    const e = this.kits.get(path);
    if (!e) return;
    const local = !this.localRules.has(path);
    const analysis = analyseKit(parseKit(e.text, path, this.parse), this.checkOptions, local);
    this.putKit(path, e.text, analysis, e.readIssues, this.releasesMarkup);
  }

  // ---- updates ------------------------------------------------------------------------------

  /**
   * Changes the check options. Every `.kit` file's own diagnostics are recomputed; cross-file ones
   * stay, except handler binding, which reads `strictBindings`.
   */
  setOptions(options: Partial<CheckOptions>): void {
    const next = { ...this.checkOptions, ...options };
    const strictChanged = next.strictBindings !== this.checkOptions.strictBindings;
    this.completeMarkup();
    this.checkOptions = next;
    this.revisionCount++;
    this.localRules.clear();
    for (const e of this.kits.values()) {
      runLocalRules(e, next);
      this.changed.add(e.path);
    }
    if (strictChanged) {
      this.bindings.invalidatePrebound();
      for (const k of this.keysOf('bind')) this.queue.add(k);
    }
  }

  /**
   * A new text for a `.kit` file being edited: re-parsed incrementally from its previous tree where
   * that tree allows (`reparseKit` consumes it), in full otherwise (a file read from disk has a
   * one-shot tree). The new tree keeps what the next incremental re-parse needs and is kept whole.
   * Answers false when nothing changed.
   */
  editKitFile(path: string, text: string): boolean {
    const prev = this.kits.get(path);
    if (prev && prev.text === text && isReparseable(prev.ast)) return false;
    const ast = prev ? reparseKit(prev.ast, prev.text, text) : parseKit(text, path);
    this.setKitFile(path, text, ast);
    return true;
  }

  /**
   * Adds or replaces a `.kit` file. `ast` may be passed when the caller parsed incrementally;
   * `readIssues`: what reading the file found (invalid UTF-8), kept with its diagnostics.
   */
  setKitFile(path: string, text: string, ast?: KitFile, readIssues?: Diagnostic[]): void {
    const later = this.localRules.defers(path, ast === undefined);
    if (ast !== undefined) this.markupWaits.forget(path);
    const analysis = analyseKit(ast ?? this.parseOwn(path, text), this.checkOptions, !later);
    this.putKit(path, text, analysis, readIssues, this.releasesMarkup && !ast);
  }

  /** A file the workspace reads itself: a page's view waits for its markup while `deferMarkup` says so. */
  private parseOwn(path: string, text: string): KitFile {
    if (this.markupWaits.defers(path, fileKindFromPath(path) === 'page')) {
      const ast = parseKit(text, path, this.withoutViews);
      if (ast.kind === 'page') return ast;
      // A page-named file that declares a component: other files render its view.
      this.markupWaits.forget(path);
    }
    return parseKit(text, path, this.parse);
  }

  /**
   * Adds or replaces a `.kit` file that `analyseKit` analysed ahead (`core/project/parse-pool.ts`),
   * under this workspace's check options, from a tree parsed as `parse` says. For a workspace that
   * releases markup: its views and fragments may come without their markup, which is re-parsed
   * from the text on first access as released markup is (`markup-release.ts`).
   */
  setAnalysedKitFile(path: string, text: string, analysis: KitAnalysis): void {
    this.localRules.forget(path);
    this.markupWaits.forget(path);
    this.putKit(path, text, analysis, undefined, true);
  }

  /** `release`: the tree is the workspace's own (not an editor's), and its markup may go. */
  private putKit(
    path: string,
    text: string,
    a: KitAnalysis,
    readIssues: Diagnostic[] | undefined,
    release: boolean,
  ): void {
    const pkgBefore = this.modules.size ? this.packageOfDir(dirName(path)) : undefined;
    const entry = kitEntry(path, text, a, readIssues);
    if (release) releaseMarkup(a.ast, text);
    this.putEntry(entry);
    if (pkgBefore !== undefined) this.refreshModules(dirName(path), pkgBefore);
  }

  /**
   * Handler modules take their package (owner labels such as `api site.Stats`) from the `.kit`
   * files of their directory: when those change it, the modules are read again.
   */
  private refreshModules(dir: string, pkgBefore: string): void {
    if (this.packageOfDir(dir) === pkgBefore) return;
    for (const m of this.moduleMembers(`bind:${dir}`)) this.setModule(m.path, m.text, m.readIssues);
  }

  /** A `.kit` file's new entry takes the old one's place in the index and the buckets. */
  private putEntry(entry: KitEntry): void {
    const path = entry.path;
    this.revisionCount++;
    const old = this.kits.get(path);
    this.changed.add(path);
    if (old && crossShape(old) === crossShape(entry)) {
      // The summary firewall: an edit that leaves everything other files can see unchanged (an
      // edit inside a view, a line inserted above a declaration) re-validates this file alone. The
      // facts anchored in it resolve against the new version when read, so the files holding those
      // whose places moved are re-published; only facts at places that are not visible need their
      // buckets again.
      this.bindings.anchor(old);
      this.facts.anchorLate(path, this.kitOf);
      this.kits.set(path, entry);
      for (const k of this.facts.positionalIn(path)) this.queue.add(k);
      // Only the facts pointing into this file can have moved (a directory's bindings hold thousands
      // that point elsewhere).
      for (const k of this.facts.mentioning(path))
        for (const f of this.facts.of(k))
          if (pointsInto(f, path) && placesMoved(f, this.kitOf)) this.changed.add(f.diagnostic.file);
      this.replaceSorted(entry);
      this.allRegsCache = undefined;
      return;
    }
    // The anchors into the old version mean nothing in the new one: every bucket pointing here is
    // evaluated again, besides those the file leaves and joins.
    for (const k of this.facts.mentioning(path)) this.queue.add(k);
    if (old) this.leave(path, old.keys);
    this.kits.set(path, entry);
    this.join(path, entry.keys);
    this.invalidateCaches();
  }

  /** Adds or replaces a handler module (`.ts`/`.js` beside `.kit` files). */
  setModule(path: string, text: string, readIssues: Diagnostic[] = []): void {
    this.revisionCount++;
    const old = this.modules.get(path);
    const entry = moduleEntry(path, text, this.packageOfDir(dirName(path)), readIssues);
    this.changed.add(path);
    this.bindings.setModule(path, text);
    this.touchBindingDependents(path);
    if (old) this.leave(path, old.keys);
    this.modules.set(path, entry);
    this.join(path, entry.keys);
    // Modules leave the sorted `.kit` list alone: re-sorting it per module made loading N modules O(N·K log K).
    this.allRegsCache = undefined;
  }

  remove(path: string): void {
    const old = this.kits.get(path) ?? this.modules.get(path);
    if (!old) return;
    const pkgBefore = this.kits.has(path) && this.modules.size ? this.packageOfDir(dirName(path)) : undefined;
    this.revisionCount++;
    this.changed.add(path);
    for (const k of this.facts.mentioning(path)) this.queue.add(k);
    this.leave(path, old.keys);
    if (this.modules.has(path)) {
      this.bindings.removeModule(path);
      this.touchBindingDependents(path);
    }
    this.kits.delete(path);
    this.modules.delete(path);
    this.localRules.forget(path);
    this.markupWaits.forget(path);
    this.invalidateCaches();
    if (pkgBefore !== undefined) this.refreshModules(dirName(path), pkgBefore);
  }

  private join(path: string, keys: string[]): void {
    this.addMember(path, keys);
    if (!this.bulk) for (const k of keys) this.queue.touch(k);
  }

  private leave(path: string, keys: string[]): void {
    this.removeMember(path, keys);
    for (const k of keys) this.queue.touch(k);
  }

  /** A module change also re-binds directories that bind to it from another package (`alias.Name` contracts). */
  private touchBindingDependents(modulePath: string): void {
    for (const d of this.bindings.dependents(dirName(modulePath))) this.queue.add(`bind:${d}`);
  }
}
