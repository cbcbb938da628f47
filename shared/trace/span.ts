// The recording span, kept lean because it is the per-span cost: IDs are 32-bit words (hex is made on
// demand), surface/lane/status share one small integer, attributes given at start are the caller's own
// object (a `set` turns them into a flat [object, key, value, ...] array), and events, source, status
// message and the cached snapshot live in a side object allocated only when used. The span is also the
// context of its children, so starting a child allocates no separate context object.
import { isAbsolute, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANES, LIMITS, STATUS_CODES, SURFACES, type StatusCode } from './constants.js';
import { now, rfc3339Nano } from './clock.js';
import { Context, NOOP_SPAN, noopPair, type SpanIdentity, type StartResult } from './context.js';
import { hex128, hex64 } from './ids.js';
import { AttributeCollector, truncateUtf8 } from './limits.js';
import { encodeBounded } from './snapshot.js';
import type { Attributes, FinishedSpan, Span, SpanEventRecord, SpanSnapshot } from './types.js';

/** @internal What a span needs from the tracer that created it. */
export interface SpanOwner {
  _enqueue(span: RecordingSpan): void;
  /** Directory that absolute source paths are made relative to; '' keeps them absolute. */
  readonly _sourceRoot: string;
}

/** @internal A normalised `withSource` value. */
export interface SourceValue {
  file: string;
  line: number;
  column: number;
  ownerKind: string;
  ownerId: string;
}

interface EventEntry {
  time: number;
  level: string;
  message: string;
  attributes: Attributes | null;
}

interface SpanExtra {
  events: EventEntry[] | null;
  droppedEvents: number;
  source: SourceValue | null;
  statusMessage: string;
  pair: StartResult | null;
  snap: SpanSnapshot | null;
  json: string | null;
}

const STATUS_INDEX: Readonly<Record<string, number>> = { unset: 0, ok: 1, error: 2 };
const EMPTY_SOURCE: Readonly<SourceValue> = Object.freeze({ file: '', line: 0, column: 0, ownerKind: '', ownerId: '' });

/** @internal `_kind` bits: surface index (0–1), lane index (2–5), status index (6–7). */
export const KIND_DEFAULT = 0 | (11 << 2); // backend, user, unset
const STATUS_SHIFT = 6;

export class RecordingSpan extends Context implements Span, SpanIdentity, FinishedSpan {
  readonly _up: Context;
  readonly _owner: SpanOwner;
  readonly _t0: number;
  readonly _t1: number;
  readonly _t2: number;
  readonly _t3: number;
  readonly _s0: number;
  readonly _s1: number;
  readonly name: string;
  _kind: number;
  _start: number;
  _end: number;
  _attrs: Attributes | unknown[] | null;
  _extra: SpanExtra | null;

  constructor(
    up: Context,
    owner: SpanOwner,
    t0: number,
    t1: number,
    t2: number,
    t3: number,
    s0: number,
    s1: number,
    name: string,
    kind: number,
    start: number,
    attrs: Attributes | null,
  ) {
    super();
    this._up = up;
    this._owner = owner;
    this._t0 = t0;
    this._t1 = t1;
    this._t2 = t2;
    this._t3 = t3;
    this._s0 = s0;
    this._s1 = s1;
    this.name = name;
    this._kind = kind;
    this._start = start;
    this._end = NaN; // NaN while open; a double from the start so the field never changes representation
    this._attrs = attrs;
    this._extra = null;
  }

  get traceId(): string {
    // A child's trace is its parent's; an extracted parent has it as text already.
    const parent = this._up._identity();
    return parent === null ? hex128(this._t0, this._t1, this._t2, this._t3) : parent.traceId;
  }
  get spanId(): string {
    return hex64(this._s0, this._s1);
  }
  get sampled(): boolean {
    return true;
  }
  get remote(): boolean {
    return false;
  }
  get traceState(): string {
    const parent = this._up._identity();
    return parent === null ? '' : parent.traceState;
  }
  /** The parent span's ID, or '' for a root span. */
  get parentSpanId(): string {
    const parent = this._up._identity();
    return parent === null ? '' : parent.spanId;
  }

  _identity(): SpanIdentity {
    return this;
  }
  _lookup(key: unknown): unknown {
    return this._up._lookup(key);
  }
  _noopPair(): StartResult {
    const x = this._x();
    return (x.pair = noopPair(this, x.pair));
  }

  /** @internal */
  _x(): SpanExtra {
    return (this._extra ??= {
      events: null,
      droppedEvents: 0,
      source: null,
      statusMessage: '',
      pair: null,
      snap: null,
      json: null,
    });
  }

  isRecording(): boolean {
    return this._end !== this._end;
  }

  end(): void {
    if (this._end === this._end) return;
    this._end = now();
    this._owner._enqueue(this);
  }

  set(key: string, value: unknown): void {
    if (this._end === this._end || typeof key !== 'string' || key === '') return;
    const a = this._attrs;
    if (a === null || !Array.isArray(a)) {
      // [start-time attributes, key, value, ...] with room for four pairs; unused slots hold undefined.
      this._attrs = [a, key, value, undefined, undefined, undefined, undefined, undefined, undefined];
      return;
    }
    let i = 1;
    for (; i < a.length; i += 2) {
      const k = a[i];
      if (k === key) {
        a[i + 1] = value;
        return;
      }
      if (k === undefined) break;
    }
    if (i >= 1 + 2 * LIMITS.attributes) return;
    if (i < a.length) {
      a[i] = key;
      a[i + 1] = value;
    } else {
      a.push(key, value);
    }
  }

