// A ring of the most recent finished spans, bounded twice: by count and by the bytes of their JSON
// records. It stores the span objects themselves; a span's record is encoded once (the span caches
// it) when a byte budget needs its size, and snapshots are built only when someone reads them.
// Every span pushed gets the next sequence number, so that a reader (an event-stream subscriber)
// can walk the ring at its own pace and notice what was evicted before it got there.
import type { FinishedSpan, Sink, SpanSnapshot } from './types.js';

export const DEFAULT_RING_LIMIT = 256;
export const DEFAULT_RING_BYTES = 1024 * 1024;

export interface RingSinkOptions {
  /** Total UTF-8 bytes of the stored spans' JSON records (default 1 MiB); `Infinity` counts spans only. */
  maxBytes?: number;
}

export class RingSink implements Sink {
  private readonly items: (FinishedSpan | undefined)[];
  private readonly sizes: Float64Array;
  private head = 0;
  private count = 0;
  private evicted = 0;
  private used = 0;
  /** Spans ever pushed: the sequence number the next one gets. */
  private pushed = 0;
  readonly maxBytes: number;

  constructor(
    readonly limit: number,
    options: RingSinkOptions = {},
  ) {
    this.items = new Array<FinishedSpan | undefined>(limit).fill(undefined);
    this.maxBytes = options.maxBytes ?? DEFAULT_RING_BYTES;
    this.sizes = new Float64Array(this.maxBytes === Infinity ? 0 : limit);
  }

  /** Stores a span, evicting the oldest while the ring is full or over its byte budget. */
  write(span: FinishedSpan): void {
    this.push(span);
  }

  /**
   * @internal Stores a span; returns the last one it evicted, if any. A span larger than the whole
   * budget is still kept (alone), so the newest span is always readable.
   */
  push(span: FinishedSpan): FinishedSpan | undefined {
    let old: FinishedSpan | undefined;
    let size = 0;
    if (this.sizes.length > 0) {
      size = Buffer.byteLength(span.json());
      while (this.count > 0 && this.used + size > this.maxBytes) old = this.shift();
    }
    if (this.count === this.limit) old = this.shift();
    let at = this.head + this.count;
    if (at >= this.limit) at -= this.limit;
    this.items[at] = span;
    if (this.sizes.length > 0) this.sizes[at] = size;
    this.used += size;
    this.count++;
    this.pushed++;
    return old;
  }

  private shift(): FinishedSpan | undefined {
    const at = this.head;
    const old = this.items[at];
    this.items[at] = undefined;
    if (this.sizes.length > 0) this.used -= this.sizes[at]!;
    this.head = at + 1 === this.limit ? 0 : at + 1;
    this.count--;
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

  /** @internal The sequence number of the oldest stored span (`nextSeq` when none is). */
  get firstSeq(): number {
    return this.pushed - this.count;
  }

  /** @internal The sequence number the next span pushed gets. */
  get nextSeq(): number {
    return this.pushed;
  }

  /** @internal The stored span with sequence number `seq`, if it is still stored. */
  at(seq: number): FinishedSpan | undefined {
    const i = seq - this.firstSeq;
    if (i < 0 || i >= this.count) return undefined;
    let at = this.head + i;
    if (at >= this.limit) at -= this.limit;
    return this.items[at];
  }

  /** Snapshots of the stored spans, oldest first. */
  snapshots(): SpanSnapshot[] {
    return this.spans().map((s) => s.snapshot());
  }

  get size(): number {
    return this.count;
  }

  /** Bytes of the stored spans' JSON records (0 without a byte budget). */
  get bytes(): number {
    return this.used;
  }

  /** Spans evicted because the ring was full or over its byte budget. */
  dropped(): number {
    return this.evicted;
  }

  clear(): void {
    this.items.fill(undefined);
    this.head = 0;
    this.count = 0;
    this.used = 0;
  }
}

/**
 * A ring of the `limit` most recent spans (default 256) whose JSON records total at most
 * `options.maxBytes` (default 1 MiB); the oldest are dropped and counted first.
 */
export function newRingSink(limit: number = DEFAULT_RING_LIMIT, options: RingSinkOptions = {}): RingSink {
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError('newRingSink: limit must be a positive integer');
  const b = options.maxBytes;
  if (b !== undefined && !(b === Infinity || (Number.isInteger(b) && b >= 1)))
    throw new TypeError('newRingSink: options.maxBytes must be a positive integer or Infinity');
  return new RingSink(limit, options);
}
