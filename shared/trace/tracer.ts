// The tracer: starts spans (sampling, IDs, parent from context) and hands ended spans to its export queue,
// so `span.end()` costs a few stores and never waits for a sink.
import { now, fromEpochMs } from './clock.js';
import { LANES, SURFACES, type Lane, type Surface } from './constants.js';
import { type Context, IdentityContext, type SpanIdentity, type StartResult } from './context.js';
import { ExportQueue } from './export-queue.js';
import { hex128, idGenerationFailures, idPool, takeIdWords } from './ids.js';
import { OPT_LANE, OPT_SOURCE, OPT_START_TIME, OPT_SURFACE, SpanOption, type StartOption } from './options.js';
import { SAMPLER_ALWAYS_OFF, SAMPLER_ALWAYS_ON, type Sampler, type SamplingParameters } from './sampler.js';
import { KIND_DEFAULT, RecordingSpan, type SourceValue, type SpanOwner } from './span.js';
import {
  DEFAULT_EXPORT_QUEUE_SIZE,
  DEFAULT_EXPORT_TIMEOUT_MS,
  TracerOption,
  withSampler,
  type TracerConfig,
} from './tracer-options.js';
import type { Attributes } from './types.js';

/** Counters of a tracer (the collector's health snapshot). Latencies are per drained batch. */
export interface TracerHealth {
  sampler: string;
  samplingRatio?: number;
  sampledSpans: number;
  exportedSpans: number;
  exportFailures: number;
  exportTimeouts: number;
  exportDroppedSpans: number;
  exportQueueDepth: number;
  exportQueueCapacity: number;
  exportInFlight: number;
  lastExportLatencyNs: number;
  maxExportLatencyNs: number;
  idGenerationFailures: number;
}

/** The reused sampler input; `traceId` is formatted only if a sampler reads it. */
class SamplingInput implements SamplingParameters {
  private t0 = 0;
  private t1 = 0;
  private t2 = 0;
  private t3 = 0;
  parent: SpanIdentity | null = null;
  name = '';
  surface: Surface = 'backend';
  lane: Lane = 'user';
  attributes: Attributes | null = null;
  set(
    t0: number,
    t1: number,
    t2: number,
    t3: number,
    parent: SpanIdentity | null,
    name: string,
    surface: Surface,
    lane: Lane,
    attributes: Attributes | null,
  ): void {
    this.t0 = t0;
    this.t1 = t1;
    this.t2 = t2;
    this.t3 = t3;
    this.parent = parent;
    this.name = name;
    this.surface = surface;
    this.lane = lane;
    this.attributes = attributes;
  }
  get traceId(): string {
    return hex128(this.t0, this.t1, this.t2, this.t3);
  }
  get traceIdHigh(): number {
    return this.t0 >>> 0;
  }
  get traceIdLow(): number {
    return this.t1 >>> 0;
  }
}

export class Tracer implements SpanOwner {
  /** @internal */
  readonly _sourceRoot: string;
  private readonly sampler: Sampler;
  private readonly off: boolean;
  private readonly on: boolean;
  private readonly params = new SamplingInput();
  private readonly exports: ExportQueue | null;
  private readonly queueSize: number;
  private sampledSpans = 0;

  /** @internal Use `newTracer`. */
  constructor(config: TracerConfig) {
    this.sampler = config.sampler;
    this.off = config.sampler === SAMPLER_ALWAYS_OFF;
    this.on = config.sampler === SAMPLER_ALWAYS_ON;
    this._sourceRoot = config.sourceRoot;
    this.queueSize = config.queueSize;
    this.exports =
      config.sink === null ? null : new ExportQueue(config.sink, config.queueSize, config.timeoutMs, config.onError);
  }

