// The trace viewer's views, built from the model each time it renders: the trace list, a trace's
// waterfall, the per-route figures and the slowest requests (from the collector's route report),
// and a span's details. Every value from a span reaches the page as text.
import type { Attribute, RoutesReport } from '../types.js';
import { el, onPick } from './dom.js';
import { editorHref } from './editor-links.js';
import { fmtClock, fmtDur, parseTime, valueText } from './format.js';
import {
  attrOf,
  type Filters,
  matches,
  rootOf,
  type SpanStore,
  type Trace,
  traceMatches,
  traceStatus,
  tree,
  type ViewSpan,
} from './model.js';

export type ViewName = 'traces' | 'routes' | 'slowest';

/** What the user selected and looks at. */
export interface ViewState {
  view: ViewName;
  selectedTrace: string;
  /** The selected span's key. */
  selectedSpan: string;
  /** The collector's last route report, for the routes and slowest views. */
  routes: RoutesReport | null;
}

/** What a click in a view does (the page script re-renders). */
export interface ViewActions {
  pickTrace(traceId: string, spanKey: string): void;
  pickSpan(spanKey: string): void;
  /** Opens a trace in the traces view (from the slowest requests). */
  showTrace(traceId: string): void;
}

const UNNAMED = '(unnamed span)';

/** Method, route, status code, duration and an error marker of a request's root span. */
function requestLine(root: ViewSpan, failed: boolean): HTMLElement {
  const line = el('div', 'req');
  line.setAttribute('data-testid', 'trace-request');
  const method = attrOf(root, 'http.request.method');
  let route = attrOf(root, 'http.route');
  if (route === undefined) route = attrOf(root, 'url.path');
  const code = attrOf(root, 'http.response.status_code');
  if (method !== undefined) line.appendChild(el('span', 'method', method));
  if (route !== undefined) line.appendChild(el('span', 'route', route));
  if (code !== undefined) line.appendChild(el('span', `code c${String(code).charAt(0)}`, code));
  line.appendChild(el('span', 'dur', fmtDur(root.durationNs / 1e6)));
  if (failed) {
    const mark = el('span', 'errmark', '\u25cf error');
    mark.setAttribute('data-testid', 'error-marker');
    line.appendChild(mark);
  }
  return line;
}

export function renderTraceList(
  list: HTMLElement,
  store: SpanStore,
  state: ViewState,
  f: Filters,
  actions: ViewActions,
): void {
  const shown = [...store.traces.values()].filter((t) => traceMatches(t, f));
  shown.sort((a, b) => b.start - a.start);
  list.replaceChildren();
  if (shown.length === 0)
    list.appendChild(
      el('div', 'empty', store.traces.size ? 'No trace matches the filters.' : 'Waiting for spans\u2026'),
    );
  for (const t of shown) {
    const root = rootOf(t);
    const b = el('button', `trace${t.id === state.selectedTrace ? ' selected' : ''}`);
    b.type = 'button';
    b.setAttribute('data-testid', 'trace-row');
    b.setAttribute('data-trace-id', t.id);
    const title = el('div', 'title');
    title.appendChild(el('span', `status ${traceStatus(t)}`));
    title.appendChild(el('span', 'name', root?.name ? root.name : UNNAMED));
    b.appendChild(title);
    if (root) b.appendChild(requestLine(root, traceStatus(t) === 'error'));
    const sub = el('div', 'sub');
    if (root) {
      sub.appendChild(el('span', `badge ${root.surface}`, root.surface));
      sub.appendChild(el('span', 'badge', root.lane));
    }
    sub.appendChild(el('span', '', t.spans.length + (t.spans.length === 1 ? ' span' : ' spans')));
    sub.appendChild(el('span', '', fmtDur(t.end - t.start)));
    sub.appendChild(el('span', '', Number.isNaN(t.start) ? '' : fmtClock(t.start)));
    b.appendChild(sub);
    onPick(b, () => actions.pickTrace(t.id, root ? root._key : ''));
    list.appendChild(b);
  }
}

function waterfallHead(t: Trace, total: number): HTMLElement {
  const head = el('div', 'wf-head');
  const root = rootOf(t);
  head.appendChild(el('h2', '', root?.name ? root.name : UNNAMED));
  const sep = ' \u00b7 ';
  head.appendChild(el('div', 'meta', `trace ${t.id}${sep}${t.spans.length} spans${sep}${fmtDur(total)}`));
  const axis = el('div', 'axis');
  axis.appendChild(el('span', '', 'span'));
  const ticks = el('div', 'ticks');
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    const s = el('span', '', fmtDur(total * p));
    s.style.left = `${p * 100}%`;
    ticks.appendChild(s);
  }
  axis.appendChild(ticks);
  head.appendChild(axis);
  return head;
}

