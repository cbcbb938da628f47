// Span snapshots as data: the bounded JSON encoding, and strict validation of snapshots that arrive from
// outside (browser ingest), which become `RecordedSpan`s stored next to locally recorded spans.
import { LANES, LIMITS, STATUS_CODES, SURFACES, type Lane, type StatusCode, type Surface } from './constants.js';
import { parseRfc3339 } from './clock.js';
import { isValidHexId } from './ids.js';
import { AttributeCollector, isValidAttributeKey, normalizeAttributeValue, truncateUtf8 } from './limits.js';
import type { FinishedSpan, SpanEventRecord, SpanSnapshot } from './types.js';

/**
 * JSON of a snapshot, at most 64 KiB of UTF-8: events are dropped from the end first, then attributes.
 * The snapshot is trimmed in place so the cached object and its encoding agree.
 */
export function encodeBounded(snap: SpanSnapshot): string {
  let json = JSON.stringify(snap);
  while (json.length * 3 > LIMITS.spanBytes && Buffer.byteLength(json) > LIMITS.spanBytes) {
    if (snap.events.length > 0) snap.events.pop();
    else if (snap.attributes.length > 0) snap.attributes.pop();
    else break;
    json = JSON.stringify(snap);
  }
  return json;
}

/** A span held as its snapshot (received from the browser, or stored by the collector). */
export class RecordedSpan implements FinishedSpan {
  constructor(
    private readonly snap: SpanSnapshot,
    private encoded: string | null = null,
  ) {}
  get traceId(): string {
    return this.snap.traceId;
  }
  get spanId(): string {
    return this.snap.spanId;
  }
  get name(): string {
    return this.snap.name;
  }
  snapshot(): SpanSnapshot {
    return this.snap;
  }
  json(): string {
    return (this.encoded ??= encodeBounded(this.snap));
  }
  toJSON(): SpanSnapshot {
    return this.snap;
  }
}

/** A rejected snapshot: `path` names the offending field, e.g. `spans[2].traceId`. */
export class SnapshotError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'SnapshotError';
  }
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function onlyFields(obj: Json, allowed: ReadonlySet<string>, path: string): void {
  for (const k in obj) {
    if (!allowed.has(k)) throw new SnapshotError(`${path}.${k}`, 'unknown field');
  }
}

const ATTRIBUTE_FIELDS = new Set(['key', 'value']);
const EVENT_FIELDS = new Set(['time', 'level', 'message', 'attributes']);
const SOURCE_FIELDS = new Set(['file', 'line', 'column', 'ownerKind', 'ownerId']);
const STATUS_FIELDS = new Set(['code', 'message']);

function str(obj: Json, key: string, path: string, required: boolean): string {
  const v = obj[key];
  if (v === undefined && !required) return '';
  if (typeof v !== 'string')
    throw new SnapshotError(
      `${path}.${key}`,
      required && v === undefined ? 'required string is missing' : 'must be a string',
    );
  return v;
}

function nonNegativeInt(obj: Json, key: string, path: string): number {
  const v = obj[key];
  if (v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new SnapshotError(`${path}.${key}`, 'must be a non-negative integer');
  return v;
}

function oneOf<T extends string>(obj: Json, key: string, path: string, allowed: readonly T[], fallback: T): T {
  const v = obj[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new SnapshotError(`${path}.${key}`, `must be one of ${allowed.join(', ')}`);
  }
  return v as T;
}

function time(obj: Json, key: string, path: string): [number, number] {
  const v = str(obj, key, path, true);
  const t = parseRfc3339(v);
  if (t === null) throw new SnapshotError(`${path}.${key}`, 'must be an RFC 3339 timestamp');
  return t;
}

function attributes(value: unknown, path: string): SpanSnapshot['attributes'] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new SnapshotError(path, 'must be an array of {key, value}');
  const out = new AttributeCollector();
  value.forEach((a, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(a)) throw new SnapshotError(p, 'must be an object {key, value}');
    onlyFields(a, ATTRIBUTE_FIELDS, p);
    if (!isValidAttributeKey(a.key))
      throw new SnapshotError(`${p}.key`, `must be a non-empty string of at most ${LIMITS.attributeKeyBytes} bytes`);
    const v = normalizeAttributeValue(a.value);
    if (v === undefined)
      throw new SnapshotError(`${p}.value`, 'must be a string, boolean, finite number or an array of one of those');
    out.addNormalized(a.key, v);
  });
  return out.list;
}

function events(value: unknown, path: string): SpanEventRecord[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new SnapshotError(path, 'must be an array');
  const out: SpanEventRecord[] = [];
  value.forEach((e, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(e)) throw new SnapshotError(p, 'must be an object');
    onlyFields(e, EVENT_FIELDS, p);
    time(e, 'time', p);
    const message = str(e, 'message', p, true);
    if (out.length < LIMITS.events && message !== '') {
      out.push({
        time: e.time as string,
        level: truncateUtf8(str(e, 'level', p, false) || 'info', LIMITS.eventLevelBytes),
        message: truncateUtf8(message, LIMITS.eventMessageBytes),
        attributes: attributes(e.attributes, `${p}.attributes`),
      });
    }
  });
  return out;
}

