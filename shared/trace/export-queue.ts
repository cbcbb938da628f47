// The bounded queue between `span.end()` and the sink. Ending a span only stores it here (drop-newest when
// full, counted); a drain scheduled with setImmediate hands queued spans to the sink one at a time, waiting
// (up to the export timeout) for sinks that return promises, and calls the sink's flush after each batch.
import { now } from './clock.js';
import { escapeLogText } from './log-escape.js';
import type { FinishedSpan, Sink } from './types.js';

function isThenable(v: unknown): v is PromiseLike<void> {
  return v != null && typeof (v as PromiseLike<void>).then === 'function';
}

export class ExportQueue {
  private readonly slots: (FinishedSpan | undefined)[];
  private head = 0;
  private len = 0;
  private scheduled = false;
  private draining = false;
  private needFlush = false;
  private batchStart = 0;
  private waiters: (() => void)[] = [];
  private lastErrorReport = 0;

  exported = 0;
  failures = 0;
  timeouts = 0;
  dropped = 0;
  inFlight = 0;
  lastLatencyNs = 0;
  maxLatencyNs = 0;

  constructor(
    private readonly sink: Sink,
    readonly capacity: number,
    private readonly timeoutMs: number,
    private readonly onError: ((err: unknown) => void) | null,
  ) {
    this.slots = new Array<FinishedSpan | undefined>(capacity).fill(undefined);
  }

  get depth(): number {
    return this.len;
  }

  push(span: FinishedSpan): void {
    if (this.len === this.capacity) {
      this.dropped++;
      return;
    }
    let at = this.head + this.len;
    if (at >= this.capacity) at -= this.capacity;
    this.slots[at] = span;
    this.len++;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  }

  /** Resolves once every span pushed before the call has been handed to the sink (and the sink flushed). */
  flush(): Promise<void> {
    if (this.len === 0 && !this.draining && !this.scheduled) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** @internal */
  async shutdownSink(): Promise<void> {
    await this.sink.shutdown?.();
  }

  private readonly drain = (): void => {
    this.scheduled = false;
    if (this.draining) return;
    this.draining = true;
    this.batchStart = now();
    this.pump();
  };

  private pump(): void {
    const sink = this.sink;
    for (;;) {
      if (this.len > 0) {
        const span = this.slots[this.head]!;
        this.slots[this.head] = undefined;
        this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
        this.len--;
        this.needFlush = true;
        this.inFlight = 1;
        let r: void | PromiseLike<void>;
        try {
          r = sink.write(span);
        } catch (err) {
          this.inFlight = 0;
          this.fail(err);
          continue;
        }
        if (isThenable(r)) {
          this.wait(r, true);
          return;
        }
        this.inFlight = 0;
        this.exported++;
        continue;
      }
      if (this.needFlush && sink.flush !== undefined) {
        this.needFlush = false;
        let r: void | PromiseLike<void>;
        try {
          r = sink.flush();
        } catch (err) {
          this.fail(err);
          continue;
        }
        if (isThenable(r)) {
          this.wait(r, false);
          return;
        }
        continue;
      }
      break;
    }
    this.needFlush = false;
    const latency = Math.round((now() - this.batchStart) * 1e6);
    this.lastLatencyNs = latency;
    if (latency > this.maxLatencyNs) this.maxLatencyNs = latency;
    this.draining = false;
    const waiters = this.waiters;
    if (waiters.length > 0) {
      this.waiters = [];
      for (const w of waiters) w();
    }
  }

  /** Continues the drain once a sink promise settles, or after the export timeout (a late settlement is ignored). */
  private wait(pending: PromiseLike<void>, isWrite: boolean): void {
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      this.timeouts++;
      this.inFlight = 0;
      this.pump();
    }, this.timeoutMs);
    timer.unref();
    pending.then(
      () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (isWrite) this.exported++;
        this.inFlight = 0;
        this.pump();
      },
      (err: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.inFlight = 0;
        this.fail(err);
        this.pump();
      },
    );
  }

  private fail(err: unknown): void {
    this.failures++;
    if (this.onError !== null) {
      try {
        this.onError(err);
      } catch {
        // an error handler that throws must not stop the export queue
      }
      return;
    }
    const t = Date.now();
    if (t - this.lastErrorReport < 1000) return;
    this.lastErrorReport = t;
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    process.stderr.write(`kit/trace: sink failed (${this.failures} failures so far): ${escapeLogText(message)}\n`);
  }
}
