// Which cross-file buckets the next flush evaluates: those an edit touched (and, for a rule with
// `touches`, the buckets it says depend on them, asked at the flush), and those an earlier flush
// left for later (`defer`). The workspace decides what is touched; this keeps the order of asking.
import { crossRule, familyOf, type BucketKey, type CrossContext } from '../validate/cross/index.js';

export class BucketQueue {
  private readonly pending = new Set<string>();
  /** Pending buckets whose rule has `touches`, expanded when taken. */
  private readonly touched = new Set<string>();
  /** Buckets left for a later flush by `take(…, defer)`. */
  private readonly deferred = new Set<string>();

  /** A bucket to evaluate again (its facts may read differently), nothing more. */
  add(key: string): void {
    this.pending.add(key);
  }

  /**
   * A bucket's members changed: it is re-evaluated, and so are the buckets its rule says depend on
   * it. Which those are is asked when the queue is taken, of the workspace as the edits left it: a
   * rule may then compare the bucket with what it was when last evaluated.
   */
  touch(key: string): void {
    this.pending.add(key);
    if (crossRule(familyOf(key))?.touches) this.touched.add(key);
  }

  /** Forgets what is pending: every bucket is about to be evaluated (the first flush). */
  clear(): void {
    this.pending.clear();
    this.touched.clear();
  }

  /** A bucket left for a later flush without having been asked (see `take`). */
  defer(key: string): void {
    this.deferred.add(key);
  }

  get size(): number {
    return this.pending.size;
  }

  get deferredCount(): number {
    return this.deferred.size;
  }

  /** True while buckets wait: touched since the last take, or deferred by it. */
  get hasWork(): boolean {
    return this.pending.size > 0 || this.deferred.size > 0;
  }

  /**
   * The buckets to evaluate now, the queue emptied: the pending ones with what the touched ones
   * reach, and the deferred ones asked again; those `defer` matches wait for the next take.
   */
  take(context: CrossContext, defer?: (key: string) => boolean): string[] {
    for (const key of this.touched) {
      const touches = crossRule(familyOf(key))?.touches;
      if (touches) for (const k of touches(key as BucketKey, context)) this.pending.add(k);
    }
    this.touched.clear();
    for (const k of this.deferred) this.pending.add(k);
    this.deferred.clear();
    const keys: string[] = [];
    for (const k of this.pending) {
      if (defer?.(k)) this.deferred.add(k);
      else keys.push(k);
    }
    this.pending.clear();
    return keys;
  }
}
