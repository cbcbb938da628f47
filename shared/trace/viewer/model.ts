// What the trace viewer holds: the spans received over server-sent events (at most `MAX_SPANS`, the
// least recently active trace dropped first), grouped into traces, and the questions the views ask
// of them: the filters, a trace's spans as a tree, its root and its status. Spans arrive as the
// collector's JSON; anything that is not a span is ignored.
import type { SpanSnapshot } from '../types.js';
import { parseTime, valueText } from './format.js';

export const MAX_SPANS = 5000;

/** A span as the viewer holds it: its snapshot, its times parsed, and its key (`trace/span`). */
export interface ViewSpan extends SpanSnapshot {
  _start: number;
  _end: number;
  _key: string;
}

export interface Trace {
  id: string;
  spans: ViewSpan[];
  start: number;
  end: number;
  /** When a span last joined it (a counter): the trace least recently joined is dropped first. */
  seen: number;
}

/** The toolbar's filters: text (lower case), lane, surface and status ('' for any). */
export interface Filters {
  q: string;
  lane: string;
  surface: string;
  status: string;
}

export class SpanStore {
  /** By key (`trace/span`). */
  readonly spans = new Map<string, ViewSpan>();
  readonly traces = new Map<string, Trace>();
  /** Spans that ended before the last Clear are not taken again (a reconnect sends them anew). */
  private clearedAt = Number.NEGATIVE_INFINITY;
  private seq = 0;

  add(data: unknown): void {
    const s = data as ViewSpan | null;
    if (!s || typeof s.traceId !== 'string' || typeof s.spanId !== 'string') return;
    const start = parseTime(s.startTime);
    const end = parseTime(s.endTime);
    if (!(end > this.clearedAt)) return;
    const key = `${s.traceId}/${s.spanId}`;
    if (this.spans.has(key)) return;
    s._start = start;
    s._end = end;
    s._key = key;
    this.spans.set(key, s);
    let t = this.traces.get(s.traceId);
    if (!t) {
      t = { id: s.traceId, spans: [], start, end, seen: 0 };
      this.traces.set(s.traceId, t);
    }
    t.spans.push(s);
    if (start < t.start || Number.isNaN(t.start)) t.start = start;
    if (end > t.end || Number.isNaN(t.end)) t.end = end;
    t.seen = ++this.seq;
    while (this.spans.size > MAX_SPANS) this.evictOldestTrace();
  }

  clear(now: number): void {
    this.clearedAt = now;
    this.spans.clear();
    this.traces.clear();
  }

  private evictOldestTrace(): void {
    let oldest: Trace | null = null;
    for (const t of this.traces.values()) if (!oldest || t.seen < oldest.seen) oldest = t;
    if (!oldest) return;
    for (const s of oldest.spans) this.spans.delete(s._key);
    this.traces.delete(oldest.id);
  }
}

export function matches(s: ViewSpan, f: Filters): boolean {
  if (f.lane && s.lane !== f.lane) return false;
  if (f.surface && s.surface !== f.surface) return false;
  if (f.status && s.status?.code !== f.status) return false;
  if (!f.q) return true;
  const hay: unknown[] = [
    s.name,
    s.traceId,
    s.spanId,
    s.parentSpanId || '',
    s.lane,
    s.surface,
    s.status?.message || '',
    s.source?.file || '',
  ];
  for (const a of s.attributes || []) hay.push(a.key, valueText(a.value));
  for (const e of s.events || []) hay.push(e.message, e.level);
  return hay.some((h) => String(h).toLowerCase().includes(f.q));
}

export function traceMatches(t: Trace, f: Filters): boolean {
  return t.spans.some((s) => matches(s, f));
}

/** Spans of a trace in display order with their depth: children under parents, by start time. */
export function tree(t: Trace): { span: ViewSpan; depth: number }[] {
  const byId = new Map<string, ViewSpan>();
  const kids = new Map<string, ViewSpan[]>();
  const roots: ViewSpan[] = [];
  for (const s of t.spans) byId.set(s.spanId, s);
  for (const s of t.spans) {
    const p = s.parentSpanId;
    if (p && byId.has(p) && p !== s.spanId) {
      const list = kids.get(p) ?? [];
      list.push(s);
      kids.set(p, list);
    } else roots.push(s);
  }
  const byStart = (a: ViewSpan, b: ViewSpan) => a._start - b._start || b._end - a._end;
  const out: { span: ViewSpan; depth: number }[] = [];
  const seen = new Set<string>();
  const walk = (s: ViewSpan, depth: number): void => {
    if (seen.has(s._key)) return;
    seen.add(s._key);
    out.push({ span: s, depth });
    for (const c of (kids.get(s.spanId) ?? []).sort(byStart)) walk(c, depth + 1);
  };
  for (const r of roots.sort(byStart)) walk(r, 0);
  return out;
}

export function rootOf(t: Trace): ViewSpan | null {
  const ordered = tree(t);
  return ordered.length ? ordered[0].span : null;
}

/** `error` when any span failed, else the root's status. */
export function traceStatus(t: Trace): string {
  if (t.spans.some((s) => s.status?.code === 'error')) return 'error';
  const r = rootOf(t);
  return r?.status ? r.status.code : 'unset';
}

export function attrOf(s: ViewSpan, key: string): unknown {
  return (s.attributes || []).find((a) => a.key === key)?.value;
}
