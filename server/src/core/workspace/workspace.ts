// The workspace model: every `.kit` file and handler module, their summaries and an index from
// bucket keys (route shape, method+shape, page ID, component, layout, ...) to the files in them.
// Updates are by file: the old entries leave their buckets, the new ones join, and only the buckets
// touched by either are re-validated. The CLI loads everything once; the language server and the
// dev server feed edits. The rules of this engine are in docs/architecture.md.
import type { KitFile } from '../../../../grammar/src/ast.js';
import { isReparseable, parseKit, reparseKit, type ParseOptions } from '../../../../grammar/src/index.js';
import { compareDiagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { CheckOptions } from '../model/options.js';
import { localDiagnostics } from '../validate/index.js';
import { compareRegistrations, type KitEntry, type ModuleEntry, type WorkspaceView } from '../model/entries.js';
import { scanHandlerModule } from '../model/handler-modules.js';
import { commentRegistrations, type Registration } from '../model/registrations.js';
import { analyseKit, type KitAnalysis } from './analyse-kit.js';
import { commentEndpointDiagnostics } from '../validate/comment-endpoints.js';
import { releaseMarkup } from '../model/markup-release.js';
import { crossShape } from '../model/cross-shape.js';
import { baseName, dirName } from '../model/names.js';
import { Binder, type BindScope, type DirectoryBinding } from '../bind/binder.js';
import { bindScope } from '../bind/bind-scope.js';
import { kitTargets } from '../bind/targets.js';
import type { FileBinding, HandlerBinding } from '../bind/types.js';
import {
  CROSS_RULES,
  crossRule,
  familyOf,
  type BucketKey,
  type CrossContext,
  type Family,
} from '../validate/cross/index.js';
import {
  anchorIn,
  anchorLate,
  filesOf,
  type Fact,
  type KitOf,
  placesMoved,
  pointsInto,
  rangeAt,
  resolveFact,
  toFact,
} from './anchors.js';
import { changedFiles, readings } from './fact-changes.js';
import { Prebound, type PrebindDir, type PrebindJob } from './prebound.js';

/** The buckets an entry is a member of: the keys every cross-file rule takes from it. */
function entryKeys(e: KitEntry | ModuleEntry, kind: 'kit' | 'module'): BucketKey[] {
  const keys = new Set<BucketKey>();
  for (const rule of CROSS_RULES) {
    const ks = kind === 'kit' ? rule.kitKeys?.(e as KitEntry) : rule.moduleKeys?.(e as ModuleEntry);
    for (const k of ks ?? []) keys.add(k);
  }
  return [...keys];
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** Adds `value` to the set at `key` of a map of sets. */
function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

/** How a workspace parses and keeps its `.kit` files. */
export interface WorkspaceLoadOptions extends ParseOptions {
  /**
   * Release each file's view and fragment markup once the file is validated; it is re-parsed from
   * the text if read again (`markup-release.ts`). For loads that mostly need declaration-level
   * facts: `kit check`, the reports, and the language server's files read from disk.
   */
  releaseMarkup?: boolean;
}
// Trees passed in by the caller (`setKitFile(path, text, ast)`: documents open in an editor) are
// kept whole whatever these options say.

export class Workspace implements WorkspaceView {
  private readonly kits = new Map<string, KitEntry>();
  private readonly modules = new Map<string, ModuleEntry>();
  private readonly index = new Map<string, Set<string>>();
  /** The keys of `index` by family (rules ask for a family's keys on every change that touches it). */
  private readonly familyKeys = new Map<Family, Set<string>>();
  /** Cross-file facts per bucket key, and per file for lookup. */
  private readonly crossByKey = new Map<string, Fact[]>();
  private readonly crossByFile = new Map<string, Map<string, Fact[]>>();
  /** Per file: the buckets whose facts point into it (their own file or a related location). */
  private readonly mentions = new Map<string, Set<string>>();
  /** Per `.kit` file: the buckets whose facts point into it at a place that is not visible. */
  private readonly positional = new Map<string, Set<string>>();
  private readonly pending = new Set<string>();
  /** Pending buckets whose rule has `touches`, expanded at the next flush. */
  private readonly touched = new Set<string>();
  /** Files whose diagnostics may have changed since the last flush. */
  private readonly changed = new Set<string>();
  /** Files whose diagnostics may have changed since the last `takeAffected()`. */
  private readonly affected = new Set<string>();
  private evaluations = 0;
  private revisionCount = 0;
  private readonly kitOf: KitOf = (path) => this.kits.get(path);
  /** Buckets left for a later flush by `flush({ defer })`. */
  private readonly deferred = new Set<string>();
  /**
   * True until the first flush: files only join buckets, and the first flush evaluates every bucket
   * once (instead of noting each bucket as touched for each file that joins it).
   */
  private bulk = true;

  /** Buckets waiting since a `flush({ defer })`. */
  get deferredCount(): number {
    return this.deferred.size;
  }
  private sortedKitCache: KitEntry[] | undefined;
  private allRegsCache: Registration[] | undefined;
  /** Handler binding: one Program over all modules, results per directory (bucket `bind:<dir>`). */
  private readonly binder: Binder;
  private readonly bindings = new Map<string, DirectoryBinding>();
  private readonly prebound = new Prebound();
  /** Where each binding's `range` is among its `.kit` file's visible ranges (see `anchors.ts`). */
  private readonly bindingAnchors = new WeakMap<HandlerBinding, number>();

  /**
   * `root`: the directory relative workspace paths are relative to (the binder resolves module
   * imports from it). `parse.incremental: false` when files will not be edited (the command line).
   */
  constructor(
    private checkOptions: CheckOptions = { ssr: false },
    root: string = process.cwd(),
    private readonly parse: WorkspaceLoadOptions = {},
  ) {
    this.binder = new Binder(root);
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

  /** Buckets evaluated so far (for tests and benchmarks: an edit that moves positions evaluates none). */
  stats(): { evaluations: number; prebound: number } {
    return { evaluations: this.evaluations, prebound: this.prebound.taken };
  }

  // ---- updates ------------------------------------------------------------------------------

  /**
   * Changes the check options. Every `.kit` file's own diagnostics are recomputed; cross-file ones
   * stay, except handler binding, which reads `strictBindings`.
   */
  setOptions(options: Partial<CheckOptions>): void {
    const next = { ...this.checkOptions, ...options };
    const strictChanged = next.strictBindings !== this.checkOptions.strictBindings;
    this.checkOptions = next;
    this.revisionCount++;
    for (const e of this.kits.values()) {
      const local = localDiagnostics(e.ast, e.summary, next);
      e.local = e.readIssues?.length ? [...e.readIssues, ...local] : local;
      this.changed.add(e.path);
    }
    if (strictChanged) {
      this.prebound.invalidate();
      for (const k of this.keysOf('bind')) this.pending.add(k);
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
    const analysis = analyseKit(ast ?? parseKit(text, path, this.parse), this.checkOptions);
    this.putKit(path, text, analysis, readIssues, this.releasesMarkup && !ast);
  }

  /**
   * Adds or replaces a `.kit` file that `analyseKit` analysed ahead (`core/project/parse-pool.ts`),
   * under this workspace's check options, from a tree parsed as `parse` says. For a workspace that
   * releases markup: its views and fragments may come without their markup, which is re-parsed
   * from the text on first access as released markup is (`markup-release.ts`).
   */
  setAnalysedKitFile(path: string, text: string, analysis: KitAnalysis): void {
    this.putKit(path, text, analysis, undefined, true);
  }

  private putKit(
    path: string,
    text: string,
    a: KitAnalysis,
    readIssues: Diagnostic[] | undefined,
    release: boolean,
  ): void {
    const pkgBefore = this.modules.size ? this.packageOfDir(dirName(path)) : undefined;
    this.putKitFile(path, text, a, readIssues, release);
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

  /** `release`: the tree is the workspace's own (not an editor's), and its markup may go. */
  private putKitFile(
    path: string,
    text: string,
    a: KitAnalysis,
    readIssues: Diagnostic[] | undefined,
    release: boolean,
  ): void {
    this.revisionCount++;
    const old = this.kits.get(path);
    const entry: KitEntry = { path, text, ...a, keys: [] };
    if (readIssues?.length) {
      entry.readIssues = readIssues;
      entry.local = [...readIssues, ...entry.local];
    }
    entry.keys = entryKeys(entry, 'kit');
    if (release) releaseMarkup(a.ast, text);
    this.changed.add(path);
    if (old && crossShape(old) === crossShape(entry)) {
      // The summary firewall: an edit that leaves everything other files can see unchanged (an
      // edit inside a view, a line inserted above a declaration) re-validates this file alone. The
      // facts anchored in it resolve against the new version when read, so the files holding those
      // whose places moved are re-published; only facts at places that are not visible need their
      // buckets again.
      this.anchorBindings(old);
      this.anchorLateFacts(path);
      this.kits.set(path, entry);
      for (const k of this.positional.get(path) ?? []) this.pending.add(k);
      // Only the facts pointing into this file can have moved (a directory's bindings hold thousands
      // that point elsewhere).
      for (const k of this.mentions.get(path) ?? [])
        for (const f of this.crossByKey.get(k) ?? [])
          if (pointsInto(f, path) && placesMoved(f, this.kitOf)) this.changed.add(f.diagnostic.file);
      this.replaceSorted(entry);
      this.allRegsCache = undefined;
      return;
    }
    // The anchors into the old version mean nothing in the new one: every bucket pointing here is
    // evaluated again, besides those the file leaves and joins.
    for (const k of this.mentions.get(path) ?? []) this.pending.add(k);
    if (old) this.leave(path, old.keys);
    this.kits.set(path, entry);
    this.join(path, entry.keys);
    this.invalidateCaches();
  }

  /** Adds or replaces a handler module (`.ts`/`.js` beside `.kit` files). */
  setModule(path: string, text: string, readIssues: Diagnostic[] = []): void {
    this.revisionCount++;
    const old = this.modules.get(path);
    const summary = scanHandlerModule(path, text);
    const pkg = this.packageOfDir(dirName(path));
    const regs = commentRegistrations(path, pkg, summary.endpoints);
    const local = [
      ...readIssues,
      ...summary.diagnostics,
      ...commentEndpointDiagnostics(path, text, pkg, summary.endpoints),
    ];
    const entry: ModuleEntry = {
      path,
      text,
      summary,
      registrations: regs,
      local,
      keys: [],
    };
    entry.keys = entryKeys(entry, 'module');
    if (readIssues.length) entry.readIssues = readIssues;
    this.changed.add(path);
    this.binder.setModule(path, text);
    this.prebound.invalidate();
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
    for (const k of this.mentions.get(path) ?? []) this.pending.add(k);
    this.leave(path, old.keys);
    if (this.modules.has(path)) {
      this.binder.removeModule(path);
      this.prebound.invalidate();
      this.touchBindingDependents(path);
    }
    this.kits.delete(path);
    this.modules.delete(path);
    this.invalidateCaches();
    if (pkgBefore !== undefined) this.refreshModules(dirName(path), pkgBefore);
  }

  has(path: string): boolean {
    return this.kits.has(path) || this.modules.has(path);
  }

  /** The same set of paths: the sorted list keeps its order, only the entry object changes. */
  private replaceSorted(entry: KitEntry): void {
    const list = this.sortedKitCache;
    if (!list) return;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const p = list[mid].path;
      if (p === entry.path) {
        list[mid] = entry;
        return;
      }
      if (p < entry.path) lo = mid + 1;
      else hi = mid - 1;
    }
    this.sortedKitCache = undefined;
  }

  private invalidateCaches(): void {
    this.sortedKitCache = undefined;
    this.allRegsCache = undefined;
  }

  /**
   * A bucket's members changed: it is re-evaluated, and so are the buckets its rule says depend on
   * it. Which those are is asked at the next flush (`expandTouched`), of the workspace as the edits
   * left it: a rule may then compare the bucket with what it was when last evaluated.
   */
  private touch(key: string): void {
    this.pending.add(key);
    if (crossRule(familyOf(key))?.touches) this.touched.add(key);
  }

  private expandTouched(): void {
    for (const key of this.touched) {
      const touches = crossRule(familyOf(key))?.touches;
      if (touches) for (const k of touches(key as BucketKey, this.context)) this.pending.add(k);
    }
    this.touched.clear();
  }

  private join(path: string, keys: string[]): void {
    const bulk = this.bulk;
    for (const k of keys) {
      let set = this.index.get(k);
      if (!set) {
        this.index.set(k, (set = new Set()));
        addTo(this.familyKeys, familyOf(k), k);
      }
      set.add(path);
      if (!bulk) this.touch(k);
    }
  }

  private leave(path: string, keys: string[]): void {
    for (const k of keys) {
      const set = this.index.get(k);
      if (set) {
        set.delete(path);
        if (set.size === 0) {
          this.index.delete(k);
          this.familyKeys.get(familyOf(k))?.delete(k);
        }
      }
      this.touch(k);
    }
  }

  /**
   * Re-validates the buckets touched since the last flush. Returns the files whose diagnostics may
   * have changed: the files set or removed since then, and the files whose facts of those buckets
   * read differently now; they are also kept for `takeAffected()`, so that a query's flush loses
   * nothing.
   * `defer` leaves matching buckets for the next flush without it (the language server publishes
   * its first diagnostics before binding, the slow part, runs); queries flush only when other
   * buckets are pending, so deferred ones wait until then. Buckets deferred before are asked again,
   * so a caller may evaluate them a few at a time (`kit dev` after its first page).
   */
  flush(opts: { defer?: (key: string) => boolean } = {}): Set<string> {
    const affected = new Set<string>(this.changed);
    this.changed.clear();
    if (this.bulk) {
      // Everything joined since the workspace was created: every bucket is new.
      this.bulk = false;
      for (const k of this.index.keys()) this.pending.add(k);
    }
    this.expandTouched();
    for (const k of this.deferred) this.pending.add(k);
    this.deferred.clear();
    const keys: string[] = [];
    for (const k of this.pending) {
      if (opts.defer?.(k)) this.deferred.add(k);
      else keys.push(k);
    }
    this.pending.clear();
    if (keys.length) this.revisionCount++;
    for (const key of keys) {
      const before = this.crossByKey.get(key) ?? [];
      // A file whose facts of this bucket read the same as before is not affected: re-evaluating a
      // directory's bindings must not make every file of the directory re-published.
      const was = before.length ? readings(before, this.kitOf) : undefined;
      for (const f of before) this.forget(key, f);
      const fresh = this.index.has(key) ? this.evaluate(key).map((d) => toFact(d, this.kitOf)) : [];
      if (fresh.length) this.crossByKey.set(key, fresh);
      else this.crossByKey.delete(key);
      for (const f of fresh) this.remember(key, f);
      if (was === undefined) {
        for (const f of fresh) affected.add(f.diagnostic.file);
        continue;
      }
      changedFiles(was, readings(fresh, this.kitOf), affected);
    }
    for (const f of affected) this.affected.add(f);
    return affected;
  }

  private remember(key: string, f: Fact): void {
    const file = f.diagnostic.file;
    let m = this.crossByFile.get(file);
    if (!m) this.crossByFile.set(file, (m = new Map()));
    let list = m.get(key);
    if (!list) m.set(key, (list = []));
    list.push(f);
    for (const p of filesOf(f)) addTo(this.mentions, p, key);
    for (const p of f.positional ?? []) addTo(this.positional, p, key);
  }

  private forget(key: string, f: Fact): void {
    this.crossByFile.get(f.diagnostic.file)?.delete(key);
    for (const p of filesOf(f)) this.mentions.get(p)?.delete(key);
    for (const p of f.positional ?? []) this.positional.get(p)?.delete(key);
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

  /** True when a flush has work: edits not yet validated, or buckets deferred. */
  get hasPendingWork(): boolean {
    return this.bulk || this.pending.size > 0 || this.changed.size > 0 || this.deferred.size > 0;
  }

  private evaluate(key: string): Diagnostic[] {
    this.evaluations++;
    return crossRule(familyOf(key))?.evaluate?.(this.context, key as BucketKey) ?? [];
  }

  /** What rules read: this workspace, plus the binder and the index by family. */
  private readonly context: CrossContext = {
    kitMembers: (key) => this.kitMembers(key),
    moduleMembers: (key) => this.moduleMembers(key),
    kit: (path) => this.kit(path),
    allKit: () => this.allKit(),
    allRegistrations: () => this.allRegistrations(),
    registrationsIn: (key) => this.registrationsIn(key),
    bindDirectory: (dir) => this.bindDirectory(dir),
    keysOf: (family) => this.keysOf(family),
  };

  private keysOf(family: Family): Iterable<BucketKey> {
    return (this.familyKeys.get(family) ?? []) as Iterable<BucketKey>;
  }

  private bindScopeOf(dir: string, kits: KitEntry[], modules: ModuleEntry[]): BindScope<KitEntry> {
    return bindScope(dir, kits, modules, (name) => {
      const dirs = [
        ...new Set(
          this.allKit()
            .filter((e) => e.summary.packageName === name)
            .map((e) => e.summary.dir),
        ),
      ];
      return { dirs, modules: dirs.flatMap((d) => this.moduleMembers(`bind:${d}`)) };
    });
  }

  private bindDirectory(dir: string): Diagnostic[] {
    const key = `bind:${dir}`;
    const kits = this.kitMembers(key);
    const modules = this.moduleMembers(key);
    const result =
      this.prebound.take(dir, kits, modules) ??
      this.binder.bindDirectory(this.bindScopeOf(dir, kits, modules), {
        strictBindings: this.checkOptions.strictBindings,
      });
    this.bindings.set(dir, result);
    return result.diagnostics;
  }

  /**
   * What a binding worker may bind now (`bind/bind-host.ts`), with `accept` for its answers (see
   * `prebound.ts`). Directories whose contracts name other packages (`alias.Name`) bind here, where
   * what they read is tracked for re-binding.
   */
  prebindJob(): PrebindJob {
    const dirs: PrebindDir[] = [];
    for (const key of this.keysOf('bind')) {
      const kits = this.kitMembers(key);
      const modules = this.moduleMembers(key);
      const scope = this.bindScopeOf(key.slice('bind:'.length), kits, modules);
      if (kits.some((k) => kitTargets(k).some((t) => t.otherPackage !== undefined))) continue;
      dirs.push({ scope, kits, modules });
    }
    return this.prebound.job(dirs);
  }

  /** A module change also re-binds directories that bind to it from another package (`alias.Name` contracts). */
  private touchBindingDependents(modulePath: string): void {
    for (const d of this.binder.dependents(dirName(modulePath))) this.pending.add(`bind:${d}`);
  }

  /**
   * Anchors the bindings of a `.kit` file to the version they were bound against, as that version
   * is replaced by one of the same shape: they are read against later versions through the anchor
   * (`bindingFor`). Done at the first such edit, not at binding: most files are never edited. The
   * old version's ranges are the objects the binder was given, so they are found by identity even
   * after an incremental re-parse shifted them.
   */
  private anchorBindings(old: KitEntry): void {
    const fb = this.bindings.get(dirName(old.path))?.files.find((f) => f.file === old.path);
    for (const h of fb?.handlers ?? []) {
      if (this.bindingAnchors.has(h)) continue;
      const at = anchorIn(old, h.range);
      if (at !== undefined) this.bindingAnchors.set(h, at);
    }
  }

  /** Anchors the late facts pointing into `path` while its version being replaced is still in place. */
  private anchorLateFacts(path: string): void {
    for (const k of this.mentions.get(path) ?? []) {
      for (const f of this.crossByKey.get(k) ?? []) {
        if (!f.late) continue;
        for (const p of anchorLate(f, this.kitOf)) addTo(this.positional, p, k);
      }
    }
  }

  /** Handler bindings declared by a `.kit` file or (comment endpoints) a handler module. */
  bindingFor(path: string): FileBinding | undefined {
    if (this.pending.size || this.bulk) this.flush();
    const dir = dirName(path);
    if (!this.index.has(`bind:${dir}`)) return undefined;
    const fb = this.bindings.get(dir)?.files.find((f) => f.file === path);
    const e = this.kits.get(path);
    if (!fb || !e) return fb;
    // Bound against an earlier version of the file when later edits only moved positions.
    let moved = false;
    const handlers = fb.handlers.map((h) => {
      const now = rangeAt(e, this.bindingAnchors.get(h));
      if (!now || now === h.range) return h;
      moved = true;
      const copy = { ...h, range: now };
      this.bindingAnchors.set(copy, this.bindingAnchors.get(h)!);
      return copy;
    });
    return moved ? { ...fb, handlers } : fb;
  }

  /**
   * Lets the binder forget its parsed modules and, when no other workspace binds, the TypeScript
   * compiler (a long-lived model between bursts of binding: the language server once a folder is
   * bound). Bindings stay; the next re-binding parses the modules it reads again.
   */
  releaseBinder(): void {
    this.binder.release();
  }

  /** Time spent in the TypeScript compiler API and Programs built, for benchmarks and diagnostics. */
  bindingStats(): { compilerMs: number; programs: number; parsed: number; held: number } {
    return { ...this.binder.program.stats, held: this.binder.program.parsedHeld };
  }

  // ---- queries ------------------------------------------------------------------------------

  diagnosticsFor(path: string): Diagnostic[] {
    if (this.pending.size || this.bulk) this.flush();
    const e = this.kits.get(path) ?? this.modules.get(path);
    const out = e ? [...e.local] : [];
    for (const list of this.crossByFile.get(path)?.values() ?? [])
      for (const f of list) out.push(resolveFact(f, this.kitOf));
    return out.sort(compareDiagnostics);
  }

  allDiagnostics(): Diagnostic[] {
    if (this.pending.size || this.bulk) this.flush();
    const out: Diagnostic[] = [];
    for (const e of this.kits.values()) out.push(...e.local);
    for (const e of this.modules.values()) out.push(...e.local);
    for (const list of this.crossByKey.values()) for (const f of list) out.push(resolveFact(f, this.kitOf));
    return out.sort(compareDiagnostics);
  }

  kitPaths(): string[] {
    return this.allKit().map((e) => e.path);
  }

  modulePaths(): string[] {
    return [...this.modules.keys()].sort();
  }

  module(path: string): ModuleEntry | undefined {
    return this.modules.get(path);
  }

  kit(path: string): KitEntry | undefined {
    return this.kits.get(path);
  }

  allKit(): KitEntry[] {
    return (this.sortedKitCache ??= [...this.kits.values()].sort(byPath));
  }

  allModules(): ModuleEntry[] {
    return [...this.modules.values()].sort(byPath);
  }

  kitMembers(key: string): KitEntry[] {
    return this.membersIn(key, this.kits);
  }

  moduleMembers(key: string): ModuleEntry[] {
    return this.membersIn(key, this.modules);
  }

  /** The entries of `map` in a bucket, sorted by path. */
  private membersIn<E extends { path: string }>(key: string, map: Map<string, E>): E[] {
    const out: E[] = [];
    for (const p of this.index.get(key) ?? []) {
      const e = map.get(p);
      if (e) out.push(e);
    }
    return out.sort(byPath);
  }

  registrationsIn(key: string): Registration[] {
    const set = this.index.get(key);
    if (!set) return [];
    const out: Registration[] = [];
    for (const p of set) {
      const e = this.kits.get(p) ?? this.modules.get(p);
      if (e) out.push(...e.registrations);
    }
    return out.sort(compareRegistrations);
  }

  allRegistrations(): Registration[] {
    if (!this.allRegsCache) {
      const out: Registration[] = [];
      for (const e of this.kits.values()) out.push(...e.registrations);
      for (const e of this.modules.values()) out.push(...e.registrations);
      this.allRegsCache = out.sort(compareRegistrations);
    }
    return this.allRegsCache;
  }

  /** The package of a directory: the first `package` declared by a `.kit` file there, else its name. */
  packageOfDir(dir: string): string {
    // Every `.kit` file joins its directory's `bind:` bucket: no need to scan the workspace.
    for (const e of this.kitMembers(`bind:${dir}`)) {
      if (e.summary.packageDecl) return e.summary.packageName;
    }
    return baseName(dir) || 'main';
  }
}
