// The cross-file facts a workspace holds: each bucket's last evaluation (`Fact`s, see `anchors.ts`),
// indexed by the file each is reported in, by the files each points into (its own file or a related
// location: a file replaced by one of another shape re-evaluates those buckets) and by the files it
// points into at a place that is not visible (any edit of that file re-evaluates them).
import { addTo } from './sets.js';
import { anchorLate, filesOf, type Fact, type KitOf } from './anchors.js';

export class FactStore {
  private readonly byKey = new Map<string, Fact[]>();
  /**
   * Buckets whose facts came by `add` and are not in the indexes by file yet, in the order they
   * came: a one-shot command reads every fact once (`all`) and never asks by file, so the first
   * load's tens of thousands of facts are indexed only when something does.
   */
  private unindexed: string[] = [];
  private readonly byFile = new Map<string, Map<string, Fact[]>>();
  /** File → the buckets whose facts point into it (their own file or a related location). */
  private readonly mentions = new Map<string, Set<string>>();
  /** `.kit` file → the buckets whose facts point into it at a place that is not visible. */
  private readonly positional = new Map<string, Set<string>>();

  /** The facts of one bucket (empty when it has none). */
  of(key: string): readonly Fact[] {
    return this.byKey.get(key) ?? [];
  }

  /** Replaces the facts of one bucket by those of its new evaluation. */
  replace(key: string, fresh: Fact[]): void {
    this.indexAll();
    for (const f of this.byKey.get(key) ?? []) this.forget(key, f);
    if (fresh.length) this.byKey.set(key, fresh);
    else this.byKey.delete(key);
    for (const f of fresh) this.remember(key, f);
  }

  /**
   * The facts of a bucket that has none (the first load evaluates each bucket once): as `replace`,
   * with the indexes by file left for the first reader that needs them.
   */
  add(key: string, fresh: Fact[]): void {
    if (this.byKey.has(key)) return this.replace(key, fresh);
    if (fresh.length === 0) return;
    this.byKey.set(key, fresh);
    this.unindexed.push(key);
  }

  /** Indexes the facts `add` left unindexed, in the order they came (the order `replace` would have). */
  private indexAll(): void {
    if (this.unindexed.length === 0) return;
    const keys = this.unindexed;
    this.unindexed = [];
    for (const k of keys) for (const f of this.byKey.get(k) ?? []) this.remember(k, f);
  }

  /** The buckets whose facts point into `path`. */
  mentioning(path: string): Iterable<string> {
    this.indexAll();
    return this.mentions.get(path) ?? [];
  }

  /** The buckets whose facts point into `path` at a place that is not visible. */
  positionalIn(path: string): Iterable<string> {
    this.indexAll();
    return this.positional.get(path) ?? [];
  }

  /** The facts reported in `path`, by bucket. */
  inFile(path: string): Iterable<readonly Fact[]> {
    this.indexAll();
    return this.byFile.get(path)?.values() ?? [];
  }

  /** Every fact, bucket by bucket. */
  all(): Iterable<readonly Fact[]> {
    return this.byKey.values();
  }

  /** Anchors the late facts pointing into `path` while its version being replaced is still in place. */
  anchorLate(path: string, kitOf: KitOf): void {
    for (const k of this.mentioning(path)) {
      for (const f of this.of(k)) {
        if (!f.late) continue;
        for (const p of anchorLate(f, kitOf)) addTo(this.positional, p, k);
      }
    }
  }

  private remember(key: string, f: Fact): void {
    const file = f.diagnostic.file;
    let m = this.byFile.get(file);
    if (!m) this.byFile.set(file, (m = new Map()));
    let list = m.get(key);
    if (!list) m.set(key, (list = []));
    list.push(f);
    for (const p of filesOf(f)) addTo(this.mentions, p, key);
    for (const p of f.positional ?? []) addTo(this.positional, p, key);
  }

  private forget(key: string, f: Fact): void {
    this.byFile.get(f.diagnostic.file)?.delete(key);
    for (const p of filesOf(f)) this.mentions.get(p)?.delete(key);
    for (const p of f.positional ?? []) this.positional.get(p)?.delete(key);
  }
}
