// The collector: a sink that keeps the most recent spans in memory, streams new ones to server-sent-event
// subscribers, and accepts spans recorded in the browser. Its HTTP side lives in collector-http.ts.
import type { ServerResponse } from 'node:http';
import { RingSink } from './ring-sink.js';
import { DEFAULT_SUBSCRIBER_MEMORY, DEFAULT_SUBSCRIBER_STALL_MS, Subscribers } from './subscribers.js';
import { RouteStats } from './route-stats.js';
import { RateLimiter } from './rate-limit.js';
import { RecordedSpan } from './snapshot.js';
import type { FinishedSpan, Sink, SpanSnapshot } from './types.js';
import type { RoutesReport } from './route-stats.js';
import type { CollectorHealth, CollectorView } from './collector-view.js';
import {
  createCollectorHandler,
  createViewerHandler,
  type HandlerOptions,
  type RequestListener,
} from './collector-http.js';

export { SSE_EVENT, sseMessage, type CollectorHealth } from './collector-view.js';

export const DEFAULT_COLLECTOR_LIMIT = 1024;

export interface CollectorOptions {
  /** Concurrent event-stream subscribers (default 32); more get 429. */
  sseLimit?: number;
  /**
   * Spans an event-stream subscriber may fall behind the newest once it has been sent the stored
   * ones (default 16); it skips the oldest past that, counted in `dropped`.
   */
  subscriberBuffer?: number;
  /**
   * Milliseconds a subscriber may leave the bytes handed to its connection (its write buffer plus
   * one event) unread before it is dropped (default 10000).
   */
  subscriberStallMs?: number;
  /**
   * Bytes handed to all subscribers' connections and not read yet, at most (default 8 MiB): past
   * it, subscribers wait for the others to drain or be dropped.
   */
  subscriberMemory?: number;
  /** Browser ingest requests allowed per client address per window (default 120). */
  ingestRateLimit?: number;
  /** Rate-limit window in milliseconds (default 60000). */
  ingestRateWindowMs?: number;
  /** Spans per ingest request (default 128). */
  maxIngestSpans?: number;
  /** Ingest body size in bytes (default 1 MiB). */
  maxIngestBytes?: number;
  /** Interval of comment lines that keep idle event streams open through proxies (default 15000 ms). */
  heartbeatMs?: number;
  /**
   * Total bytes of the stored spans' JSON records; the oldest spans go first. Default: no byte
   * budget (the count `limit` alone), so a span is encoded only when it is listed or streamed.
   */
  maxBytes?: number;
  /**
   * The absolute directory span source files are relative to (the tracer's `withSourceRoot`), so the
   * viewer can open them in an editor; '' (default) when unknown.
   */
  sourceRoot?: string;
}

export class Collector implements Sink, CollectorView {
  readonly limit: number;
  readonly sseLimit: number;
  readonly subscriberBuffer: number;
  readonly maxIngestSpans: number;
  readonly maxIngestBytes: number;
  readonly heartbeatMs: number;
  readonly sourceRoot: string;
  /** @internal */
  readonly _rate: RateLimiter;
  private readonly ring: RingSink;
  private readonly stats = new RouteStats();
  private readonly subscribers: Subscribers;
  private rejectedCount = 0;

  constructor(limit: number, options: CollectorOptions) {
    this.limit = limit;
    const maxBytes = options.maxBytes ?? Infinity;
    if (!(maxBytes === Infinity || (Number.isInteger(maxBytes) && maxBytes >= 1)))
      throw new TypeError('newCollector: options.maxBytes must be a positive integer or Infinity');
    this.ring = new RingSink(limit, { maxBytes });
    if (options.sourceRoot !== undefined && typeof options.sourceRoot !== 'string')
      throw new TypeError('newCollector: options.sourceRoot must be a directory path');
    this.sourceRoot = options.sourceRoot ?? '';
    this.sseLimit = positiveInt(options.sseLimit, 32, 'sseLimit');
    this.subscriberBuffer = positiveInt(options.subscriberBuffer, 16, 'subscriberBuffer');
    this.maxIngestSpans = positiveInt(options.maxIngestSpans, 128, 'maxIngestSpans');
    this.maxIngestBytes = positiveInt(options.maxIngestBytes, 1024 * 1024, 'maxIngestBytes');
    this.heartbeatMs = positiveInt(options.heartbeatMs, 15000, 'heartbeatMs');
    this.subscribers = new Subscribers(this.ring, {
      lag: this.subscriberBuffer,
      stallMs: positiveInt(options.subscriberStallMs, DEFAULT_SUBSCRIBER_STALL_MS, 'subscriberStallMs'),
      memory: positiveInt(options.subscriberMemory, DEFAULT_SUBSCRIBER_MEMORY, 'subscriberMemory'),
      heartbeatMs: this.heartbeatMs,
    });
    this._rate = new RateLimiter(
      positiveInt(options.ingestRateLimit, 120, 'ingestRateLimit'),
      positiveInt(options.ingestRateWindowMs, 60000, 'ingestRateWindowMs'),
    );
  }

