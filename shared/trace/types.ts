// Public shapes shared by spans, sinks, the collector and the viewer (which reads them as JSON).
import type { Lane, StatusCode, Surface } from './constants.js';

export type AttributeScalar = string | number | boolean;
export type AttributeValue = AttributeScalar | readonly string[] | readonly number[] | readonly boolean[];
export interface Attribute {
  key: string;
  value: AttributeValue;
}

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

export interface RouteErrorRef {
  message: string;
  status: number;
  traceId: string;
  spanId: string;
  time: string;
}

export interface RequestRef {
  name: string;
  status: number;
  durationMs: number;
  traceId: string;
  spanId: string;
  time: string;
  error: boolean;
}

/** One route's figures (JSON of `GET <mount>/api/routes`). */
export interface RouteFigures {
  /** `METHOD route` */
  key: string;
  method: string;
  route: string;
  /** `page`, or the endpoint kind (`action`, `api`, `fragment`, `command`, `query`). */
  kind: string;
  page: string;
  /** The endpoint's declared symbol ('' for pages). */
  symbol: string;
  source: { file: string; line: number; column: number };
  count: number;
  /** Requests whose span status is `error` (5xx, thrown errors, connections cut). */
  errors: number;
  /** 4xx answers (not errors for a server, per the HTTP semantic conventions). */
  clientErrors: number;
  /** Over the most recent requests (at most 512). */
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Counts per bucket of `bounds` (milliseconds), plus one for slower requests. */
  histogram: number[];
  lastError?: RouteErrorRef;
  lastTraceId: string;
}

export interface RoutesReport {
  version: 1;
  /** Directory span source files are relative to ('' when unknown). */
  sourceRoot: string;
  bounds: readonly number[];
  routes: RouteFigures[];
  slowest: RequestRef[];
  overflow: number;
}