  /**
   * Starts a span as a child of the span or remote parent in `ctx` and returns the child context and the
   * span. An unsampled span is the shared no-op span; with `alwaysOff()` the returned pair is preallocated
   * per context, so the call allocates nothing.
   */
  start(ctx: Context, name: string, ...options: StartOption[]): StartResult;
  start(
    ctx: Context,
    name: string,
    o1?: StartOption,
    o2?: StartOption,
    o3?: StartOption,
    o4?: StartOption,
  ): StartResult {
    // Kept tiny so V8 inlines it into the caller, where the returned pair is usually never allocated
    // (escape analysis). Options are fixed parameters because a rest parameter allocates per call.
    if (this.off) return ctx._noopPair();
    const n = arguments.length;
    const c = this.begin(ctx, name, n - 2, o1, o2, o3, o4, n > 6 ? Array.prototype.slice.call(arguments, 6) : null);
    return c instanceof RecordingSpan ? [c, c] : c._noopPair();
  }

  /** Returns the new span, or the context to pair with the no-op span when nothing is recorded. */
  private begin(
    ctx: Context,
    name: string,
    count: number,
    o1: StartOption | undefined,
    o2: StartOption | undefined,
    o3: StartOption | undefined,
    o4: StartOption | undefined,
    rest: StartOption[] | null,
  ): Context {
    let kind = KIND_DEFAULT;
    let attrs: Attributes | null = null;
    let more: Attributes[] | null = null;
    let source: SourceValue | null = null;
    let start = NaN;
    for (let i = 0; i < count; i++) {
      const o: unknown = i === 0 ? o1 : i === 1 ? o2 : i === 2 ? o3 : i === 3 ? o4 : rest![i - 4];
      if (o instanceof SpanOption) {
        switch (o.kind) {
          case OPT_SURFACE:
            kind = (kind & ~3) | (o.value as number);
            break;
          case OPT_LANE:
            kind = (kind & ~(15 << 2)) | ((o.value as number) << 2);
            break;
          case OPT_SOURCE:
            source = o.value as SourceValue;
            break;
          case OPT_START_TIME:
            start = fromEpochMs(o.value as number);
            break;
        }
      } else if (o !== null && typeof o === 'object' && !Array.isArray(o)) {
        if (attrs === null) attrs = o as Attributes;
        else (more ??= []).push(o as Attributes);
      }
    }
    const parent = ctx._identity();
    let t0: number, t1: number, t2: number, t3: number;
    if (parent === null) {
      let at: number;
      do {
        at = takeIdWords(4);
        if (at < 0) return ctx; // no entropy: record nothing rather than use a predictable ID
      } while ((idPool[at]! | idPool[at + 1]! | idPool[at + 2]! | idPool[at + 3]!) === 0); // all-zero IDs are invalid
      t0 = idPool[at]!;
      t1 = idPool[at + 1]!;
      t2 = idPool[at + 2]!;
      t3 = idPool[at + 3]!;
    } else {
      t0 = parent._t0;
      t1 = parent._t1;
      t2 = parent._t2;
      t3 = parent._t3;
    }
    let at: number;
    do {
      at = takeIdWords(2);
      if (at < 0) return ctx;
    } while ((idPool[at]! | idPool[at + 1]!) === 0);
    const s0 = idPool[at]!;
    const s1 = idPool[at + 1]!;
    if (!this.on) {
      const p = this.params;
      p.set(t0, t1, t2, t3, parent, name, SURFACES[kind & 3]!, LANES[(kind >> 2) & 15]!, attrs);
      const keep = this.sampler.shouldSample(p);
      p.parent = null;
      p.attributes = null;
      if (!keep) {
        // Descendants of an unsampled span are dropped too: the context carries the trace with sampled=0.
        if (parent !== null && !parent.sampled) return ctx;
        return new IdentityContext(
          ctx,
          t0,
          t1,
          t2,
          t3,
          s0,
          s1,
          false,
          parent === null ? '' : parent.traceState,
          false,
          '',
        );
      }
    }
    const span = new RecordingSpan(
      ctx,
      this,
      t0,
      t1,
      t2,
      t3,
      s0,
      s1,
      typeof name === 'string' ? name : String(name),
      kind,
      start === start ? start : now(),
      attrs,
    );
    if (source !== null) span._setSource(source);
    if (more !== null) {
      for (const m of more) {
        if (m instanceof Map) for (const [k, v] of m) span.set(k, v);
        else for (const k of Object.keys(m)) span.set(k, (m as Record<string, unknown>)[k]);
      }
    }
    this.sampledSpans++;
    return span;
  }

