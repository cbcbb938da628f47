// Files whose work waits (`kit dev` answers its first page first): the files read while deferring
// is on join the queue; once a caller has emptied it, files are handled as they come. The workspace
// keeps one queue for the files' own rules (`deferLocalRules`) and one for the markup of page views
// (`deferMarkup`).
export class DeferredFiles {
  private readonly waiting = new Set<string>();

  /** `deferring`: files read from now on wait, until the queue has once been emptied. */
  constructor(private deferring: boolean) {}

  /**
   * Whether a file read now waits (it is then queued); a file that may not wait (one given with a
   * tree, say: `eligible` false) leaves the queue.
   */
  defers(path: string, eligible: boolean): boolean {
    const later = this.deferring && eligible;
    if (later) this.waiting.add(path);
    else this.waiting.delete(path);
    return later;
  }

  has(path: string): boolean {
    return this.waiting.has(path);
  }

  /** True when `path` waited (it is then taken out of the queue). */
  takeFile(path: string): boolean {
    if (!this.waiting.delete(path)) return false;
    if (this.waiting.size === 0) this.deferring = false;
    return true;
  }

  get size(): number {
    return this.waiting.size;
  }

  /** A file left, or was handled otherwise. */
  forget(path: string): void {
    this.waiting.delete(path);
  }

  /** Every file was handled at once: nothing waits, and nothing will. */
  clear(): void {
    this.waiting.clear();
    this.deferring = false;
  }

  /** Up to `limit` waiting files, taken out of the queue; once it is empty, files no longer wait. */
  take(limit: number): string[] {
    const out: string[] = [];
    for (const path of this.waiting) {
      if (out.length >= limit) break;
      out.push(path);
    }
    for (const path of out) this.waiting.delete(path);
    if (this.waiting.size === 0) this.deferring = false;
    return out;
  }
}
