// Replacing a file's entry, and what that touches: the buckets it leaves and joins (queued for the
// next flush), the buckets whose facts point into it, the handler modules that take their package
// from it, and the files whose diagnostics may change (`ChangeLog`). The summary firewall is here:
// a new version of a `.kit` file with the old one's shape keeps its buckets.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { KitEntry } from '../model/entries.js';
import { crossShape } from '../model/cross-shape.js';
import { dirName } from '../model/names.js';
import { type KitOf, placesMoved, pointsInto } from './anchors.js';
import type { WorkspaceBindings } from './bindings.js';
import type { BucketQueue } from './bucket-queue.js';
import type { EntryIndex } from './entry-index.js';
import type { FactStore } from './fact-store.js';
import { moduleEntry } from './make-entries.js';

/** What changed since the last flush. */
export class ChangeLog {
  /**
   * Bumped by every change of the model, and by a flush that re-evaluated buckets (binding results
   * arrive that way): anything derived from the workspace may be cached under it.
   */
  revision = 0;
  /** Files whose diagnostics may have changed since the last flush. */
  readonly files = new Set<string>();
  /**
   * True until the first flush: files only join buckets, and the first flush evaluates every bucket
   * once (instead of noting each bucket as touched for each file that joins it).
   */
  bulk = true;

  /**
   * The files noted lately, each with the revision its note made, oldest first: a cache kept under
   * an older revision finds what changed since without comparing every entry (`changedSince`).
   * Notes older than `JOURNAL` are dropped in halves; `floor` is the revision from which on the
   * journal is whole.
   */
  private readonly journal: { revision: number; path: string }[] = [];
  private floor = 0;

  /** A change of the model whose diagnostics may differ in `path`. */
  note(path: string): void {
    this.revision++;
    this.files.add(path);
    this.journal.push({ revision: this.revision, path });
    if (this.journal.length > 2 * JOURNAL) this.floor = this.journal.splice(0, JOURNAL)[JOURNAL - 1].revision;
  }

  /**
   * The files noted after `revision` (a revision moved by a flush alone notes none), or undefined
   * when the journal no longer reaches that far back.
   */
  changedSince(revision: number): Set<string> | undefined {
    if (revision < this.floor) return undefined;
    const out = new Set<string>();
    for (let i = this.journal.length - 1; i >= 0 && this.journal[i].revision > revision; i--)
      out.add(this.journal[i].path);
    return out;
  }
}

const JOURNAL = 4096;

export class EntryUpdates {
  constructor(
    private readonly index: EntryIndex,
    private readonly facts: FactStore,
    private readonly queue: BucketQueue,
    private readonly bindings: WorkspaceBindings,
    private readonly log: ChangeLog,
    private readonly kitOf: KitOf,
  ) {}

  /** A `.kit` file's new entry takes the old one's place (its directory's modules follow its package). */
  putKit(entry: KitEntry): void {
    const dir = dirName(entry.path);
    const pkgBefore = this.index.moduleCount ? this.index.packageOfDir(dir) : undefined;
    this.replaceKit(entry);
    if (pkgBefore !== undefined) this.refreshModules(dir, pkgBefore);
  }

  private replaceKit(entry: KitEntry): void {
    const path = entry.path;
    const old = this.index.kit(path);
    this.log.note(path);
    if (old && crossShape(old) === crossShape(entry)) {
      // The summary firewall: an edit that leaves everything other files can see unchanged (an
      // edit inside a view, a line inserted above a declaration) re-validates this file alone. The
      // facts anchored in it resolve against the new version when read, so the files holding those
      // whose places moved are re-published; only facts at places that are not visible need their
      // buckets again.
      this.bindings.anchor(old);
      this.facts.anchorLate(path, this.kitOf);
      this.index.replaceKit(entry);
      for (const k of this.facts.positionalIn(path)) this.queue.add(k);
      // Only the facts pointing into this file can have moved (a directory's bindings hold thousands
      // that point elsewhere).
      for (const k of this.facts.mentioning(path))
        for (const f of this.facts.of(k))
          if (pointsInto(f, path) && placesMoved(f, this.kitOf)) this.log.files.add(f.diagnostic.file);
      return;
    }
    // The anchors into the old version mean nothing in the new one: every bucket pointing here is
    // evaluated again, besides those the file leaves and joins.
    for (const k of this.facts.mentioning(path)) this.queue.add(k);
    this.index.putKit(entry);
    if (old) this.touch(old.keys);
    this.join(entry.keys);
  }

  /**
   * Handler modules take their package (owner labels such as `api site.Stats`) from the `.kit`
   * files of their directory: when those change it, the modules are read again.
   */
  private refreshModules(dir: string, pkgBefore: string): void {
    if (this.index.packageOfDir(dir) === pkgBefore) return;
    for (const m of this.index.moduleMembers(`bind:${dir}`)) this.putModule(m.path, m.text, m.readIssues);
  }

  /** Adds or replaces a handler module (`.ts`/`.js` beside `.kit` files). */
  putModule(path: string, text: string, readIssues: Diagnostic[] = []): void {
    const old = this.index.module(path);
    const entry = moduleEntry(path, text, this.index.packageOfDir(dirName(path)), readIssues);
    this.log.note(path);
    this.bindings.setModule(path, text);
    this.touchBindingDependents(path);
    this.index.putModule(entry);
    if (old) this.touch(old.keys);
    this.join(entry.keys);
  }

  /** Takes a file out; answers false when the workspace did not hold it. */
  remove(path: string): boolean {
    const isKit = this.index.kit(path) !== undefined;
    if (!isKit && !this.index.module(path)) return false;
    const pkgBefore = isKit && this.index.moduleCount ? this.index.packageOfDir(dirName(path)) : undefined;
    this.log.note(path);
    for (const k of this.facts.mentioning(path)) this.queue.add(k);
    const old = this.index.delete(path)!;
    this.touch(old.keys);
    if (!isKit) {
      this.bindings.removeModule(path);
      this.touchBindingDependents(path);
    }
    if (pkgBefore !== undefined) this.refreshModules(dirName(path), pkgBefore);
    return true;
  }

  /** The buckets a file joined: evaluated again unless the first flush evaluates every bucket anyway. */
  private join(keys: readonly string[]): void {
    if (!this.log.bulk) for (const k of keys) this.queue.touch(k);
  }

  /** The buckets a file left. */
  private touch(keys: readonly string[]): void {
    for (const k of keys) this.queue.touch(k);
  }

  /** A module change also re-binds directories that bind to it from another package (`alias.Name` contracts). */
  private touchBindingDependents(modulePath: string): void {
    for (const d of this.bindings.dependents(dirName(modulePath))) this.queue.add(`bind:${d}`);
  }
}
