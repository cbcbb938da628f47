// Per-route figures of the request spans a collector has seen: counts, errors, latency percentiles
// over the recent requests, a latency histogram, the last error, and the slowest requests. The viewer
// and the language server read the same numbers (`GET <mount>/api/routes`).
import {
  AttrEndpointKind,
  AttrEndpointSymbol,
  AttrHTTPRequestMethod,
  AttrHTTPResponseStatusCode,
  AttrHTTPRoute,
  AttrPage,
  SurfaceBackend,
} from './constants.js';
import { RecordingSpan } from './span.js';
import type { FinishedSpan, RequestRef, RouteFigures, RoutesReport, SpanSnapshot } from './types.js';

export type { RouteErrorRef, RequestRef, RouteFigures, RoutesReport } from './types.js';

/** Upper bounds (milliseconds) of the histogram buckets; the last bucket holds everything slower. */
export const LATENCY_BOUNDS_MS = Object.freeze([1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500]);
/** Durations kept per route for the percentiles. */
export const RECENT_PER_ROUTE = 512;
/** Routes tracked at most; requests of further routes are counted in `overflow`. */
export const MAX_ROUTES = 1000;
const SLOWEST = 20;

interface Entry {
  figures: RouteFigures;
  recent: Float64Array;
  next: number;
  filled: number;
}

function snapshotAttr(s: SpanSnapshot, key: string): unknown {
  for (const a of s.attributes) if (a.key === key) return a.value;
  return undefined;
}

/**
 * What the figures read of a span. A span recorded here is read in place (no snapshot is built for
 * the common, successful request); a received one through its snapshot.
 */
interface SpanReader {
  surface: string;
  attr(key: string): unknown;
  error: boolean;
  durationMs: number;
  snapshot(): SpanSnapshot;
}

class LiveReader implements SpanReader {
  constructor(private readonly span: RecordingSpan) {}
  get surface(): string {
    return this.span._surface();
  }
  attr(key: string): unknown {
    return this.span._attr(key);
  }
  get error(): boolean {
    return this.span.statusCode() === 'error';
  }
  get durationMs(): number {
    return this.span._durationMs();
  }
  snapshot(): SpanSnapshot {
    return this.span.snapshot();
  }
}

class SnapshotReader implements SpanReader {
  constructor(private readonly snap: SpanSnapshot) {}
  get surface(): string {
    return this.snap.surface;
  }
  attr(key: string): unknown {
    return snapshotAttr(this.snap, key);
  }
  get error(): boolean {
    return this.snap.status.code === 'error';
  }
  get durationMs(): number {
    return this.snap.durationNs / 1e6;
  }
  snapshot(): SpanSnapshot {
    return this.snap;
  }
}

function percentile(sorted: Float64Array, n: number, p: number): number {
  if (n === 0) return 0;
  const i = Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1));
  return round(sorted[i]!);
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function errorMessage(s: SpanSnapshot): string {
  for (const e of s.events) {
    if (e.message !== 'exception') continue;
    const m = e.attributes.find((a) => a.key === 'exception.message')?.value;
    const t = e.attributes.find((a) => a.key === 'exception.type')?.value;
    if (typeof m === 'string') return typeof t === 'string' && t !== '' ? `${t}: ${m}` : m;
  }
  return s.status.message;
}

export class RouteStats {
  private readonly routes = new Map<string, Entry>();
  private slowest: RequestRef[] = [];
  private overflow = 0;

