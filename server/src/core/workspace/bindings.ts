// The workspace's handler bindings: the binder (TypeScript over the handler modules), each
// directory's last binding, what a binding worker bound ahead (`prebound.ts`), and where each
// binding's range stands in its `.kit` file as later edits move it (`anchors.ts`). The workspace
// decides when a directory is bound (its `bind:` bucket); this holds what binding needs and made.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { KitEntry, ModuleEntry } from '../model/entries.js';
import { dirName } from '../model/names.js';
import { Binder, type BindScope, type DirectoryBinding } from '../bind/binder.js';
import { bindScope } from '../bind/bind-scope.js';
import { kitTargets } from '../bind/targets.js';
import type { FileBinding, HandlerBinding } from '../bind/types.js';
import { anchorIn, rangeAt } from './anchors.js';
import { Prebound, type PrebindDir, type PrebindJob } from './prebound.js';

/** What binding reads of the workspace. */
export interface BindingSources {
  kitMembers(key: string): KitEntry[];
  moduleMembers(key: string): ModuleEntry[];
  allKit(): KitEntry[];
  /** The `bind:<dir>` bucket keys. */
  bindKeys(): Iterable<string>;
}

export class WorkspaceBindings {
  private readonly binder: Binder;
  private readonly byDir = new Map<string, DirectoryBinding>();
  private readonly prebound = new Prebound();
  /** Where each binding's `range` is among its `.kit` file's visible ranges (see `anchors.ts`). */
  private readonly anchors = new WeakMap<HandlerBinding, number>();

  /** `root`: the directory relative workspace paths are relative to (module imports resolve from it). */
  constructor(
    root: string,
    private readonly sources: BindingSources,
  ) {
    this.binder = new Binder(root);
  }

  /** Directories bound ahead by a worker and taken as they were. */
  get preboundTaken(): number {
    return this.prebound.taken;
  }

  /** A handler module's new text (the next binding of its directories reads it). */
  setModule(path: string, text: string): void {
    this.binder.setModule(path, text);
    this.prebound.invalidate();
  }

  removeModule(path: string): void {
    this.binder.removeModule(path);
    this.prebound.invalidate();
  }

  /** What was bound ahead no longer holds (the options changed). */
  invalidatePrebound(): void {
    this.prebound.invalidate();
  }

  /** Directories that bind to a module of `dir` from another package (`alias.Name` contracts). */
  dependents(dir: string): Iterable<string> {
    return this.binder.dependents(dir);
  }

  private scopeOf(dir: string, kits: KitEntry[], modules: ModuleEntry[]): BindScope<KitEntry> {
    return bindScope(dir, kits, modules, (name) => {
      const dirs = [
        ...new Set(
          this.sources
            .allKit()
            .filter((e) => e.summary.packageName === name)
            .map((e) => e.summary.dir),
        ),
      ];
      return { dirs, modules: dirs.flatMap((d) => this.sources.moduleMembers(`bind:${d}`)) };
    });
  }

  /** Binds one directory (or takes what a worker bound of it), keeping the result. */
  bindDirectory(dir: string, strictBindings: boolean | undefined): Diagnostic[] {
    const key = `bind:${dir}`;
    const kits = this.sources.kitMembers(key);
    const modules = this.sources.moduleMembers(key);
    const result =
      this.prebound.take(dir, kits, modules) ??
      this.binder.bindDirectory(this.scopeOf(dir, kits, modules), { strictBindings });
    this.byDir.set(dir, result);
    return result.diagnostics;
  }

  /**
   * What a binding worker may bind now (`bind/bind-host.ts`), with `accept` for its answers (see
   * `prebound.ts`). Directories whose contracts name other packages (`alias.Name`) bind here, where
   * what they read is tracked for re-binding.
   */
  prebindJob(): PrebindJob {
    const dirs: PrebindDir[] = [];
    for (const key of this.sources.bindKeys()) {
      const kits = this.sources.kitMembers(key);
      const modules = this.sources.moduleMembers(key);
      const scope = this.scopeOf(key.slice('bind:'.length), kits, modules);
      if (kits.some((k) => kitTargets(k).some((t) => t.otherPackage !== undefined))) continue;
      dirs.push({ scope, kits, modules });
    }
    return this.prebound.job(dirs);
  }

  /**
   * Anchors the bindings of a `.kit` file to the version they were bound against, as that version
   * is replaced by one of the same shape: they are read against later versions through the anchor
   * (`fileBinding`). Done at the first such edit, not at binding: most files are never edited. The
   * old version's ranges are the objects the binder was given, so they are found by identity even
   * after an incremental re-parse shifted them.
   */
  anchor(old: KitEntry): void {
    const fb = this.byDir.get(dirName(old.path))?.files.find((f) => f.file === old.path);
    for (const h of fb?.handlers ?? []) {
      if (this.anchors.has(h)) continue;
      const at = anchorIn(old, h.range);
      if (at !== undefined) this.anchors.set(h, at);
    }
  }

  /** The bindings declared by `path`, read against `entry` (its current version) when it is a `.kit` file. */
  fileBinding(path: string, entry: KitEntry | undefined): FileBinding | undefined {
    const fb = this.byDir.get(dirName(path))?.files.find((f) => f.file === path);
    if (!fb || !entry) return fb;
    // Bound against an earlier version of the file when later edits only moved positions.
    let moved = false;
    const handlers = fb.handlers.map((h) => {
      const now = rangeAt(entry, this.anchors.get(h));
      if (!now || now === h.range) return h;
      moved = true;
      const copy = { ...h, range: now };
      this.anchors.set(copy, this.anchors.get(h)!);
      return copy;
    });
    return moved ? { ...fb, handlers } : fb;
  }

  /** See `Workspace.releaseBinder`. */
  release(): void {
    this.binder.release();
  }

  stats(): { compilerMs: number; programs: number; parsed: number; held: number } {
    return { ...this.binder.program.stats, held: this.binder.program.parsedHeld };
  }
}
