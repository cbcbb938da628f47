// kit/trace — spans, context propagation, samplers, sinks and a local collector with a viewer.
// Zero runtime dependencies (Node built-ins only).
export * from './constants.js';
export {
  background,
  withValue,
  spanIdentity,
  NOOP_SPAN,
  Context,
  type TraceIdentity,
  type StartResult,
} from './context.js';
export {
  withSurface,
  withLane,
  withAttributes,
  withSource,
  withStartTime,
  type StartOption,
  type AttributesOption,
  SpanOption,
} from './options.js';
export { newTracer, Tracer, startSpan, setDefaultTracer, getDefaultTracer, type TracerHealth } from './tracer.js';
export {
  TracerOption,
  withSink,
  withSampler,
  withExportQueueSize,
  withExportTimeout,
  withSourceRoot,
  withErrorHandler,
  DEFAULT_EXPORT_QUEUE_SIZE,
  DEFAULT_EXPORT_TIMEOUT_MS,
} from './tracer-options.js';
export { spanFromContext } from './span.js';
export {
  alwaysOn,
  alwaysOff,
  ratioSampler,
  parentBased,
  ruleSampler,
  rateLimitedSampler,
  type Sampler,
  type SamplingParameters,
  type SamplingRule,
  type AttributeMatcher,
} from './sampler.js';
export {
  inject,
  extract,
  parseTraceparent,
  parseTracestate,
  isValidTracestateKey,
  isValidTracestateValue,
  TRACEPARENT,
  TRACESTATE,
  type Carrier,
  type Traceparent,
} from './propagation.js';
export { newConsoleSink, formatConsoleLine } from './console-sink.js';
export { escapeLogText } from './log-escape.js';
export { newJSONLSink } from './jsonl-sink.js';
export { newRingSink, RingSink, DEFAULT_RING_LIMIT, DEFAULT_RING_BYTES, type RingSinkOptions } from './ring-sink.js';
export { multiSink } from './multi-sink.js';
export {
  exporterSink,
  toExportSpan,
  type ExportSpan,
  type SpanExporter,
  DEFAULT_EXPORT_BATCH_SIZE,
} from './exporter-sink.js';
export {
  newCollector,
  Collector,
  SSE_EVENT,
  DEFAULT_COLLECTOR_LIMIT,
  type CollectorOptions,
  type CollectorHealth,
} from './collector.js';
export { DEFAULT_MOUNT, type HandlerOptions, type RequestListener } from './collector-http.js';
export { parseSnapshot, SnapshotError, RecordedSpan } from './snapshot.js';
export { viewerPage } from './viewer-html.js';
export { traceRequest, isLoopbackRequest, isLoopbackAddress, requestScheme, type RouteInfo } from './request.js';
export { truncateUtf8, type Attribute, type AttributeValue, type AttributeScalar } from './limits.js';
export { formatGoDuration, rfc3339Nano } from './clock.js';
export type { Attributes, FinishedSpan, Sink, Span, SpanSnapshot, SpanEventRecord, SourceLocation } from './types.js';
export type { TextStream } from './stream-write.js';
export { recordException, describeException } from './exception.js';
export { RouteStats, LATENCY_BOUNDS_MS, type RouteFigures, type RoutesReport, type RequestRef } from './route-stats.js';