/** One span's row: its name indented by depth, and its bar on the trace's time axis. */
function spanRow(t: Trace, total: number, item: { span: ViewSpan; depth: number }, selected: boolean, dim: boolean) {
  const s = item.span;
  const row = el('div', `row${selected ? ' selected' : ''}${dim ? ' dim' : ''}`);
  row.setAttribute('data-testid', 'span-row');
  row.setAttribute('data-span-id', s.spanId);
  row.setAttribute('data-depth', String(item.depth));
  row.tabIndex = 0;
  const label = el('div', 'label');
  label.style.paddingLeft = `${item.depth * 14}px`;
  if (item.depth > 0) label.appendChild(el('span', 'twig', '\u2514'));
  label.appendChild(el('span', `status ${s.status ? s.status.code : 'unset'}`));
  label.appendChild(el('span', 'name', s.name || UNNAMED));
  label.appendChild(el('span', 'badge', s.lane));
  row.appendChild(label);
  const track = el('div', 'track');
  const left = Math.max(0, Math.min(100, ((s._start - t.start) / total) * 100));
  const width = Math.max(0, Math.min(100 - left, ((s._end - s._start) / total) * 100));
  const failed = s.status && s.status.code === 'error' ? ' error' : '';
  const bar = el('div', `bar ${s.surface} lane-${s.lane}${failed}`);
  bar.setAttribute('data-testid', 'span-bar');
  bar.style.left = `${left}%`;
  bar.style.width = `${width}%`;
  track.appendChild(bar);
  const dur = el('span', 'dur', fmtDur(s.durationNs / 1e6));
  if (width > 25) {
    dur.className = 'dur inside';
    dur.style.right = `${100 - left - width}%`;
    dur.style.paddingRight = '5px';
  } else if (left + width > 80) {
    dur.style.right = `${100 - left}%`;
    dur.style.paddingRight = '4px';
  } else {
    dur.style.left = `${left + width}%`;
    dur.style.paddingLeft = '4px';
  }
  track.appendChild(dur);
  row.appendChild(track);
  return row;
}

export function renderWaterfall(
  box: HTMLElement,
  store: SpanStore,
  state: ViewState,
  f: Filters,
  actions: ViewActions,
): void {
  box.replaceChildren();
  const t = store.traces.get(state.selectedTrace);
  if (!t) {
    box.appendChild(el('div', 'empty', 'Select a trace to see its waterfall.'));
    return;
  }
  const total = Math.max(t.end - t.start, 1e-6);
  box.appendChild(waterfallHead(t, total));
  for (const item of tree(t)) {
    const s = item.span;
    const row = spanRow(t, total, item, s._key === state.selectedSpan, !matches(s, f));
    const pick = () => actions.pickSpan(s._key);
    onPick(row, pick);
    row.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        pick();
      }
    });
    box.appendChild(row);
  }
}

function histogram(counts: readonly number[], bounds: readonly number[]): HTMLElement {
  const box = el('span', 'hist');
  box.setAttribute('data-testid', 'route-histogram');
  const max = Math.max(0, ...counts);
  counts.forEach((c, i) => {
    const b = el('span');
    b.style.height = `${max ? Math.max(1, Math.round((c / max) * 18)) : 1}px`;
    b.title = `${i < bounds.length ? `\u2264 ${bounds[i]} ms` : `> ${bounds[bounds.length - 1]} ms`}: ${c}`;
    box.appendChild(b);
  });
  return box;
}

export function renderRoutes(box: HTMLElement, routes: RoutesReport | null): void {
  box.appendChild(el('div', 'wf-head')).appendChild(el('h2', '', 'Routes'));
  if (!routes || !routes.routes.length) {
    box.appendChild(el('div', 'empty', 'No requests yet.'));
    return;
  }
  const table = el('table', 'routes');
  const head = el('tr');
  ['route', 'kind', 'requests', 'errors', 'p50', 'p95', 'p99', 'latency'].forEach((h, i) => {
    head.appendChild(el('th', i >= 2 && i <= 6 ? 'num' : '', h));
  });
  table.appendChild(head);
  for (const r of routes.routes) {
    const tr = el('tr', r.errors ? 'err' : '');
    tr.setAttribute('data-testid', 'route-row');
    tr.appendChild(el('td', '', r.key));
    tr.appendChild(el('td', '', r.kind));
    tr.appendChild(el('td', 'num', r.count));
    tr.appendChild(el('td', 'num errors', r.errors));
    tr.appendChild(el('td', 'num', fmtDur(r.p50Ms)));
    tr.appendChild(el('td', 'num', fmtDur(r.p95Ms)));
    tr.appendChild(el('td', 'num', fmtDur(r.p99Ms)));
    const cell = el('td');
    cell.appendChild(histogram(r.histogram || [], routes.bounds || []));
    tr.appendChild(cell);
    table.appendChild(tr);
  }
  box.appendChild(table);
}