  statusCode(): StatusCode {
    return STATUS_CODES[this._kind >> STATUS_SHIFT]!;
  }

  setStatus(status: StatusCode, message?: string): void {
    if (this._end === this._end) return;
    const code = STATUS_INDEX[status];
    if (code === undefined) return;
    this._kind = (this._kind & ((1 << STATUS_SHIFT) - 1)) | (code << STATUS_SHIFT);
    if (message !== undefined || this._extra !== null)
      this._x().statusMessage = typeof message === 'string' ? message : '';
  }

  event(level: string, message: string, attributes?: Attributes): void {
    if (this._end === this._end || typeof message !== 'string' || message === '') return;
    const x = this._x();
    const events = (x.events ??= []);
    if (events.length >= LIMITS.events) {
      x.droppedEvents++;
      return;
    }
    events.push({
      time: now(),
      level: typeof level === 'string' && level !== '' ? level : 'info',
      message,
      attributes: attributes ?? null,
    });
  }

  /**
   * @internal An attribute's current value (the last `set`, else the start attributes), read without
   * building a snapshot: the collector's route figures read request spans this way.
   */
  _attr(key: string): unknown {
    const a = this._attrs;
    if (a === null) return undefined;
    if (Array.isArray(a)) {
      for (let i = 1; i < a.length && a[i] !== undefined; i += 2) if (a[i] === key) return a[i + 1];
      return startAttr(a[0] as Attributes | null, key);
    }
    return startAttr(a as Attributes, key);
  }

  /** @internal Milliseconds between start and end (or now, while open). */
  _durationMs(): number {
    return (this._end === this._end ? this._end : now()) - this._start;
  }

  /** @internal */
  _surface(): string {
    return SURFACES[this._kind & 3]!;
  }

  /** @internal */
  _setSource(source: SourceValue): void {
    this._x().source = source;
  }

  /** The span's JSON record with every limit applied; cached once the span has ended. */
  snapshot(): SpanSnapshot {
    const x = this._extra;
    if (x !== null && x.snap !== null) return x.snap;
    const ended = this._end === this._end;
    const snap = this._build(ended ? this._end : now());
    if (ended) {
      const cache = this._x();
      cache.json = encodeBounded(snap);
      cache.snap = snap;
    }
    return snap;
  }

  json(): string {
    const snap = this.snapshot();
    const x = this._extra;
    return x !== null && x.json !== null ? x.json : encodeBounded(snap);
  }

  toJSON(): SpanSnapshot {
    return this.snapshot();
  }

  private _build(end: number): SpanSnapshot {
    const x = this._extra;
    const attrs = new AttributeCollector();
    const a = this._attrs;
    if (Array.isArray(a)) {
      attrs.addAll(a[0]);
      for (let i = 1; i < a.length && a[i] !== undefined; i += 2) attrs.add(a[i], a[i + 1]);
    } else {
      attrs.addAll(a);
    }
    const events: SpanEventRecord[] = [];
    if (x !== null && x.events !== null) {
      for (const e of x.events) {
        const ea = new AttributeCollector();
        ea.addAll(e.attributes);
        events.push({
          time: rfc3339Nano(e.time),
          level: truncateUtf8(e.level, LIMITS.eventLevelBytes),
          message: truncateUtf8(e.message, LIMITS.eventMessageBytes),
          attributes: ea.list,
        });
      }
    }
    const src = x !== null && x.source !== null ? x.source : EMPTY_SOURCE;
    const parent = this.parentSpanId;
    return {
      traceId: this.traceId,
      spanId: this.spanId,
      ...(parent !== '' ? { parentSpanId: parent } : {}),
      name: truncateUtf8(this.name, LIMITS.nameBytes),
      surface: SURFACES[this._kind & 3]!,
      lane: LANES[(this._kind >> 2) & 15]!,
      source: {
        file: truncateUtf8(sourcePath(src.file, this._owner._sourceRoot), LIMITS.sourceFileBytes),
        line: src.line,
        column: src.column,
        ownerKind: src.ownerKind,
        ownerId: src.ownerId,
      },
      attributes: attrs.list,
      events,
      status: {
        code: STATUS_CODES[this._kind >> STATUS_SHIFT]!,
        message: truncateUtf8(x !== null ? x.statusMessage : '', LIMITS.statusMessageBytes),
      },
      startTime: rfc3339Nano(this._start),
      endTime: rfc3339Nano(end),
      durationNs: Math.max(0, Math.round((end - this._start) * 1e6)),
    };
  }
}

function startAttr(a: Attributes | null, key: string): unknown {
  if (a === null) return undefined;
  if (a instanceof Map) return a.get(key);
  return Object.prototype.hasOwnProperty.call(a, key) ? (a as Record<string, unknown>)[key] : undefined;
}

function sourcePath(file: string, root: string): string {
  let path = file;
  if (path.startsWith('file:')) {
    try {
      path = fileURLToPath(path);
    } catch {
      return file;
    }
  }
  if (root !== '' && isAbsolute(path) && path.startsWith(root + sep))
    return path
      .slice(root.length + 1)
      .split(sep)
      .join('/');
  return path;
}

/** The recording span active in `ctx`, or the shared no-op span. */
export function spanFromContext(ctx: Context): Span {
  const id = ctx._identity();
  return id instanceof RecordingSpan ? id : NOOP_SPAN;
}
