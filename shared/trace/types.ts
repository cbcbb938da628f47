// Public shapes shared by spans, sinks and the collector.
import type { Lane, StatusCode, Surface } from './constants.js';
import type { Attribute } from './limits.js';

export type { Attribute, AttributeValue, AttributeScalar } from './limits.js';

/** Attributes as given to `withAttributes`, `event` and `set`: a plain object or a Map. */
export type Attributes = Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>;

/** Where the traced code lives. `file` may be a path or a `file:` URL (for example `import.meta.url`). */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
  ownerKind?: string;
  ownerId?: string;
}

/** One event of a span snapshot. */
export interface SpanEventRecord {
  time: string;
  level: string;
  message: string;
  attributes: Attribute[];
}

/** The JSON record of a finished span (schema in the README, "Tracing"). */
export interface SpanSnapshot {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  surface: Surface;
  lane: Lane;
  source: { file: string; line: number; column: number; ownerKind: string; ownerId: string };
  attributes: Attribute[];
  events: SpanEventRecord[];
  status: { code: StatusCode; message: string };
  startTime: string;
  endTime: string;
  durationNs: number;
}

/** What a sink receives: a finished span whose snapshot and JSON encoding are built on first use and cached. */
export interface FinishedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly name: string;
  snapshot(): SpanSnapshot;
  /** The snapshot encoded as one line of JSON. */
  json(): string;
}

/**
 * A destination for finished spans. `write` is called from the tracer's export queue, never from `span.end()`;
 * a returned promise is awaited (bounded by the export timeout) before the next span is written. `flush`, when
 * present, is called after each drained batch, so batching sinks can export there.
 */
export interface Sink {
  write(span: FinishedSpan): void | PromiseLike<void>;
  flush?(): void | PromiseLike<void>;
  shutdown?(): void | PromiseLike<void>;
}

/** The span API. Unsampled spans are one shared no-op object whose methods do nothing. */
export interface Span {
  /** 32 lowercase hex digits; '' for the no-op span. */
  readonly traceId: string;
  /** 16 lowercase hex digits; '' for the no-op span. */
  readonly spanId: string;
  /** Records an event; an empty message is ignored. At most 64 events are kept. */
  event(level: string, message: string, attributes?: Attributes): void;
  setStatus(status: StatusCode, message?: string): void;
  /** Sets one attribute, replacing an earlier value of the same key. */
  set(key: string, value: unknown): void;
  /** Ends the span; later calls, and mutations after the first, are ignored. Never blocks on a sink. */
  end(): void;
  /** True while the span is sampled and not yet ended. */
  isRecording(): boolean;
  /** The status set so far (`unset` until `setStatus`; always `unset` for the no-op span). */
  statusCode(): StatusCode;
}
