// What the collector's HTTP side reads and calls on a collector, and the event format both sides
// share. A module of its own so that the collector (which builds its handlers) and its HTTP side
// (which serves them) do not import each other.
import type { ServerResponse } from 'node:http';
import type { RateLimiter } from './rate-limit.js';
import type { FinishedSpan, SpanSnapshot } from './types.js';
import type { RoutesReport } from './route-stats.js';

export const SSE_EVENT = 'kit-trace';

export function sseMessage(span: FinishedSpan): string {
  return `event: ${SSE_EVENT}\ndata: ${span.json()}\n\n`;
}

export interface CollectorHealth {
  spans: number;
  limit: number;
  dropped: number;
  rejected: number;
  subscribers: number;
  subscriberQueueDepth: number;
  subscriberQueueCapacity: number;
  /** Bytes handed to subscribers' connections and not read yet; at most `subscriberMemory` (plus one event). */
  subscriberBytes: number;
  subscriberMemory: number;
  subscriberStallMs: number;
  /** Subscribers dropped for leaving what they were handed unread for `subscriberStallMs`. */
  subscribersDropped: number;
  sseLimit: number;
  ingestRateLimit: number;
  ingestRateWindowMs: number;
}

export interface CollectorView {
  readonly sseLimit: number;
  readonly maxIngestSpans: number;
  readonly maxIngestBytes: number;
  readonly subscriberCount: number;
  readonly sourceRoot: string;
  /** @internal */
  readonly _rate: RateLimiter;
  spans(): FinishedSpan[];
  record(snapshots: readonly SpanSnapshot[]): void;
  health(): CollectorHealth;
  listJSON(): string;
  routes(): RoutesReport;
  /** @internal */
  _reject(): void;
  /** @internal */
  _subscribe(res: ServerResponse): boolean;
}