  /** Counts a span when it is a server request span of a matched route; other spans are ignored. */
  add(span: FinishedSpan): void {
    const s: SpanReader = span instanceof RecordingSpan ? new LiveReader(span) : new SnapshotReader(span.snapshot());
    if (s.surface !== SurfaceBackend) return;
    const route = s.attr(AttrHTTPRoute);
    const method = s.attr(AttrHTTPRequestMethod);
    if (typeof route !== 'string' || typeof method !== 'string') return;
    const key = `${method} ${route}`;
    let e = this.routes.get(key);
    if (e === undefined) {
      if (this.routes.size >= MAX_ROUTES) {
        this.overflow++;
        return;
      }
      e = this.newEntry(key, method, route, s);
      this.routes.set(key, e);
    }
    const f = e.figures;
    const ms = s.durationMs;
    const status = s.attr(AttrHTTPResponseStatusCode);
    const code = typeof status === 'number' ? status : 0;
    const error = s.error;
    f.count++;
    if (error) {
      f.errors++;
      const snap = s.snapshot();
      f.lastError = {
        message: errorMessage(snap),
        status: code,
        traceId: snap.traceId,
        spanId: snap.spanId,
        time: snap.endTime,
      };
    } else if (code >= 400 && code < 500) f.clientErrors++;
    if (ms > f.maxMs) f.maxMs = round(ms);
    let b = 0;
    while (b < LATENCY_BOUNDS_MS.length && ms > LATENCY_BOUNDS_MS[b]!) b++;
    f.histogram[b]!++;
    f.lastTraceId = span.traceId;
    e.recent[e.next] = ms;
    e.next = (e.next + 1) % RECENT_PER_ROUTE;
    if (e.filled < RECENT_PER_ROUTE) e.filled++;
    const last = this.slowest[this.slowest.length - 1];
    if (this.slowest.length < SLOWEST || (last !== undefined && ms > last.durationMs)) {
      const snap = s.snapshot();
      this.slowest.push({
        name: snap.name,
        status: code,
        durationMs: round(ms),
        traceId: snap.traceId,
        spanId: snap.spanId,
        time: snap.endTime,
        error,
      });
      this.slowest.sort((x, y) => y.durationMs - x.durationMs);
      if (this.slowest.length > SLOWEST) this.slowest.pop();
    }
  }

  private newEntry(key: string, method: string, route: string, s: SpanReader): Entry {
    const kind = s.attr(AttrEndpointKind);
    const page = s.attr(AttrPage);
    const symbol = s.attr(AttrEndpointSymbol);
    const src = s.snapshot().source;
    return {
      figures: {
        key,
        method,
        route,
        kind: typeof kind === 'string' ? kind : 'page',
        page: typeof page === 'string' ? page : '',
        symbol: typeof symbol === 'string' ? symbol : '',
        source: { file: src.file, line: src.line, column: src.column },
        count: 0,
        errors: 0,
        clientErrors: 0,
        p50Ms: 0,
        p95Ms: 0,
        p99Ms: 0,
        maxMs: 0,
        histogram: new Array<number>(LATENCY_BOUNDS_MS.length + 1).fill(0),
        lastTraceId: '',
      },
      recent: new Float64Array(RECENT_PER_ROUTE),
      next: 0,
      filled: 0,
    };
  }

  report(sourceRoot: string): RoutesReport {
    const routes: RouteFigures[] = [];
    for (const e of this.routes.values()) {
      const sorted = e.recent.slice(0, e.filled).sort();
      const f = e.figures;
      f.p50Ms = percentile(sorted, e.filled, 50);
      f.p95Ms = percentile(sorted, e.filled, 95);
      f.p99Ms = percentile(sorted, e.filled, 99);
      routes.push({ ...f, histogram: [...f.histogram], ...(f.lastError ? { lastError: { ...f.lastError } } : {}) });
    }
    routes.sort((a, b) => (a.route < b.route ? -1 : a.route > b.route ? 1 : a.method < b.method ? -1 : 1));
    return {
      version: 1,
      sourceRoot,
      bounds: LATENCY_BOUNDS_MS,
      routes,
      slowest: this.slowest.map((r) => ({ ...r })),
      overflow: this.overflow,
    };
  }

  clear(): void {
    this.routes.clear();
    this.slowest = [];
    this.overflow = 0;
  }
}
