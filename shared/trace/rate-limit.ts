// Fixed-window request counting per client key, with a bounded number of tracked clients.

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxTracked: number = 1024,
  ) {}

  /** Counts one request for `key`; false when the key has used up its window. */
  allow(key: string, nowMs: number = Date.now()): boolean {
    const w = this.windows.get(key);
    if (w !== undefined && nowMs - w.start < this.windowMs) {
      if (w.count >= this.limit) return false;
      w.count++;
      return true;
    }
    if (w === undefined && this.windows.size >= this.maxTracked) this.evict(nowMs);
    this.windows.set(key, { start: nowMs, count: 1 });
    return this.limit >= 1;
  }

  get tracked(): number {
    return this.windows.size;
  }

  private evict(nowMs: number): void {
    for (const [k, w] of this.windows) if (nowMs - w.start >= this.windowMs) this.windows.delete(k);
    // Still full: forget the longest-tracked client (Map iteration is insertion order).
    while (this.windows.size >= this.maxTracked) {
      const first = this.windows.keys().next();
      if (first.done) break;
      this.windows.delete(first.value);
    }
  }
}