  /** @internal Called by `span.end()`; without a sink the span is discarded. */
  _enqueue(span: RecordingSpan): void {
    if (this.exports !== null) this.exports.push(span);
  }

  /** Resolves once every span ended before the call has been handed to the sink (and the sink flushed). */
  flush(): Promise<void> {
    return this.exports === null ? Promise.resolve() : this.exports.flush();
  }

  /** Flushes, then shuts the sink down (for sinks that hold connections or timers). */
  async shutdown(): Promise<void> {
    await this.flush();
    await this.exports?.shutdownSink();
  }

  health(): TracerHealth {
    const q = this.exports;
    return {
      sampler: this.sampler.name,
      ...(this.sampler.ratio !== undefined ? { samplingRatio: this.sampler.ratio } : {}),
      sampledSpans: this.sampledSpans,
      exportedSpans: q === null ? 0 : q.exported,
      exportFailures: q === null ? 0 : q.failures,
      exportTimeouts: q === null ? 0 : q.timeouts,
      exportDroppedSpans: q === null ? 0 : q.dropped,
      exportQueueDepth: q === null ? 0 : q.depth,
      exportQueueCapacity: this.queueSize,
      exportInFlight: q === null ? 0 : q.inFlight,
      lastExportLatencyNs: q === null ? 0 : q.lastLatencyNs,
      maxExportLatencyNs: q === null ? 0 : q.maxLatencyNs,
      idGenerationFailures: idGenerationFailures(),
    };
  }
}

/** Creates a tracer: `newTracer(withSink(sink), withSampler(ratioSampler(0.1)))`. Defaults: no sink, `alwaysOn()`. */
export function newTracer(...options: TracerOption[]): Tracer {
  const config: TracerConfig = {
    sink: null,
    sampler: SAMPLER_ALWAYS_ON,
    queueSize: DEFAULT_EXPORT_QUEUE_SIZE,
    timeoutMs: DEFAULT_EXPORT_TIMEOUT_MS,
    sourceRoot: process.cwd(),
    onError: null,
  };
  options.forEach((o, i) => {
    if (!(o instanceof TracerOption))
      throw new TypeError(`newTracer: option ${i + 1} is not a tracer option (use withSink, withSampler, ...)`);
    o._apply(config);
  });
  return new Tracer(config);
}

let defaultTracer: Tracer = newTracer(withSampler(SAMPLER_ALWAYS_OFF));

/** Sets the tracer `startSpan` uses when the context holds no span of a tracer. */
export function setDefaultTracer(tracer: Tracer): void {
  if (!(tracer instanceof Tracer)) throw new TypeError('setDefaultTracer: expected a tracer from newTracer');
  defaultTracer = tracer;
}

/** The tracer `startSpan` falls back to (an `alwaysOff` tracer until `setDefaultTracer`). */
export function getDefaultTracer(): Tracer {
  return defaultTracer;
}

/**
 * Starts a span with the tracer of the span active in `ctx` (so library code needs no tracer handle),
 * or with the default tracer.
 */
export function startSpan(ctx: Context, name: string, ...options: StartOption[]): StartResult {
  const id = ctx._identity();
  const tracer = id instanceof RecordingSpan && id._owner instanceof Tracer ? id._owner : defaultTracer;
  return tracer.start(ctx, name, ...options);
}
