// The workspace model: every `.kit` file and handler module, their summaries and an index from
// bucket keys (route shape, method+shape, page ID, component, layout, ...) to the files in them
// (`entry-index.ts`). Updates are by file (`workspace-files.ts`): the old entries leave their
// buckets, the new ones join, and only the buckets touched by either are re-validated, here (their
// facts: `fact-store.ts`). The CLI loads everything once; the language server and the dev server
// feed edits. The rules of this engine are in docs/architecture.md.
import { compareDiagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { WorkspaceView } from '../model/entries.js';
import { dirName } from '../model/names.js';
import type { FileBinding } from '../bind/types.js';
import { crossRule, familyOf, type BucketKey, type CrossContext } from '../validate/cross/index.js';
import { resolveFact, toFact } from './anchors.js';
import { changedFiles, readings } from './fact-changes.js';
import type { PrebindJob } from './prebound.js';
import { WorkspaceFiles } from './workspace-files.js';

export type { WorkspaceLoadOptions } from './workspace-files.js';

export class Workspace extends WorkspaceFiles implements WorkspaceView {
  /** Files whose diagnostics may have changed since the last `takeAffected()`. */
  private readonly affected = new Set<string>();
  private evaluations = 0;

  /** Buckets waiting since a `flush({ defer })`. */
  get deferredCount(): number {
    return this.queue.deferredCount;
  }

  /** Buckets evaluated so far (for tests and benchmarks: an edit that moves positions evaluates none). */
  stats(): { evaluations: number; prebound: number } {
    return { evaluations: this.evaluations, prebound: this.bindings.preboundTaken };
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
    // Rules read the markup; a caller that defers buckets completes it first, or defers them all.
    if (opts.defer === undefined) this.completeMarkup();
    const affected = new Set<string>(this.changed);
    this.changed.clear();
    if (this.bulk) {
      // Everything joined since the workspace was created: every bucket is new.
      this.bulk = false;
      for (const k of this.bucketKeys()) this.queue.add(k);
    }
    const keys = this.queue.take(this.context, opts.defer);
    if (keys.length) this.revisionCount++;
    for (const key of keys) {
      const before = this.facts.of(key);
      // A file whose facts of this bucket read the same as before is not affected: re-evaluating a
      // directory's bindings must not make every file of the directory re-published.
      const was = before.length ? readings(before, this.kitOf) : undefined;
      const fresh = this.hasBucket(key) ? this.evaluate(key).map((d) => toFact(d, this.kitOf)) : [];
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
    if (this.queue.size || this.bulk) this.flush();
  }

  /** True when a flush has work: edits not yet validated, or buckets deferred. */
  get hasPendingWork(): boolean {
    return this.bulk || this.queue.hasWork || this.changed.size > 0 || this.markupWaits.size > 0;
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

  private bindDirectory(dir: string): Diagnostic[] {
    return this.bindings.bindDirectory(dir, this.checkOptions.strictBindings);
  }

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
    const dir = dirName(path);
    if (!this.hasBucket(`bind:${dir}`)) return undefined;
    return this.bindings.fileBinding(path, this.kits.get(path));
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

  /** Time spent in the TypeScript compiler API and Programs built, for benchmarks and diagnostics. */
  bindingStats(): { compilerMs: number; programs: number; parsed: number; held: number } {
    return this.bindings.stats();
  }

  // ---- queries ------------------------------------------------------------------------------

  diagnosticsFor(path: string): Diagnostic[] {
    if (this.localRules.takeFile(path)) this.runWaiting([path]);
    // Other files' markup decides facts of this one (a component's props, say).
    this.completeMarkup();
    this.settle();
    const e = this.kits.get(path) ?? this.modules.get(path);
    const out = e ? [...e.local] : [];
    for (const list of this.facts.inFile(path)) for (const f of list) out.push(resolveFact(f, this.kitOf));
    return out.sort(compareDiagnostics);
  }

  allDiagnostics(): Diagnostic[] {
    if (this.localRules.size) this.runDeferredLocalRules();
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
    for (const e of this.kits.values()) for (const d of e.local) add(d);
    for (const e of this.modules.values()) for (const d of e.local) add(d);
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
