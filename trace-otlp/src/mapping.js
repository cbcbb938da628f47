// @ts-check
// Maps kit export spans (kit/trace `ExportSpan`, produced by `exporterSink`) to OpenTelemetry `ReadableSpan`s.
// kit IDs are W3C IDs, so spans keep their identity: the OpenTelemetry trace and span IDs are kit's.
import { SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';

/** @typedef {import('./index.js').ExportSpan} ExportSpan */
/** @typedef {import('@opentelemetry/sdk-trace-base').ReadableSpan} ReadableSpan */
/** @typedef {import('@opentelemetry/api').Attributes} Attributes */
/** @typedef {import('@opentelemetry/api').HrTime} HrTime */

export const SCOPE = Object.freeze({ name: 'kit-trace-otlp', version: '0.1.0' });

const SERVER_LANES = new Set(['route', 'handler', 'ssr', 'action', 'api', 'fragment']);

/**
 * Span kind by lane: request-serving lanes are SERVER, `contract` is CLIENT, the
 * rest INTERNAL.
 * @param {string} lane
 * @returns {SpanKind}
 */
export function spanKindForLane(lane) {
  if (SERVER_LANES.has(lane)) return SpanKind.SERVER;
  if (lane === 'contract') return SpanKind.CLIENT;
  return SpanKind.INTERNAL;
}

/**
 * @param {string} unixNano decimal nanoseconds since the Unix epoch
 * @returns {HrTime}
 */
export function hrTimeFromUnixNano(unixNano) {
  const ns = BigInt(unixNano);
  return [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];
}

/** @param {unknown} v */
function isScalar(v) {
  return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/** @param {unknown} v */
function isAttributeValue(v) {
  if (isScalar(v)) return true;
  if (!Array.isArray(v)) return false;
  return v.every((x) => typeof x === typeof v[0] && isScalar(x));
}

/**
 * Copies kit attributes into an OpenTelemetry attribute map; values OpenTelemetry cannot carry are dropped
 * and their keys listed.
 * @param {{key: string, value: unknown}[]} list
 * @param {Attributes} into
 * @param {string[]} dropped
 */
function copyAttributes(list, into, dropped) {
  for (const { key, value } of list) {
    if (typeof key === 'string' && key !== '' && isAttributeValue(value))
      into[key] = /** @type {import('@opentelemetry/api').AttributeValue} */ (value);
    else dropped.push(String(key));
  }
}

/**
 * @param {ExportSpan} span
 * @param {import('@opentelemetry/resources').Resource} resource
 * @param {import('@opentelemetry/core').InstrumentationScope} [scope]
 * @returns {ReadableSpan}
 */
export function toReadableSpan(span, resource, scope = SCOPE) {
  /** @type {string[]} */
  const dropped = [];
  /** @type {Attributes} */
  const attributes = {};
  copyAttributes(span.attributes, attributes, dropped);
  attributes['kit.surface'] = span.surface;
  attributes['kit.lane'] = span.lane;
  const src = span.source;
  if (src && src.file) {
    attributes['kit.source.file'] = src.file;
    if (src.line > 0) attributes['kit.source.line'] = src.line;
    if (src.column > 0) attributes['kit.source.column'] = src.column;
  }
  if (src && src.ownerKind) attributes['kit.owner.kind'] = src.ownerKind;
  if (src && src.ownerId) attributes['kit.owner.id'] = src.ownerId;
  if (dropped.length > 0) attributes['kit.dropped_attributes'] = dropped;

  const events = span.events.map((e) => {
    /** @type {Attributes} */
    const attrs = {};
    copyAttributes(e.attributes, attrs, dropped);
    attrs['kit.event.level'] = e.level;
    return { name: e.message, time: hrTimeFromUnixNano(e.timeUnixNano), attributes: attrs };
  });

  const startNs = BigInt(span.startTimeUnixNano);
  const endNs = BigInt(span.endTimeUnixNano);
  const duration = endNs > startNs ? endNs - startNs : 0n;
  const context = Object.freeze({
    traceId: span.traceId,
    spanId: span.spanId,
    traceFlags: TraceFlags.SAMPLED,
    isRemote: false,
  });
  const status =
    span.status.code === 'error'
      ? { code: SpanStatusCode.ERROR, message: span.status.message }
      : { code: span.status.code === 'ok' ? SpanStatusCode.OK : SpanStatusCode.UNSET };
  return {
    name: span.name,
    kind: spanKindForLane(span.lane),
    spanContext: () => context,
    parentSpanContext: span.parentSpanId
      ? { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: false }
      : undefined,
    startTime: hrTimeFromUnixNano(span.startTimeUnixNano),
    endTime: hrTimeFromUnixNano(span.endTimeUnixNano),
    duration: [Number(duration / 1_000_000_000n), Number(duration % 1_000_000_000n)],
    status,
    attributes,
    links: [],
    events,
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: dropped.length,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
