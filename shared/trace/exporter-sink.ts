// Adapts an OTLP-like exporter (`exportSpans(spans)`) to a sink. Spans are buffered as they are written and
// exported in batches when the tracer flushes the sink after each drained batch (or when a batch is full).
import { parseRfc3339 } from './clock.js';
import type { Lane, StatusCode, Surface } from './constants.js';
import type { Attribute } from './limits.js';
import type { FinishedSpan, Sink, SpanSnapshot } from './types.js';

/** A span in the shape OTLP exporters expect: times as decimal nanoseconds since the Unix epoch. */
export interface ExportSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  surface: Surface;
  lane: Lane;
  source: SpanSnapshot['source'];
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Attribute[];
  events: { timeUnixNano: string; level: string; message: string; attributes: Attribute[] }[];
  status: { code: StatusCode; message: string };
}

export interface SpanExporter {
  exportSpans(spans: ExportSpan[]): void | PromiseLike<void>;
  shutdown?(): void | PromiseLike<void>;
}

export const DEFAULT_EXPORT_BATCH_SIZE = 512;

/** RFC 3339 text to decimal Unix nanoseconds. */
export function unixNanoFromRfc3339(text: string): string {
  const t = parseRfc3339(text);
  if (t === null) return '0';
  return (BigInt(t[0]) * 1_000_000n + BigInt(t[1])).toString();
}

export function toExportSpan(s: SpanSnapshot): ExportSpan {
  return {
    traceId: s.traceId,
    spanId: s.spanId,
    parentSpanId: s.parentSpanId ?? '',
    name: s.name,
    surface: s.surface,
    lane: s.lane,
    source: s.source,
    startTimeUnixNano: unixNanoFromRfc3339(s.startTime),
    endTimeUnixNano: unixNanoFromRfc3339(s.endTime),
    attributes: s.attributes,
    events: s.events.map((e) => ({
      timeUnixNano: unixNanoFromRfc3339(e.time),
      level: e.level,
      message: e.message,
      attributes: e.attributes,
    })),
    status: s.status,
  };
}

export function exporterSink(exporter: SpanExporter, options: { maxBatchSize?: number } = {}): Sink {
  if (exporter === null || typeof exporter !== 'object' || typeof exporter.exportSpans !== 'function') {
    throw new TypeError('exporterSink: exporter must have an exportSpans(spans) method');
  }
  const max = options.maxBatchSize ?? DEFAULT_EXPORT_BATCH_SIZE;
  if (!Number.isInteger(max) || max < 1)
    throw new TypeError('exporterSink: options.maxBatchSize must be a positive integer');
  let batch: ExportSpan[] = [];
  const send = (): void | PromiseLike<void> => {
    if (batch.length === 0) return;
    const out = batch;
    batch = [];
    return exporter.exportSpans(out);
  };
  return {
    write(span: FinishedSpan) {
      batch.push(toExportSpan(span.snapshot()));
      if (batch.length >= max) return send();
    },
    flush: send,
    shutdown: () => exporter.shutdown?.(),
  };
}
