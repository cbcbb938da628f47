// A fixed-size ring of the most recent finished spans. It stores the span objects themselves; snapshots
// are built only when someone reads them.
import type { FinishedSpan, Sink, SpanSnapshot } from './types.js';

export const DEFAULT_RING_LIMIT = 256;

export class RingSink implements Sink {
  private readonly items: (FinishedSpan | undefined)[];
  private head = 0;
  private count = 0;
  private evicted = 0;

  constructor(readonly limit: number) {
    this.items = new Array<FinishedSpan | undefined>(limit).fill(undefined);
  }

  /** Stores a span, evicting the oldest when full. */
  write(span: FinishedSpan): void {
    this.push(span);
  }

  /** @internal Stores a span and returns the one it evicted, if any. */
  push(span: FinishedSpan): FinishedSpan | undefined {
    const items = this.items;
    if (this.count < this.limit) {
      let at = this.head + this.count;
      if (at >= this.limit) at -= this.limit;
      items[at] = span;
      this.count++;
      return undefined;
    }
    const old = items[this.head];
    items[this.head] = span;
    this.head = this.head + 1 === this.limit ? 0 : this.head + 1;
    this.evicted++;
    return old;
  }

  /** Stored spans, oldest first. */
  spans(): FinishedSpan[] {
    const out = new Array<FinishedSpan>(this.count);
    for (let i = 0; i < this.count; i++) {
      let at = this.head + i;
      if (at >= this.limit) at -= this.limit;
      out[i] = this.items[at]!;
    }
    return out;
  }

  /** Snapshots of the stored spans, oldest first. */
  snapshots(): SpanSnapshot[] {
    return this.spans().map((s) => s.snapshot());
  }

  get size(): number {
    return this.count;
  }

  /** Spans evicted because the ring was full. */
  dropped(): number {
    return this.evicted;
  }

  clear(): void {
    this.items.fill(undefined);
    this.head = 0;
    this.count = 0;
  }
}

/** A ring of the `limit` most recent spans (default 256); the oldest is dropped and counted on overflow. */
export function newRingSink(limit: number = DEFAULT_RING_LIMIT): RingSink {
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError('newRingSink: limit must be a positive integer');
  return new RingSink(limit);
}