  /**
   * Sink entry point: stores the span and streams it to subscribers. Spans are stored as they are and
   * encoded only when listed or streamed; a stored span keeps its context (and so any `withValue` values)
   * reachable until it is evicted, which the limit bounds.
   */
  write(span: FinishedSpan): void {
    this.ring.push(span);
    this.stats.add(span);
    if (this.subscribers.size > 0) this.subscribers.stored();
  }

  /** Records already-validated snapshots (browser ingest). */
  record(snapshots: readonly SpanSnapshot[]): void {
    for (const s of snapshots) this.write(new RecordedSpan(s, null));
  }

  /** Stored spans, oldest first. */
  spans(): FinishedSpan[] {
    return this.ring.spans();
  }

  snapshots(): SpanSnapshot[] {
    return this.ring.snapshots();
  }

  /** Ring evictions plus messages skipped for slow subscribers. */
  dropped(): number {
    return this.ring.dropped() + this.subscribers.skipped;
  }

  /** Rejected ingest requests. */
  rejected(): number {
    return this.rejectedCount;
  }

  /** @internal */
  _reject(): void {
    this.rejectedCount++;
  }

  /** Forgets stored spans and route figures (counters are kept). */
  clear(): void {
    this.ring.clear();
    this.stats.clear();
  }

  /** Per-route figures of the request spans seen since start (or `clear`). */
  routes(): RoutesReport {
    return this.stats.report(this.sourceRoot);
  }

  health(): CollectorHealth {
    const limits = this.subscribers.limits;
    return {
      spans: this.ring.size,
      limit: this.limit,
      dropped: this.dropped(),
      rejected: this.rejectedCount,
      subscribers: this.subscribers.size,
      subscriberQueueDepth: this.subscribers.depth(),
      subscriberQueueCapacity: this.subscriberBuffer,
      subscriberBytes: this.subscribers.held(),
      subscriberMemory: limits.memory,
      subscriberStallMs: limits.stallMs,
      subscribersDropped: this.subscribers.stalled,
      sseLimit: this.sseLimit,
      ingestRateLimit: this._rate.limit,
      ingestRateWindowMs: this._rate.windowMs,
    };
  }

  /** The list response body: `{spans, dropped, rejected, health}`, spans oldest first. */
  listJSON(): string {
    const parts = this.ring.spans().map((s) => s.json());
    const health = JSON.stringify(this.health());
    const counts = `"dropped":${this.dropped()},"rejected":${this.rejectedCount}`;
    return `{"spans":[${parts.join(',')}],${counts},"health":${health}}`;
  }

  /**
   * A Node request listener serving the collector API; mount it under a prefix such as `/_kit/traces`
   * (pass `{prefix}`; requests may arrive with or without the prefix). Routes: `GET /` and `GET /data` list
   * spans as JSON (`Accept: text/event-stream` on any GET streams instead), `GET /events` streams `kit-trace`
   * events, `GET /stats` counters only, `GET /api/routes` per-route figures, `GET /viewer` the viewer page,
   * `POST /browser` ingests browser spans, and `GET /bridge.js` the browser bridge when `options.bridge` has it.
   */
  handler(options: HandlerOptions = {}): RequestListener {
    return createCollectorHandler(this, options);
  }

  /** The viewer as its own handler: `GET /` the page, plus `/data`, `/events`, `/stats` and `POST /browser`. */
  viewerHandler(options: HandlerOptions = {}): RequestListener {
    return createViewerHandler(this, options);
  }

  /** Open event-stream subscribers. */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /**
   * @internal Registers an event-stream response and starts sending it the stored spans, then new
   * ones, as its connection takes them; false when the subscriber limit is reached or it closed.
   */
  _subscribe(res: ServerResponse): boolean {
    if (this.subscribers.size >= this.sseLimit || res.destroyed || res.writableEnded) return false;
    this.subscribers.add(res);
    return true;
  }

  /** Ends every open event stream (call before closing the server that mounts the handler). */
  close(): void {
    this.subscribers.close();
  }
}

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new TypeError(`newCollector: options.${name} must be a positive integer`);
  return value;
}

/** A collector keeping the `limit` most recent spans (default 1024). */
export function newCollector(limit: number = DEFAULT_COLLECTOR_LIMIT, options: CollectorOptions = {}): Collector {
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError('newCollector: limit must be a positive integer');
  return new Collector(limit, options);
}
