// The workspace model: every `.kit` file and handler module, their summaries and an index from
// bucket keys (route shape, method+shape, page ID, component, layout, ...) to the files in them
// (`entry-index.ts`). Each `.kit` entry is at a stage (`KitStage`: declarations, markup, checked,
// summary); when a stage is computed or dropped is the workspace's policy (`stages.ts`), and
// `bring` is the one place an entry moves. Updates are by file (`entry-updates.ts`): the old entry
// leaves its buckets, the new one joins, and only the buckets touched by either are re-validated,
// here (their facts: `fact-store.ts`). The CLI loads everything once; the language server and the
// dev server feed edits. The rules of this engine are in docs/architecture.md.
import type { KitFile } from '#grammar/index.js';
import {
  fileKindFromPath,
  isReparseable,
  parseKit,
  parseKitDeclarations,
  reparseKit,
  type ParseOptions,
} from '#grammar/index.js';
import { compareDiagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import { KitStage, type KitEntry, type ModuleEntry, type WorkspaceView } from '../model/entries.js';
import { releaseMarkup } from '../model/markup-release.js';
import { dirName } from '../model/names.js';
import type { CheckOptions } from '../model/options.js';
import type { Registration } from '../model/registrations.js';
import type { FileBinding } from '../bind/types.js';
import { crossRule, familyOf, type BucketKey, type CrossContext } from '../validate/cross/index.js';
import { analyseKit, type KitAnalysis } from './analyse-kit.js';
import { type KitOf, resolveFact, toFact } from './anchors.js';
import { WorkspaceBindings } from './bindings.js';
import { BucketQueue } from './bucket-queue.js';
import { EntryIndex } from './entry-index.js';
import { ChangeLog, EntryUpdates } from './entry-updates.js';
import { FactStore } from './fact-store.js';
import { changedFiles, readings } from './fact-changes.js';
import { WorkspaceInspection } from './inspection.js';
import { kitEntry } from './make-entries.js';
import { runLocalRules } from './local-rules.js';
import type { PrebindJob } from './prebound.js';
import { EDITING, StageWaits, type StageHooks, type StagePolicy } from './stages.js';

export { DEV_START, EDITING, ONE_SHOT, SUMMARIES, type StageHooks, type StagePolicy } from './stages.js';

export class Workspace implements WorkspaceView {
  private readonly index = new EntryIndex();
  private readonly facts = new FactStore();
  private readonly queue = new BucketQueue();
  private readonly log = new ChangeLog();
  private readonly kitOf: KitOf = (path) => this.index.kit(path);
  /** Handler binding: one Program over all modules, results per directory (bucket `bind:<dir>`). */
  private readonly bindings: WorkspaceBindings;
  private readonly updates: EntryUpdates;
  /** Which files wait for a stage the policy left for later. */
  private readonly waits: StageWaits;
  /** How the workspace parses the trees of its own reads. */
  private readonly parseOptions: ParseOptions;
  /** Files whose diagnostics may have changed since the last `takeAffected()`. */
  private readonly affected = new Set<string>();
  /** Counters of the workspace's own work (tests, benchmarks, `kit/stats`). */
  readonly inspection: WorkspaceInspection;

  /**
   * `root`: the directory relative workspace paths are relative to (the binder resolves module
   * imports from it), which the front doors give; a workspace of texts not on disk (tests) may
   * leave it out and have its paths read from the file system's root. `policy`: when the stages of
   * the files it reads itself are computed and dropped (`stages.ts`: `ONE_SHOT` for files that will
   * not be edited, `SUMMARIES`, `DEV_START`). `hooks`: told as each of those files reaches a stage.
   */
  constructor(
    private checkOptions: CheckOptions = { ssr: false },
    root = '/',
    policy: StagePolicy = EDITING,
    private readonly hooks?: StageHooks,
  ) {
    this.waits = new StageWaits(policy);
    this.parseOptions = { incremental: policy.trees === 'incremental' };
    this.bindings = new WorkspaceBindings(root, {
      kitMembers: (key) => this.index.kitMembers(key),
      moduleMembers: (key) => this.index.moduleMembers(key),
      allKit: () => this.index.allKit(),
      bindKeys: () => this.index.keysOf('bind'),
    });
    this.updates = new EntryUpdates(this.index, this.facts, this.queue, this.bindings, this.log, this.kitOf);
    this.inspection = new WorkspaceInspection(this.bindings);
  }

  get options(): Readonly<CheckOptions> {
    return this.checkOptions;
  }

  get policy(): Readonly<StagePolicy> {
    return this.waits.policy;
  }

  /**
   * Bumped by every change of the model, and by a flush that re-evaluated buckets (binding results
   * arrive that way): anything derived from the workspace may be cached under it.
   */
  get revision(): number {
    return this.log.revision;
  }

  // ---- reads that need no flush -------------------------------------------------------------

  /**
   * The `.kit` files and modules added, replaced, checked or removed after `revision` (a revision
   * this workspace answered), or undefined when that is too long ago to tell: compare every entry.
   */
  changedSince(revision: number): ReadonlySet<string> | undefined {
    return this.log.changedSince(revision);
  }

  has(path: string): boolean {
    return this.index.has(path);
  }

  kit(path: string): KitEntry | undefined {
    return this.index.kit(path);
  }

  module(path: string): ModuleEntry | undefined {
    return this.index.module(path);
  }

  /** Every `.kit` path, sorted. */
  kitPaths(): string[] {
    return this.index.kitPaths();
  }

  modulePaths(): string[] {
    return this.index.modulePaths();
  }

  allKit(): KitEntry[] {
    return this.index.allKit();
  }

  allModules(): ModuleEntry[] {
    return this.index.allModules();
  }

  kitMembers(key: string): KitEntry[] {
    return this.index.kitMembers(key);
  }

  moduleMembers(key: string): ModuleEntry[] {
    return this.index.moduleMembers(key);
  }

  registrationsIn(key: string): Registration[] {
    return this.index.registrationsIn(key);
  }

  allRegistrations(): Registration[] {
    return this.index.allRegistrations();
  }

  // ---- updates ------------------------------------------------------------------------------

  /**
   * Adds or replaces a `.kit` file. `ast` may be passed when the caller parsed incrementally (an
   * editor's document): it is checked at once and kept whole. Otherwise the file reaches the stage
   * the policy says. `readIssues`: what reading the file found (invalid UTF-8), kept with its
   * diagnostics.
   */
  setKitFile(path: string, text: string, ast?: KitFile, readIssues?: Diagnostic[]): void {
    if (ast !== undefined) {
      this.putKit(path, text, analyseKit(ast, this.checkOptions), KitStage.Checked, readIssues);
      return;
    }
    let stage = this.waits.onRead(fileKindFromPath(path) === 'page');
    let tree: KitFile | undefined;
    if (stage === KitStage.Declarations) {
      tree = parseKitDeclarations(text, path);
      // A page-named file that declares a component: other files render its view.
      if (tree.kind !== 'page') {
        tree = undefined;
        stage = this.waits.withMarkup();
      }
    }
    tree ??= parseKit(text, path, this.parseOptions);
    this.checked(
      this.putKit(path, text, analyseKit(tree, this.checkOptions, stage >= KitStage.Checked), stage, readIssues),
    );
  }

  /**
   * A new text for a `.kit` file being edited: re-parsed incrementally from its previous tree where
   * that tree allows (`reparseKit` consumes it), in full otherwise (a file read from disk has a
   * one-shot tree). The new tree keeps what the next incremental re-parse needs and is kept whole.
   * Answers false when nothing changed.
   */
  editKitFile(path: string, text: string): boolean {
    const prev = this.index.kit(path);
    if (prev && prev.text === text && isReparseable(prev.ast)) return false;
    const ast = prev ? reparseKit(prev.ast, prev.text, text) : parseKit(text, path);
    this.setKitFile(path, text, ast);
    return true;
  }

  /**
   * Adds or replaces a `.kit` file that `analyseKit` analysed ahead (`core/project/parse-pool.ts`),
   * under this workspace's check options, from a one-shot tree whose views and fragments may come
   * without their markup: the entry is at `Summary`, its markup parsed from the text when read.
   */
  setAnalysedKitFile(path: string, text: string, analysis: KitAnalysis): void {
    this.putKit(path, text, analysis, KitStage.Summary);
  }

  /** A `.kit` file's entry at `stage`, in the index and the buckets; `Summary` drops its markup. */
  private putKit(path: string, text: string, a: KitAnalysis, stage: KitStage, readIssues?: Diagnostic[]): KitEntry {
    const entry = kitEntry(path, text, a, stage, readIssues);
    if (stage === KitStage.Summary) releaseMarkup(a.ast, text);
    this.updates.putKit(entry);
    this.waits.note(path, stage);
    return entry;
  }

  /**
   * Tells the hooks that a file the workspace read itself is checked now, and drops its markup
   * when they are done with it (a file at `Summary` already had it dropped by the policy).
   */
  private checked(e: KitEntry): void {
    if (e.stage !== KitStage.Checked || !this.hooks?.checked(e)) return;
    e.stage = KitStage.Summary;
    this.waits.note(e.path, e.stage);
    releaseMarkup(e.ast, e.text);
  }

  /** Adds or replaces a handler module (`.ts`/`.js` beside `.kit` files). */
  setModule(path: string, text: string, readIssues: Diagnostic[] = []): void {
    this.updates.putModule(path, text, readIssues);
  }

  remove(path: string): void {
    if (this.updates.remove(path)) this.waits.note(path, undefined);
  }

  /**
   * Changes the check options. Every `.kit` file's own diagnostics are recomputed; cross-file ones
   * stay, except handler binding, which reads `strictBindings`.
   */
  setOptions(options: Partial<CheckOptions>): void {
    const next = { ...this.checkOptions, ...options };
    const strictChanged = next.strictBindings !== this.checkOptions.strictBindings;
    this.completeMarkup();
    this.checkOptions = next;
    this.log.revision++;
    this.waits.endChecks();
    for (const e of this.index.kitEntries()) this.check(e);
    if (strictChanged) {
      this.bindings.invalidatePrebound();
      for (const k of this.index.keysOf('bind')) this.queue.add(k);
    }
  }

  // ---- stages -------------------------------------------------------------------------------

  /**
   * Brings the entry of `path` to `stage` at least, on demand. A file without its markup is parsed
   * whole from its text (a new version: its summary now says what the markup does); a file's own
   * rules run in its entry. Nothing else moves an entry from stage to stage.
   */
  private bring(path: string, stage: KitStage): void {
    const e = this.index.kit(path);
    if (!e || e.stage >= stage) return;
    const from = e.stage;
    let to = stage;
    if (from === KitStage.Declarations) {
      to = Math.max(stage, this.waits.withMarkup()) as KitStage;
      const tree = parseKit(e.text, path, this.parseOptions);
      this.checked(
        this.putKit(path, e.text, analyseKit(tree, this.checkOptions, to >= KitStage.Checked), to, e.readIssues),
      );
    } else this.check(e);
    this.waits.brought(from, to);
  }

  /** Runs the file's own rules into its entry, which is then checked (its markup dropped where the policy says). */
  private check(e: KitEntry): void {
    runLocalRules(e, this.checkOptions);
    const was = e.stage;
    if (e.stage < KitStage.Checked) {
      e.stage = this.waits.last;
      this.waits.note(e.path, e.stage);
    }
    if (e.stage === KitStage.Summary) releaseMarkup(e.ast, e.text);
    this.log.note(e.path);
    if (was < KitStage.Checked) this.checked(e);
  }

  /** Brings up to `limit` of the files waiting for `stage` to it; answers how many still wait. */
  private complete(stage: KitStage, limit: number): number {
    for (const path of this.waits.first(stage, limit)) this.bring(path, stage);
    return this.waits.count(stage);
  }

  /** Page files whose view markup is still to parse (`StagePolicy.markup`). */
  get pendingMarkupCount(): number {
    return this.waits.count(KitStage.Markup);
  }

  /**
   * Parses the view markup of up to `limit` files that wait for it (each file changes as after an
   * edit); answers how many are left. Once none is left, files are parsed whole as they come.
   */
  completeMarkup(limit = Number.POSITIVE_INFINITY): number {
    return this.complete(KitStage.Markup, limit);
  }

  /** Parses the view markup of `path` now if it waits for it (a page about to be compiled). */
  completeMarkupOf(path: string): void {
    this.bring(path, KitStage.Markup);
  }

  /** `.kit` files whose own rules are still to run (`StagePolicy.checks`). */
  get pendingLocalCount(): number {
    return this.waits.count(KitStage.Checked);
  }

  /**
   * Runs the waiting local rules of up to `limit` files (each file's diagnostics change as after
   * an edit); answers how many files are left. Once none is left, files are checked as they come.
   */
  runDeferredLocalRules(limit = Number.POSITIVE_INFINITY): number {
    return this.complete(KitStage.Checked, limit);
  }

  // ---- evaluation ---------------------------------------------------------------------------

  /** Buckets waiting since a `flush({ defer })`. */
  get deferredCount(): number {
    return this.queue.deferredCount;
  }

  /**
   * Re-validates the buckets touched since the last flush. Returns the files whose diagnostics may
   * have changed: the files set or removed since then, and the files whose facts of those buckets
   * read differently now; they are also kept for `takeAffected()`, so that a query's flush loses
   * nothing.
   * `defer` leaves matching buckets for the next flush without it (the language server publishes
   * its first diagnostics before binding, the slow part, runs); queries flush only when other
   * buckets are pending, so deferred ones wait until then. Buckets deferred before are asked again,
   * so a caller may evaluate them a few at a time (`kit dev` after its first page). No rule reads
   * a file without its markup: a flush without `defer` parses the markup that waits, one with
   * `defer` leaves every bucket for later while markup waits.
   */
  flush(opts: { defer?: (key: string) => boolean } = {}): Set<string> {
    // Rules read the markup: a flush completes it first, except one that defers buckets (`kit dev`
    // starting), which then defers them all while files still wait for their markup.
    let defer = opts.defer;
    if (defer === undefined) this.completeMarkup();
    else if (this.waits.count(KitStage.Markup) > 0) defer = () => true;
    const affected = new Set<string>(this.log.files);
    this.log.files.clear();
    if (this.log.bulk) this.evaluateAll(defer, affected);
    const keys = this.queue.take(this.context, defer);
    if (keys.length) this.log.revision++;
    for (const key of keys) {
      const before = this.facts.of(key);
      // A file whose facts of this bucket read the same as before is not affected: re-evaluating a
      // directory's bindings must not make every file of the directory re-published.
      const was = before.length ? readings(before, this.kitOf) : undefined;
      const found = this.index.hasBucket(key) ? this.evaluate(key) : [];
      if (was === undefined && found.length === 0) continue;
      const fresh = found.map((d) => toFact(d, this.kitOf));
      this.facts.replace(key, fresh);
      if (was === undefined) {
        for (const f of fresh) affected.add(f.diagnostic.file);
        continue;
      }
      changedFiles(was, readings(fresh, this.kitOf), affected);
    }
    for (const f of affected) this.affected.add(f);
    return affected;
  }

  /**
   * The first flush: everything joined since the workspace was created, so every bucket is new
   * and has no facts yet. Each is evaluated once, family by family, straight from the index
   * (what edits queued meanwhile is among them); a family that only gathers members has nothing
   * to evaluate, and a bucket without diagnostics leaves nothing behind. Tens of thousands of
   * buckets go through no queue and no fact bookkeeping.
   */
  private evaluateAll(defer: ((key: string) => boolean) | undefined, affected: Set<string>): void {
    this.log.bulk = false;
    this.queue.clear();
    let evaluated = false;
    for (const [family, keys] of this.index.families()) {
      const evaluate = crossRule(family)?.evaluate;
      if (evaluate === undefined) continue;
      for (const key of keys) {
        if (defer?.(key)) {
          this.queue.defer(key);
          continue;
        }
        evaluated = true;
        this.inspection.evaluation();
        const found = evaluate(this.context, key);
        if (found.length === 0) continue;
        const fresh = found.map((d) => toFact(d, this.kitOf));
        this.facts.add(key, fresh);
        for (const f of fresh) affected.add(f.diagnostic.file);
      }
    }
    if (evaluated) this.log.revision++;
  }

  /**
   * The files whose diagnostics may have changed since the last call, after bringing the model up
   * to date (`defer` as in `flush`). What queries flushed meanwhile is included.
   */
  takeAffected(opts: { defer?: (key: string) => boolean } = {}): Set<string> {
    this.flush(opts);
    const out = new Set(this.affected);
    this.affected.clear();
    return out;
  }

  /** Flushes when an edit left buckets to evaluate (deferred ones wait for an explicit flush). */
  private settle(): void {
    if (this.queue.size || this.log.bulk) this.flush();
  }

  /** True when a flush has work: edits not yet validated, or buckets deferred. */
  get hasPendingWork(): boolean {
    return this.log.bulk || this.queue.hasWork || this.log.files.size > 0 || this.pendingMarkupCount > 0;
  }

  private evaluate(key: string): Diagnostic[] {
    this.inspection.evaluation();
    return crossRule(familyOf(key))?.evaluate?.(this.context, key as BucketKey) ?? [];
  }

  /** What rules read: the entries and their index, plus the binder. */
  private readonly context: CrossContext = {
    kitMembers: (key) => this.index.kitMembers(key),
    moduleMembers: (key) => this.index.moduleMembers(key),
    kit: (path) => this.index.kit(path),
    allKit: () => this.index.allKit(),
    allRegistrations: () => this.index.allRegistrations(),
    registrationsIn: (key) => this.index.registrationsIn(key),
    bindDirectory: (dir) => this.bindings.bindDirectory(dir, this.checkOptions.strictBindings),
    keysOf: (family) => this.index.keysOf(family),
  };

  // ---- bindings -----------------------------------------------------------------------------

  /**
   * What a binding worker may bind now (`bind/bind-host.ts`), with `accept` for its answers (see
   * `prebound.ts`).
   */
  prebindJob(): PrebindJob {
    return this.bindings.prebindJob();
  }

  /** Handler bindings declared by a `.kit` file or (comment endpoints) a handler module. */
  bindingFor(path: string): FileBinding | undefined {
    this.settle();
    if (!this.index.hasBucket(`bind:${dirName(path)}`)) return undefined;
    return this.bindings.fileBinding(path, this.index.kit(path));
  }

  /**
   * The directories whose bindings read the modules of `dir` (`g:command`/`g:query` contracts of
   * its package, used elsewhere): with `dir` itself, where the callers of its handlers are.
   */
  bindingDependents(dir: string): string[] {
    this.settle();
    return [...this.bindings.dependents(dir)];
  }

  /**
   * Lets the binder forget its parsed modules and, when no other workspace binds, the TypeScript
   * compiler (a long-lived model between bursts of binding: the language server once a folder is
   * bound). Bindings stay; the next re-binding parses the modules it reads again.
   */
  releaseBinder(): void {
    this.bindings.release();
  }

  // ---- diagnostics --------------------------------------------------------------------------

  diagnosticsFor(path: string): Diagnostic[] {
    this.bring(path, KitStage.Checked);
    // Other files' markup decides facts of this one (a component's props, say).
    this.completeMarkup();
    this.settle();
    const e = this.index.kit(path) ?? this.index.module(path);
    const out = e ? [...e.local] : [];
    for (const list of this.facts.inFile(path)) for (const f of list) out.push(resolveFact(f, this.kitOf));
    return out.sort(compareDiagnostics);
  }

  allDiagnostics(): Diagnostic[] {
    this.runDeferredLocalRules();
    this.completeMarkup();
    this.settle();
    // Sorted file by file (the order `compareDiagnostics` gives, ties kept in this order too): a
    // workspace's tens of thousands of diagnostics are a few per file.
    const byFile = new Map<string, Diagnostic[]>();
    const add = (d: Diagnostic) => {
      const list = byFile.get(d.file);
      if (list) list.push(d);
      else byFile.set(d.file, [d]);
    };
    for (const e of this.index.kitEntries()) for (const d of e.local) add(d);
    for (const e of this.index.moduleEntries()) for (const d of e.local) add(d);
    for (const list of this.facts.all()) for (const f of list) add(resolveFact(f, this.kitOf));
    const out: Diagnostic[] = [];
    for (const file of [...byFile.keys()].sort()) {
      const list = byFile.get(file)!;
      if (list.length > 1) list.sort(compareDiagnostics);
      for (const d of list) out.push(d);
    }
    return out;
  }
}
