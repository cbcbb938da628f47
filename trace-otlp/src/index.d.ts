import type { SpanKind, HrTime } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** A kit span as `exporterSink` hands it to an exporter (the `ExportSpan` type of kit/trace). */
export interface ExportSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  surface: string;
  lane: string;
  source: { file: string; line: number; column: number; ownerKind: string; ownerId: string };
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: unknown }[];
  events: { timeUnixNano: string; level: string; message: string; attributes: { key: string; value: unknown }[] }[];
  status: { code: 'unset' | 'ok' | 'error'; message: string };
}

export interface OtlpExporterOptions {
  /**
   * OTLP/HTTP traces endpoint (default: the OpenTelemetry default, `http://localhost:4318/v1/traces`, or
   * OTEL_EXPORTER_OTLP_* env).
   */
  url?: string;
  headers?: Record<string, string>;
  /** `gzip` or `none`. */
  compression?: 'gzip' | 'none';
  /** Per-request timeout (default 4000 ms). */
  timeoutMillis?: number;
  /** `service.name` of the resource (default `kit`). */
  serviceName?: string;
  serviceVersion?: string;
  /** `deployment.environment.name`. */
  environment?: string;
  resourceAttributes?: Record<string, string | number | boolean>;
  /** Any OpenTelemetry span exporter instead of OTLP/HTTP (for example `InMemorySpanExporter`). */
  exporter?: SpanExporter;
}

/** kit/trace's `SpanExporter` interface plus OpenTelemetry-style lifecycle and counters. */
export interface OtlpExporter {
  exportSpans(spans: ExportSpan[]): Promise<void>;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
  exporterFailureCount(): number;
  unsupportedAttributeCount(): number;
}

export function newOtlpExporter(options?: OtlpExporterOptions): OtlpExporter;
export function toReadableSpan(span: ExportSpan, resource: Resource, scope?: InstrumentationScope): ReadableSpan;
export function spanKindForLane(lane: string): SpanKind;
export function hrTimeFromUnixNano(unixNano: string): HrTime;
export const SCOPE: InstrumentationScope;
