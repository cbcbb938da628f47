// The trace viewer's page script (bundled into the page by `scripts/viewer-script.mjs`, see
// `viewer-html.ts`): it receives spans over server-sent events from the collector, keeps the
// filters, the selection and the chosen view, and renders them once per animation frame. Figures
// per route and the slowest requests come from the collector's route report, fetched while those
// views are shown; the dropped and rejected counts from its stats.
import { LANES, STATUS_CODES, SURFACES } from '../constants.js';
import type { RoutesReport } from '../types.js';
import { addOptions, byId } from './dom.js';
import { currentTemplate, useTemplate, watchEditorChoice } from './editor-links.js';
import { type Filters, rootOf, SpanStore } from './model.js';
import {
  renderDetail,
  renderRoutes,
  renderSlowest,
  renderTraceList,
  renderWaterfall,
  type ViewActions,
  type ViewName,
  type ViewState,
} from './views.js';

declare global {
  interface Window {
    /** What the viewer holds, for a look from the browser's console. */
    __kitTraceViewer?: { spans: SpanStore['spans']; traces: SpanStore['traces'] };
  }
}

const VIEWS: readonly ViewName[] = ['traces', 'routes', 'slowest'];

const meta = document.querySelector('meta[name="kit-trace-base"]');
let base = meta ? meta.getAttribute('content') || '' : '';
if (!base) base = location.pathname.replace(/\/viewer\/?$/, '').replace(/\/+$/, '');

const store = new SpanStore();
const state: ViewState = { view: 'traces', selectedTrace: '', selectedSpan: '', routes: null };
let paused = false;
let pending: unknown[] = [];
let renderQueued = false;
let routesQueued = false;

const query = byId<HTMLInputElement>('q');
const laneFilter = byId<HTMLSelectElement>('f-lane');
const surfaceFilter = byId<HTMLSelectElement>('f-surface');
const statusFilter = byId<HTMLSelectElement>('f-status');
addOptions(laneFilter, LANES);
addOptions(surfaceFilter, SURFACES);
addOptions(statusFilter, STATUS_CODES);

function filters(): Filters {
  return {
    q: query.value.trim().toLowerCase(),
    lane: laneFilter.value,
    surface: surfaceFilter.value,
    status: statusFilter.value,
  };
}

function schedule(): void {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

function setView(v: ViewName): void {
  state.view = v;
  for (const k of VIEWS) byId(`tab-${k}`).setAttribute('aria-pressed', k === v ? 'true' : 'false');
  if (v !== 'traces') refreshRoutes();
  schedule();
}

/** The collector's route report, a moment after it was asked for (a burst of spans asks once). */
function refreshRoutes(): void {
  if (routesQueued) return;
  routesQueued = true;
  setTimeout(() => {
    fetch(`${base}/api/routes`, { cache: 'no-store' })
      .then((r) => (r.ok ? (r.json() as Promise<RoutesReport>) : null))
      .then(
        (rep) => {
          routesQueued = false;
          if (rep && rep.version === 1) {
            state.routes = rep;
            schedule();
          }
        },
        () => {
          routesQueued = false;
        },
      );
  }, 250);
}

const actions: ViewActions = {
  pickTrace(traceId, spanKey) {
    state.selectedTrace = traceId;
    state.selectedSpan = spanKey;
    render();
  },
  pickSpan(spanKey) {
    state.selectedSpan = spanKey;
    render();
  },
  showTrace(traceId) {
    state.selectedTrace = traceId;
    state.selectedSpan = '';
    setView('traces');
  },
};

function render(): void {
  const f = filters();
  renderTraceList(byId('traces'), store, state, f, actions);
  const selected = store.traces.get(state.selectedTrace);
  if (selected && !state.selectedSpan) {
    const root = rootOf(selected);
    if (root) state.selectedSpan = root._key;
  }
  const main = byId('waterfall');
  if (state.view === 'traces') renderWaterfall(main, store, state, f, actions);
  else {
    main.replaceChildren();
    if (state.view === 'routes') renderRoutes(main, state.routes);
    else renderSlowest(main, state.routes, actions);
  }
  renderDetail(byId('detail'), store, state);
  byId('n-spans').textContent = String(store.spans.size);
  byId('n-traces').textContent = String(store.traces.size);
}

function receive(s: unknown): void {
  if (paused) {
    pending.push(s);
    updateHint();
    return;
  }
  store.add(s);
  schedule();
}

function updateHint(): void {
  byId('hint').textContent = paused ? `${pending.length} new while paused` : '';
  byId('pause').textContent = paused ? 'Resume' : 'Pause';
  byId('pause').setAttribute('aria-pressed', paused ? 'true' : 'false');
}

function refreshCounts(): void {
  fetch(`${base}/stats`, { cache: 'no-store' })
    .then((r) => (r.ok ? (r.json() as Promise<{ dropped: number; rejected: number }>) : null))
    .then((h) => {
      if (!h) return;
      byId('n-dropped').textContent = String(h.dropped);
      byId('n-rejected').textContent = String(h.rejected);
      byId('c-dropped').classList.toggle('warn', h.dropped > 0);
      byId('c-rejected').classList.toggle('warn', h.rejected > 0);
    })
    .catch(() => {});
}

/** Deep links from the editor: `#trace=<id>[&editor=<template>]`. */
function applyHash(): void {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const id = params.get('trace');
  if (id && /^[0-9a-f]{32}$/.test(id)) {
    state.selectedTrace = id;
    state.selectedSpan = '';
  }
  const template = params.get('editor');
  if (!template || !useTemplate(template, false)) useTemplate(currentTemplate(), false);
  schedule();
}

for (const k of VIEWS) byId(`tab-${k}`).addEventListener('click', () => setView(k));
watchEditorChoice(schedule);
byId('pause').addEventListener('click', () => {
  paused = !paused;
  if (!paused) {
    for (const s of pending) store.add(s);
    pending = [];
    render();
  }
  updateHint();
});
byId('clear').addEventListener('click', () => {
  store.clear(Date.now());
  pending = [];
  state.selectedTrace = '';
  state.selectedSpan = '';
  updateHint();
  render();
});
for (const input of [query, laneFilter, surfaceFilter, statusFilter]) {
  input.addEventListener('input', schedule);
  input.addEventListener('change', schedule);
}

refreshCounts();
setInterval(refreshCounts, 2000);

const conn = byId('conn');
const events = new EventSource(`${base}/events`);
events.addEventListener('open', () => {
  conn.className = 'dot live';
  conn.title = 'live';
});
events.addEventListener('error', () => {
  conn.className = 'dot down';
  conn.title = 'reconnecting';
});
events.addEventListener('kit-trace', (e) => {
  let s: unknown;
  try {
    s = JSON.parse((e as MessageEvent<string>).data);
  } catch {
    return;
  }
  receive(s);
  if (state.view !== 'traces') refreshRoutes();
});
applyHash();
window.addEventListener('hashchange', applyHash);
refreshRoutes();
setInterval(() => {
  if (state.view !== 'traces') refreshRoutes();
}, 2000);
window.__kitTraceViewer = { spans: store.spans, traces: store.traces };
render();