const SPAN_FIELDS: ReadonlySet<string> = new Set([
  'traceId',
  'spanId',
  'parentSpanId',
  'name',
  'surface',
  'lane',
  'source',
  'attributes',
  'events',
  'status',
  'startTime',
  'endTime',
  'durationNs',
]);

/**
 * Validates one snapshot received from outside and returns it normalised (limits applied, defaults filled).
 * Unknown fields, malformed IDs, unknown surface/lane/status values and bad timestamps are errors.
 */
export function parseSnapshot(value: unknown, path: string): SpanSnapshot {
  if (!isObject(value)) throw new SnapshotError(path, 'must be a span object');
  onlyFields(value, SPAN_FIELDS, path);
  if (!isValidHexId(value.traceId, 32))
    throw new SnapshotError(`${path}.traceId`, 'must be 32 lowercase hex digits, not all zero');
  if (!isValidHexId(value.spanId, 16))
    throw new SnapshotError(`${path}.spanId`, 'must be 16 lowercase hex digits, not all zero');
  const parent = value.parentSpanId;
  if (parent !== undefined && parent !== '' && !isValidHexId(parent, 16)) {
    throw new SnapshotError(`${path}.parentSpanId`, 'must be 16 lowercase hex digits, not all zero, or empty');
  }
  const name = str(value, 'name', path, true);
  const surface: Surface = oneOf(value, 'surface', path, SURFACES, 'frontend');
  const lane: Lane = oneOf(value, 'lane', path, LANES, 'user');
  let source = { file: '', line: 0, column: 0, ownerKind: '', ownerId: '' };
  if (value.source !== undefined) {
    const s = value.source;
    const p = `${path}.source`;
    if (!isObject(s)) throw new SnapshotError(p, 'must be an object');
    onlyFields(s, SOURCE_FIELDS, p);
    source = {
      file: truncateUtf8(str(s, 'file', p, false), LIMITS.sourceFileBytes),
      line: nonNegativeInt(s, 'line', p),
      column: nonNegativeInt(s, 'column', p),
      ownerKind: truncateUtf8(str(s, 'ownerKind', p, false), LIMITS.nameBytes),
      ownerId: truncateUtf8(str(s, 'ownerId', p, false), LIMITS.nameBytes),
    };
  }
  let status: SpanSnapshot['status'] = { code: 'unset', message: '' };
  if (value.status !== undefined) {
    const s = value.status;
    const p = `${path}.status`;
    if (!isObject(s)) throw new SnapshotError(p, 'must be an object {code, message}');
    onlyFields(s, STATUS_FIELDS, p);
    const code: StatusCode = oneOf(s, 'code', p, STATUS_CODES, 'unset');
    status = { code, message: truncateUtf8(str(s, 'message', p, false), LIMITS.statusMessageBytes) };
  }
  const [startMs, startNs] = time(value, 'startTime', path);
  const [endMs, endNs] = time(value, 'endTime', path);
  const spanNs = (endMs - startMs) * 1e6 + (endNs - startNs);
  if (spanNs < 0) throw new SnapshotError(`${path}.endTime`, 'must not be before startTime');
  let durationNs = spanNs;
  if (value.durationNs !== undefined) {
    const d = value.durationNs;
    if (typeof d !== 'number' || !Number.isFinite(d) || d < 0)
      throw new SnapshotError(`${path}.durationNs`, 'must be a non-negative number');
    durationNs = Math.round(d);
  }
  const snap: SpanSnapshot = {
    traceId: value.traceId,
    spanId: value.spanId,
    ...(typeof parent === 'string' && parent !== '' ? { parentSpanId: parent } : {}),
    name: truncateUtf8(name, LIMITS.nameBytes),
    surface,
    lane,
    source,
    attributes: attributes(value.attributes, `${path}.attributes`),
    events: events(value.events, `${path}.events`),
    status,
    startTime: value.startTime as string,
    endTime: value.endTime as string,
    durationNs,
  };
  return snap;
}

/**
 * A snapshot the browser sent (`POST <mount>/browser`): as `parseSnapshot`, and a frontend span. A
 * page may report only what ran in it; a `backend` span with an `http.route` would otherwise count
 * as a request of that route in the figures the viewer, hover and CodeLens read.
 */
export function parseBrowserSnapshot(value: unknown, path: string): SpanSnapshot {
  const snap = parseSnapshot(value, path);
  if (snap.surface !== 'frontend')
    throw new SnapshotError(`${path}.surface`, 'must be "frontend": a browser reports the spans that ran in it');
  return snap;
}