export function renderSlowest(box: HTMLElement, routes: RoutesReport | null, actions: ViewActions): void {
  box.appendChild(el('div', 'wf-head')).appendChild(el('h2', '', 'Slowest requests'));
  const list = routes ? routes.slowest : [];
  if (!list.length) {
    box.appendChild(el('div', 'empty', 'No requests yet.'));
    return;
  }
  const table = el('table', 'routes');
  for (const r of list) {
    const tr = el('tr', r.error ? 'err' : '');
    tr.setAttribute('data-testid', 'slow-row');
    tr.appendChild(el('td', 'num', fmtDur(r.durationMs)));
    tr.appendChild(el('td', '', r.name));
    tr.appendChild(el('td', 'num errors', r.status || ''));
    const at = parseTime(r.time);
    tr.appendChild(el('td', '', Number.isNaN(at) ? '' : fmtClock(at)));
    tr.style.cursor = 'pointer';
    onPick(tr, () => actions.showTrace(r.traceId));
    table.appendChild(tr);
  }
  box.appendChild(table);
}

function kv(dl: HTMLElement, k: string, v: unknown): void {
  dl.appendChild(el('dt', '', k));
  dl.appendChild(el('dd', '', v));
}

function attrTable(list: readonly Attribute[]): HTMLElement {
  const table = el('table', 'attrs');
  for (const a of list) {
    const tr = el('tr');
    tr.appendChild(el('td', '', a.key));
    tr.appendChild(el('td', '', valueText(a.value)));
    table.appendChild(tr);
  }
  return table;
}

/** The span's source, linked to the editor when it can be opened there. */
function sourceEntry(dl: HTMLElement, src: Partial<ViewSpan['source']>): void {
  if (!src.file) return;
  const where = src.file + (src.line ? `:${src.line}${src.column ? `:${src.column}` : ''}` : '');
  dl.appendChild(el('dt', '', 'source'));
  const dd = el('dd');
  const href = editorHref(src);
  if (href) {
    const a = el('a', 'src', where);
    a.href = href;
    a.rel = 'noreferrer';
    a.title = 'Open in the editor';
    a.setAttribute('data-testid', 'source-link');
    dd.appendChild(a);
  } else dd.textContent = where;
  dl.appendChild(dd);
}

export function renderDetail(box: HTMLElement, store: SpanStore, state: ViewState): void {
  box.replaceChildren();
  const s = store.spans.get(state.selectedSpan);
  if (!s) {
    box.appendChild(el('div', 'empty', 'Select a span to see its details.'));
    return;
  }
  box.appendChild(el('h2', '', s.name || UNNAMED));
  const dl = el('dl', 'kv');
  const message = s.status?.message ? ` \u2014 ${s.status.message}` : '';
  kv(dl, 'status', (s.status ? s.status.code : 'unset') + message);
  kv(dl, 'surface', s.surface);
  kv(dl, 'lane', s.lane);
  kv(dl, 'duration', fmtDur(s.durationNs / 1e6));
  kv(dl, 'start', s.startTime);
  kv(dl, 'trace', s.traceId);
  kv(dl, 'span', s.spanId);
  kv(dl, 'parent', s.parentSpanId || '\u2014');
  const src: Partial<ViewSpan['source']> = s.source || {};
  sourceEntry(dl, src);
  if (src.ownerKind || src.ownerId) kv(dl, 'owner', `${src.ownerKind || ''} ${src.ownerId || ''}`);
  box.appendChild(dl);
  const attributes = s.attributes || [];
  box.appendChild(el('h3', '', `Attributes (${attributes.length})`));
  if (attributes.length) box.appendChild(attrTable(attributes));
  else box.appendChild(el('div', 'hint', 'none'));
  const events = s.events || [];
  box.appendChild(el('h3', '', `Events (${events.length})`));
  for (const e of events) {
    const d = el('div', `event ${e.level}`);
    d.appendChild(el('div', 'when', `+${fmtDur(parseTime(e.time) - s._start)} \u00b7 ${e.level}`));
    d.appendChild(el('div', '', e.message));
    if (e.attributes?.length) d.appendChild(attrTable(e.attributes));
    box.appendChild(d);
  }
}
