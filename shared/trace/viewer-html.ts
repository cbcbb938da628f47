// The trace viewer: one self-contained page (no CDN, no framework), embedded as a string so a bundled
// single-executable app can serve it without reading files. It lists spans live over server-sent events,
// groups them into traces with a waterfall, and shows span details. Span data is untrusted: the page only
// ever puts it into the DOM as text (textContent / text nodes), never as HTML.
//
// The page is written without backticks and without template placeholders, and is kept in String.raw so
// its regular expressions keep their backslashes.

const PAGE = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="kit-trace-base" content="__KIT_TRACE_BASE__">
<meta name="kit-source-root" content="__KIT_SOURCE_ROOT__">
<title>kit trace</title>
<style nonce="__KIT_NONCE__">
:root {
  --bg: #f7f7f8; --panel: #ffffff; --text: #1d1f24; --muted: #686f7c; --line: #e3e5ea; --hover: #f0f2f6;
  --accent: #3b6ef5; --sel: #e6edff; --ok: #1f9d55; --err: #d64545; --unset: #8a93a3;
  --backend: #3b6ef5; --frontend: #c2410c; --worker: #7c3aed;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #14161a; --panel: #1b1e24; --text: #e6e8ec; --muted: #9aa1ad; --line: #2b2f37; --hover: #232730;
    --sel: #22304f; --accent: #6b93ff; --backend: #6b93ff; --frontend: #f0883e; --worker: #a78bfa; }
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg);
  color: var(--text);
  display: flex; flex-direction: column; }
header { display: flex; align-items: center; gap: 16px; padding: 10px 16px; background: var(--panel);
  border-bottom: 1px solid var(--line); }
header h1 { font-size: 15px; margin: 0; font-weight: 650; letter-spacing: .2px; }
header h1 .dot { display: inline-block; width: 8px; height: 8px; border-radius: 50%; background: var(--unset);
  margin-right: 8px; vertical-align: 1px; }
header h1 .dot.live { background: var(--ok); }
header h1 .dot.down { background: var(--err); }
.counts { display: flex; gap: 14px; color: var(--muted); }
.counts b { color: var(--text); font-weight: 600; font-variant-numeric: tabular-nums; }
.counts .warn b { color: var(--err); }
.toolbar { display: flex; flex-wrap: wrap; gap: 8px; padding: 8px 16px; background: var(--panel);
  border-bottom: 1px solid var(--line); align-items: center; }
.toolbar input, .toolbar select, .toolbar button { font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--line); border-radius: 6px; padding: 5px 8px; }
.toolbar input { min-width: 240px; flex: 1 1 240px; max-width: 420px; }
.toolbar button { cursor: pointer; }
.toolbar button:hover { background: var(--hover); }
.toolbar button[aria-pressed="true"] { background: var(--sel); border-color: var(--accent); }
.toolbar .spacer { flex: 1; }
.toolbar .hint { color: var(--muted); }
main { flex: 1; display: grid; grid-template-columns: minmax(260px, 340px) 1fr minmax(280px, 380px); min-height: 0; }
section { min-height: 0; overflow: auto; }
#traces { border-right: 1px solid var(--line); background: var(--panel); }
#detail { border-left: 1px solid var(--line); background: var(--panel); padding: 12px 14px; }
.empty { color: var(--muted); padding: 24px 16px; text-align: center; }
.trace { display: block; width: 100%; text-align: left; border: 0; border-bottom: 1px solid var(--line);
  background: none; color: inherit;
  font: inherit; padding: 8px 12px; cursor: pointer; }
.trace:hover { background: var(--hover); }
.trace.selected { background: var(--sel); }
.trace .title { display: flex; align-items: center; gap: 6px; font-weight: 600; overflow: hidden; }
.trace .title .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.trace .sub { color: var(--muted); font-size: 12px; margin-top: 2px; display: flex; gap: 6px; flex-wrap: wrap; }
.status { width: 8px; height: 8px; border-radius: 50%; flex: none; background: var(--unset); }
.status.ok { background: var(--ok); }
.status.error { background: var(--err); }
.badge { font-size: 11px; padding: 0 6px; border-radius: 9px; border: 1px solid var(--line);
  color: var(--muted); white-space: nowrap; }
.badge.backend { color: var(--backend); border-color: currentColor; }
.badge.frontend { color: var(--frontend); border-color: currentColor; }
.badge.worker { color: var(--worker); border-color: currentColor; }
.badge.error { color: var(--err); border-color: currentColor; }
#waterfall { padding: 0 0 16px; }
.wf-head { position: sticky; top: 0; background: var(--bg); z-index: 1; padding: 10px 16px 6px;
  border-bottom: 1px solid var(--line); }
.wf-head h2 { font-size: 14px; margin: 0 0 2px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.wf-head .meta { color: var(--muted); font-size: 12px; font-family: var(--mono); }
.axis { display: grid; grid-template-columns: 38% 1fr; margin-top: 8px; color: var(--muted); font-size: 11px; }
.axis .ticks { position: relative; height: 14px; }
.axis .ticks span { position: absolute; transform: translateX(-50%); white-space: nowrap; }
.axis .ticks span:first-child { transform: none; }
.axis .ticks span:last-child { transform: translateX(-100%); }
.row { display: grid; grid-template-columns: 38% 1fr; align-items: center; min-height: 26px; padding: 0 16px;
  cursor: pointer; border-bottom: 1px solid transparent; }
.row:hover { background: var(--hover); }
.row.selected { background: var(--sel); }
.row.dim { opacity: .38; }
.row .label { display: flex; align-items: center; gap: 6px; overflow: hidden; white-space: nowrap; padding-right: 8px; }
.row .label .name { overflow: hidden; text-overflow: ellipsis; }
.row .label .twig { color: var(--muted); opacity: .6; font-family: var(--mono); }
.row .track { position: relative; height: 16px; }
.row .bar { position: absolute; top: 2px; height: 12px; border-radius: 3px; min-width: 2px;
  background: var(--backend); }
.row .bar.frontend { background: var(--frontend); }
.row .bar.worker { background: var(--worker); }
.row .bar.error { background: var(--err); }
.row .dur { position: absolute; top: 0; font-size: 11px; color: var(--muted); white-space: nowrap;
  font-variant-numeric: tabular-nums; }
.row .dur.inside { top: 2px; font-size: 10px; line-height: 12px; color: #fff; }
#detail h2 { font-size: 14px; margin: 0 0 8px; word-break: break-word; }
#detail h3 { font-size: 12px; text-transform: uppercase; letter-spacing: .5px; color: var(--muted);
  margin: 16px 0 6px; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 3px 12px; margin: 0; }
dl.kv dt { color: var(--muted); }
dl.kv dd { margin: 0; font-family: var(--mono); font-size: 12px; word-break: break-all; }
table.attrs { width: 100%; border-collapse: collapse; font-size: 12px; }
table.attrs td { border-top: 1px solid var(--line); padding: 3px 4px; vertical-align: top; word-break: break-all; }
table.attrs td:first-child { color: var(--muted); width: 40%; font-family: var(--mono); }
table.attrs td:last-child { font-family: var(--mono); white-space: pre-wrap; }
.event { border-left: 3px solid var(--line); padding: 2px 0 2px 8px; margin: 6px 0; }
.event.error { border-color: var(--err); }
.event.warn { border-color: #d99a00; }
.event .when { color: var(--muted); font-size: 11px; font-family: var(--mono); }
.row .bar.lane-route { background: #3b6ef5; } .row .bar.lane-guard { background: #b7791f; }
.row .bar.lane-handler { background: #0f9d8f; } .row .bar.lane-ssr { background: #7c3aed; }
.row .bar.lane-action, .row .bar.lane-api, .row .bar.lane-fragment, .row .bar.lane-contract { background: #2563eb; }
.row .bar.lane-nav, .row .bar.lane-island { background: var(--frontend); } .row .bar.lane-user { background: #64748b; }
.row .bar.lane-job { background: var(--worker); }
.row .bar.error { background: var(--err); }
.trace .req { display: flex; gap: 8px; font-family: var(--mono); font-size: 12px; margin-top: 2px; }
.trace .req .code.c4 { color: #b7791f; } .trace .req .code.c5, .trace .req .errmark { color: var(--err); }
.tabs { display: flex; gap: 4px; }
table.routes { width: 100%; border-collapse: collapse; font-size: 12px; }
table.routes th, table.routes td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line);
  font-variant-numeric: tabular-nums; white-space: nowrap; }
table.routes td.num, table.routes th.num { text-align: right; }
table.routes tr.err td.errors { color: var(--err); font-weight: 600; }
.hist { display: inline-flex; align-items: flex-end; gap: 1px; height: 18px; vertical-align: middle; }
.hist span { display: inline-block; width: 5px; background: var(--accent); min-height: 1px; }
a.src { color: var(--accent); }
@media (max-width: 1000px) { main { grid-template-columns: 1fr; grid-auto-rows: minmax(200px, auto);
  } section { max-height: 60vh; } }
</style>
</head>
<body>
<header>
  <h1><span class="dot" id="conn" title="connecting"></span>kit trace</h1>
  <div class="counts">
    <span><b data-testid="count-spans" id="n-spans">0</b> spans</span>
    <span><b data-testid="count-traces" id="n-traces">0</b> traces</span>
    <span id="c-dropped"><b data-testid="count-dropped" id="n-dropped">0</b> dropped</span>
    <span id="c-rejected"><b data-testid="count-rejected" id="n-rejected">0</b> rejected</span>
  </div>
</header>
<div class="toolbar" role="search">
  <input id="q" data-testid="filter-text" type="search" placeholder="Filter: name, attribute, id, file…"
    aria-label="Filter spans">
  <select id="f-lane" data-testid="filter-lane" aria-label="Lane"><option value="">All lanes</option></select>
  <select id="f-surface" data-testid="filter-surface" aria-label="Surface"><option
    value="">All surfaces</option></select>
  <select id="f-status" data-testid="filter-status" aria-label="Status"><option value="">Any status</option></select>
  <button id="pause" data-testid="pause" type="button" aria-pressed="false">Pause</button>
  <button id="clear" data-testid="clear" type="button">Clear</button>
  <span class="tabs" role="tablist">
    <button id="tab-traces" data-testid="view-traces" type="button" aria-pressed="true">Traces</button>
    <button id="tab-routes" data-testid="view-routes" type="button" aria-pressed="false">Routes</button>
    <button id="tab-slowest" data-testid="view-slowest" type="button" aria-pressed="false">Slowest</button>
  </span>
  <span class="spacer"></span>
  <span class="hint" id="hint"></span>
  <select id="editor" data-testid="editor" aria-label="Open sources in">
    <option value="vscode://file{path}:{line}:{column}">VS Code</option>
    <option value="cursor://file{path}:{line}:{column}">Cursor</option>
    <option value="vscodium://file{path}:{line}:{column}">VSCodium</option>
    <option value="idea://open?file={path}&amp;line={line}&amp;column={column}">JetBrains</option>
    <option value="subl://open?url=file://{path}&amp;line={line}&amp;column={column}">Sublime Text</option>
    <option value="custom">Custom…</option>
  </select>
  <input id="editor-template" data-testid="editor-template" type="text" hidden
    aria-label="Editor link template with {path}, {line} and {column}">
</div>
<main>
  <section id="traces" data-testid="trace-list" aria-label="Traces"></section>
  <section id="waterfall" data-testid="waterfall" aria-label="Waterfall"></section>
  <section id="detail" data-testid="span-details" aria-label="Span details"></section>
</main>
<script nonce="__KIT_NONCE__">
(function () {
  'use strict';
  var LANES = ['route', 'guard', 'handler', 'ssr', 'action', 'api', 'fragment', 'contract', 'job', 'island',
    'nav', 'user'];
  var SURFACES = ['backend', 'frontend', 'worker'];
  var STATUSES = ['unset', 'ok', 'error'];
  var MAX_SPANS = 5000;

  var meta = document.querySelector('meta[name="kit-trace-base"]');
  var base = meta ? meta.getAttribute('content') : '';
  if (!base) base = location.pathname.replace(/\/viewer\/?$/, '').replace(/\/+$/, '');

  var spans = new Map();      // key -> span (with parsed times)
  var traces = new Map();     // traceId -> {id, spans: [], start, end}
  var selectedTrace = '';
  var selectedSpan = '';
  var paused = false;
  var pending = [];
  var clearedAt = -Infinity;
  var renderQueued = false;

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function fill(select, values) {
    values.forEach(function (v) { var o = el('option', '', v); o.value = v; select.appendChild(o); });
  }
  fill($('f-lane'), LANES);
  fill($('f-surface'), SURFACES);
  fill($('f-status'), STATUSES);

  var TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
  function parseTime(s) {
    var m = TIME.exec(String(s || ''));
    if (!m) return NaN;
    var ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
    if (m[7]) ms += Number((m[7] + '000000000').slice(0, 9)) / 1e6;
    if (m[8]) { var off = (+m[9] * 60 + +m[10]) * 60000; ms += m[8] === '+' ? -off : off; }
    return ms;
  }
  function fmtDur(ms) {
    if (!(ms >= 0)) return '';
    if (ms < 0.001) return Math.round(ms * 1e6) + 'ns';
    if (ms < 1) return (ms * 1000).toFixed(ms < 0.01 ? 2 : 1) + 'µs';
    if (ms < 1000) return ms.toFixed(ms < 10 ? 2 : 1) + 'ms';
    return (ms / 1000).toFixed(2) + 's';
  }
  function fmtClock(ms) {
    var d = new Date(ms);
    function p(n, w) { return String(n).padStart(w || 2, '0'); }
    return p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds()) + '.' + p(d.getMilliseconds(), 3);
  }
  function valueText(v) { return typeof v === 'string' ? v : JSON.stringify(v); }

  function add(s) {
    if (!s || typeof s.traceId !== 'string' || typeof s.spanId !== 'string') return;
    var start = parseTime(s.startTime), end = parseTime(s.endTime);
    if (!(end > clearedAt)) return;
    var key = s.traceId + '/' + s.spanId;
    if (spans.has(key)) return;
    s._start = start; s._end = end; s._key = key;
    spans.set(key, s);
    var t = traces.get(s.traceId);
    if (!t) { t = { id: s.traceId, spans: [], start: start, end: end, seen: 0 }; traces.set(s.traceId, t); }
    t.spans.push(s);
    if (start < t.start || isNaN(t.start)) t.start = start;
    if (end > t.end || isNaN(t.end)) t.end = end;
    t.seen = ++seq;
    while (spans.size > MAX_SPANS) evictOldestTrace();
  }
  var seq = 0;
  function evictOldestTrace() {
    var oldest = null;
    traces.forEach(function (t) { if (!oldest || t.seen < oldest.seen) oldest = t; });
    if (!oldest) return;
    oldest.spans.forEach(function (s) { spans.delete(s._key); });
    traces.delete(oldest.id);
  }

  function receive(s) {
    if (paused) { pending.push(s); updateHint(); return; }
    add(s);
    schedule();
  }
  function schedule() {
    if (renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(function () { renderQueued = false; render(); });
  }

  function filters() {
    return { q: $('q').value.trim().toLowerCase(), lane: $('f-lane').value, surface: $('f-surface').value,
      status: $('f-status').value };
  }
  function matches(s, f) {
    if (f.lane && s.lane !== f.lane) return false;
    if (f.surface && s.surface !== f.surface) return false;
    if (f.status && (s.status && s.status.code) !== f.status) return false;
    if (!f.q) return true;
    var hay = [s.name, s.traceId, s.spanId, s.parentSpanId || '', s.lane, s.surface,
      s.status && s.status.message || '', s.source && s.source.file || ''];
    (s.attributes || []).forEach(function (a) { hay.push(a.key, valueText(a.value)); });
    (s.events || []).forEach(function (e) { hay.push(e.message, e.level); });
    for (var i = 0; i < hay.length; i++) if (String(hay[i]).toLowerCase().indexOf(f.q) >= 0) return true;
    return false;
  }
  function traceMatches(t, f) {
    for (var i = 0; i < t.spans.length; i++) if (matches(t.spans[i], f)) return true;
    return false;
  }
  /** Spans of a trace in display order with their depth: children under parents, by start time. */
  function tree(t) {
    var byId = new Map(), kids = new Map(), roots = [];
    t.spans.forEach(function (s) { byId.set(s.spanId, s); });
    t.spans.forEach(function (s) {
      var p = s.parentSpanId;
      if (p && byId.has(p) && p !== s.spanId) { if (!kids.has(p)) kids.set(p, []); kids.get(p).push(s); }
      else roots.push(s);
    });
    function byStart(a, b) { return (a._start - b._start) || (b._end - a._end); }
    var out = [], seen = new Set();
    function walk(s, depth) {
      if (seen.has(s._key)) return;
      seen.add(s._key);
      out.push({ span: s, depth: depth });
      (kids.get(s.spanId) || []).sort(byStart).forEach(function (c) { walk(c, depth + 1); });
    }
    roots.sort(byStart).forEach(function (r) { walk(r, 0); });
    return out;
  }
  function rootOf(t) {
    var ordered = tree(t);
    return ordered.length ? ordered[0].span : null;
  }
  function traceStatus(t) {
    for (var i = 0; i < t.spans.length;
      i++) if (t.spans[i].status && t.spans[i].status.code === 'error') return 'error';
    var r = rootOf(t);
    return r && r.status ? r.status.code : 'unset';
  }

  function attrOf(s, key) {
    var list = s.attributes || [];
    for (var i = 0; i < list.length; i++) if (list[i].key === key) return list[i].value;
    return undefined;
  }
  /** Method, route, status code, duration and an error marker of a request's root span. */
  function requestLine(root, failed) {
    var line = el('div', 'req');
    line.setAttribute('data-testid', 'trace-request');
    var method = attrOf(root, 'http.request.method');
    var route = attrOf(root, 'http.route');
    if (route === undefined) route = attrOf(root, 'url.path');
    var code = attrOf(root, 'http.response.status_code');
    if (method !== undefined) line.appendChild(el('span', 'method', method));
    if (route !== undefined) line.appendChild(el('span', 'route', route));
    if (code !== undefined) line.appendChild(el('span', 'code c' + String(code).charAt(0), code));
    line.appendChild(el('span', 'dur', fmtDur(root.durationNs / 1e6)));
    if (failed) {
      var mark = el('span', 'errmark', '● error');
      mark.setAttribute('data-testid', 'error-marker');
      line.appendChild(mark);
    }
    return line;
  }

  // ---- editor links: a template with {path}, {line} and {column}; span sources relative to the
  // collector's source root are made absolute first.
  var sourceRootMeta = document.querySelector('meta[name="kit-source-root"]');
  var sourceRoot = sourceRootMeta ? sourceRootMeta.getAttribute('content') || '' : '';
  var BLOCKED = /^(javascript|data|vbscript|blob|about):/i;
  var SCHEME = /^[a-z][a-z0-9+.-]*:/i;
  function validTemplate(t) {
    return typeof t === 'string' && SCHEME.test(t) && !BLOCKED.test(t) && t.indexOf('{path}') >= 0;
  }
  var editorTemplate = 'vscode://file{path}:{line}:{column}';
  try {
    var stored = localStorage.getItem('kit-trace-editor');
    if (validTemplate(stored)) editorTemplate = stored;
  } catch (e) { /* storage unavailable */ }
  function absolutePath(file) {
    if (/^\/|^[A-Za-z]:[\\\/]/.test(file)) return file;
    if (!sourceRoot) return '';
    return sourceRoot.replace(/[\\\/]+$/, '') + '/' + file;
  }
  function editorHref(src) {
    var path = absolutePath(String(src.file || ''));
    if (!path) return '';
    path = path.replace(/\\/g, '/');
    if (path.charAt(0) !== '/') path = '/' + path; // C:/x → /C:/x: every {path} starts with a slash
    var encoded = encodeURI(path.replace(/\\/g, '/')).replace(/[?#&]/g, encodeURIComponent);
    var href = editorTemplate.split('{path}').join(encoded).split('{line}').join(String(src.line | 0 || 1))
      .split('{column}').join(String(src.column | 0 || 1));
    return SCHEME.test(href) && !BLOCKED.test(href) ? href : '';
  }
  function useTemplate(t, store) {
    if (!validTemplate(t)) return false;
    editorTemplate = t;
    if (store) { try { localStorage.setItem('kit-trace-editor', t); } catch (e) { /* ignore */ } }
    var sel = $('editor'), known = false;
    for (var i = 0; i < sel.options.length; i++) if (sel.options[i].value === t) { sel.value = t; known = true; }
    if (!known) { sel.value = 'custom'; $('editor-template').hidden = false; $('editor-template').value = t; }
    return true;
  }
  $('editor').addEventListener('change', function () {
    var v = $('editor').value;
    $('editor-template').hidden = v !== 'custom';
    if (v !== 'custom') useTemplate(v, true);
    schedule();
  });
  $('editor-template').addEventListener('change', function () {
    if (useTemplate($('editor-template').value.trim(), true)) schedule();
  });

  // ---- views: traces (list + waterfall), per-route figures, slowest requests.
  var view = 'traces';
  var routes = null;
  function setView(v) {
    view = v;
    ['traces', 'routes', 'slowest'].forEach(function (k) {
      $('tab-' + k).setAttribute('aria-pressed', k === v ? 'true' : 'false');
    });
    if (v !== 'traces') refreshRoutes();
    schedule();
  }
  ['traces', 'routes', 'slowest'].forEach(function (k) {
    $('tab-' + k).addEventListener('click', function () { setView(k); });
  });
  var routesQueued = false;
  function refreshRoutes() {
    if (routesQueued) return;
    routesQueued = true;
    setTimeout(function () {
      fetch(base + '/api/routes', { cache: 'no-store' }).then(function (r) { return r.ok ? r.json() : null; })
        .then(function (rep) { routesQueued = false; if (rep && rep.version === 1) { routes = rep; schedule(); } },
          function () { routesQueued = false; });
    }, 250);
  }
  function histogram(counts) {
    var box = el('span', 'hist');
    box.setAttribute('data-testid', 'route-histogram');
    var max = 0;
    counts.forEach(function (c) { if (c > max) max = c; });
    var bounds = routes && routes.bounds ? routes.bounds : [];
    counts.forEach(function (c, i) {
      var b = el('span');
      b.style.height = (max ? Math.max(1, Math.round(c / max * 18)) : 1) + 'px';
      b.title = (i < bounds.length ? '≤ ' + bounds[i] + ' ms' : '> ' + bounds[bounds.length - 1] + ' ms') + ': ' + c;
      box.appendChild(b);
    });
    return box;
  }
  function renderRoutes(box) {
    box.appendChild(el('div', 'wf-head')).appendChild(el('h2', '', 'Routes'));
    if (!routes || !routes.routes.length) { box.appendChild(el('div', 'empty', 'No requests yet.')); return; }
    var table = el('table', 'routes');
    var head = el('tr');
    ['route', 'kind', 'requests', 'errors', 'p50', 'p95', 'p99', 'latency'].forEach(function (h, i) {
      head.appendChild(el('th', i >= 2 && i <= 6 ? 'num' : '', h));
    });
    table.appendChild(head);
    routes.routes.forEach(function (r) {
      var tr = el('tr', r.errors ? 'err' : '');
      tr.setAttribute('data-testid', 'route-row');
      tr.appendChild(el('td', '', r.key));
      tr.appendChild(el('td', '', r.kind));
      tr.appendChild(el('td', 'num', r.count));
      tr.appendChild(el('td', 'num errors', r.errors));
      tr.appendChild(el('td', 'num', fmtDur(r.p50Ms)));
      tr.appendChild(el('td', 'num', fmtDur(r.p95Ms)));
      tr.appendChild(el('td', 'num', fmtDur(r.p99Ms)));
      var cell = el('td');
      cell.appendChild(histogram(r.histogram || []));
      tr.appendChild(cell);
      table.appendChild(tr);
    });
    box.appendChild(table);
  }
  function renderSlowest(box) {
    box.appendChild(el('div', 'wf-head')).appendChild(el('h2', '', 'Slowest requests'));
    var list = routes ? routes.slowest : [];
    if (!list.length) { box.appendChild(el('div', 'empty', 'No requests yet.')); return; }
    var table = el('table', 'routes');
    list.forEach(function (r) {
      var tr = el('tr', r.error ? 'err' : '');
      tr.setAttribute('data-testid', 'slow-row');
      tr.appendChild(el('td', 'num', fmtDur(r.durationMs)));
      tr.appendChild(el('td', '', r.name));
      tr.appendChild(el('td', 'num errors', r.status || ''));
      tr.appendChild(el('td', '', isNaN(parseTime(r.time)) ? '' : fmtClock(parseTime(r.time))));
      tr.style.cursor = 'pointer';
      tr.addEventListener('click', function () { selectedTrace = r.traceId; selectedSpan = ''; setView('traces'); });
      table.appendChild(tr);
    });
    box.appendChild(table);
  }

  function render() {
    var f = filters();
    var list = $('traces');
    var shown = [];
    traces.forEach(function (t) { if (traceMatches(t, f)) shown.push(t); });
    shown.sort(function (a, b) { return b.start - a.start; });
    list.replaceChildren();
    if (shown.length === 0) list.appendChild(el('div', 'empty',
      traces.size ? 'No trace matches the filters.' : 'Waiting for spans…'));
    shown.forEach(function (t) {
      var root = rootOf(t);
      var b = el('button', 'trace' + (t.id === selectedTrace ? ' selected' : ''));
      b.type = 'button';
      b.setAttribute('data-testid', 'trace-row');
      b.setAttribute('data-trace-id', t.id);
      var title = el('div', 'title');
      title.appendChild(el('span', 'status ' + traceStatus(t)));
      title.appendChild(el('span', 'name', root && root.name ? root.name : '(unnamed span)'));
      b.appendChild(title);
      if (root) b.appendChild(requestLine(root, traceStatus(t) === 'error'));
      var sub = el('div', 'sub');
      if (root) {
        sub.appendChild(el('span', 'badge ' + root.surface, root.surface));
        sub.appendChild(el('span', 'badge', root.lane));
      }
      sub.appendChild(el('span', '', t.spans.length + (t.spans.length === 1 ? ' span' : ' spans')));
      sub.appendChild(el('span', '', fmtDur(t.end - t.start)));
      sub.appendChild(el('span', '', isNaN(t.start) ? '' : fmtClock(t.start)));
      b.appendChild(sub);
      b.addEventListener('click', function () { selectedTrace = t.id; selectedSpan = root ? root._key : '';
        render(); });
      list.appendChild(b);
    });
    if (selectedTrace && traces.has(selectedTrace) && !selectedSpan) {
      var r0 = rootOf(traces.get(selectedTrace));
      if (r0) selectedSpan = r0._key;
    }
    if (view === 'traces') renderWaterfall(f);
    else {
      $('waterfall').replaceChildren();
      if (view === 'routes') renderRoutes($('waterfall')); else renderSlowest($('waterfall'));
    }
    renderDetail();
    $('n-spans').textContent = String(spans.size);
    $('n-traces').textContent = String(traces.size);
  }

  function renderWaterfall(f) {
    var box = $('waterfall');
    box.replaceChildren();
    var t = traces.get(selectedTrace);
    if (!t) { box.appendChild(el('div', 'empty', 'Select a trace to see its waterfall.')); return; }
    var total = Math.max(t.end - t.start, 1e-6);
    var head = el('div', 'wf-head');
    var root = rootOf(t);
    head.appendChild(el('h2', '', root && root.name ? root.name : '(unnamed span)'));
    head.appendChild(el('div', 'meta', 'trace ' + t.id + ' · ' + t.spans.length + ' spans · ' + fmtDur(total)));
    var axis = el('div', 'axis');
    axis.appendChild(el('span', '', 'span'));
    var ticks = el('div', 'ticks');
    [0, 0.25, 0.5, 0.75, 1].forEach(function (p) { var s = el('span', '', fmtDur(total * p));
      s.style.left = (p * 100) + '%'; ticks.appendChild(s); });
    axis.appendChild(ticks);
    head.appendChild(axis);
    box.appendChild(head);
    tree(t).forEach(function (item) {
      var s = item.span;
      var row = el('div', 'row' + (s._key === selectedSpan ? ' selected' : '') + (matches(s, f) ? '' : ' dim'));
      row.setAttribute('data-testid', 'span-row');
      row.setAttribute('data-span-id', s.spanId);
      row.setAttribute('data-depth', String(item.depth));
      row.tabIndex = 0;
      var label = el('div', 'label');
      label.style.paddingLeft = (item.depth * 14) + 'px';
      if (item.depth > 0) label.appendChild(el('span', 'twig', '└'));
      label.appendChild(el('span', 'status ' + (s.status ? s.status.code : 'unset')));
      label.appendChild(el('span', 'name', s.name || '(unnamed span)'));
      label.appendChild(el('span', 'badge', s.lane));
      row.appendChild(label);
      var track = el('div', 'track');
      var left = Math.max(0, Math.min(100, (s._start - t.start) / total * 100));
      var width = Math.max(0, Math.min(100 - left, (s._end - s._start) / total * 100));
      var bar = el('div', 'bar ' + s.surface + ' lane-' + s.lane +
        (s.status && s.status.code === 'error' ? ' error' : ''));
      bar.setAttribute('data-testid', 'span-bar');
      bar.style.left = left + '%';
      bar.style.width = width + '%';
      track.appendChild(bar);
      var dur = el('span', 'dur', fmtDur(s.durationNs / 1e6));
      if (width > 25) { dur.className = 'dur inside'; dur.style.right = (100 - left - width) + '%';
        dur.style.paddingRight = '5px'; }
      else if (left + width > 80) { dur.style.right = (100 - left) + '%'; dur.style.paddingRight = '4px'; }
      else { dur.style.left = (left + width) + '%'; dur.style.paddingLeft = '4px'; }
      track.appendChild(dur);
      row.appendChild(track);
      function pick() { selectedSpan = s._key; render(); }
      row.addEventListener('click', pick);
      row.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault(); pick(); } });
      box.appendChild(row);
    });
  }

  function kv(dl, k, v) { dl.appendChild(el('dt', '', k)); dl.appendChild(el('dd', '', v)); }
  function attrTable(list) {
    var table = el('table', 'attrs');
    list.forEach(function (a) {
      var tr = el('tr');
      tr.appendChild(el('td', '', a.key));
      tr.appendChild(el('td', '', valueText(a.value)));
      table.appendChild(tr);
    });
    return table;
  }
  function renderDetail() {
    var box = $('detail');
    box.replaceChildren();
    var s = spans.get(selectedSpan);
    if (!s) { box.appendChild(el('div', 'empty', 'Select a span to see its details.')); return; }
    box.appendChild(el('h2', '', s.name || '(unnamed span)'));
    var dl = el('dl', 'kv');
    kv(dl, 'status',
      (s.status ? s.status.code : 'unset') + (s.status && s.status.message ? ' — ' + s.status.message : ''));
    kv(dl, 'surface', s.surface);
    kv(dl, 'lane', s.lane);
    kv(dl, 'duration', fmtDur(s.durationNs / 1e6));
    kv(dl, 'start', s.startTime);
    kv(dl, 'trace', s.traceId);
    kv(dl, 'span', s.spanId);
    kv(dl, 'parent', s.parentSpanId || '—');
    var src = s.source || {};
    if (src.file) {
      var where = src.file + (src.line ? ':' + src.line + (src.column ? ':' + src.column : '') : '');
      dl.appendChild(el('dt', '', 'source'));
      var dd = el('dd');
      var href = editorHref(src);
      if (href) {
        var a = el('a', 'src', where);
        a.href = href;
        a.rel = 'noreferrer';
        a.title = 'Open in the editor';
        a.setAttribute('data-testid', 'source-link');
        dd.appendChild(a);
      } else dd.textContent = where;
      dl.appendChild(dd);
    }
    if (src.ownerKind || src.ownerId) kv(dl, 'owner', (src.ownerKind || '') + ' ' + (src.ownerId || ''));
    box.appendChild(dl);
    box.appendChild(el('h3', '', 'Attributes (' + (s.attributes || []).length + ')'));
    if ((s.attributes || []).length) box.appendChild(attrTable(s.attributes));
    else box.appendChild(el('div', 'hint', 'none'));
    box.appendChild(el('h3', '', 'Events (' + (s.events || []).length + ')'));
    (s.events || []).forEach(function (e) {
      var d = el('div', 'event ' + e.level);
      d.appendChild(el('div', 'when', '+' + fmtDur(parseTime(e.time) - s._start) + ' · ' + e.level));
      d.appendChild(el('div', '', e.message));
      if (e.attributes && e.attributes.length) d.appendChild(attrTable(e.attributes));
      box.appendChild(d);
    });
  }

  function updateHint() {
    $('hint').textContent = paused ? (pending.length + ' new while paused') : '';
    $('pause').textContent = paused ? 'Resume' : 'Pause';
    $('pause').setAttribute('aria-pressed', paused ? 'true' : 'false');
  }
  $('pause').addEventListener('click', function () {
    paused = !paused;
    if (!paused) { pending.forEach(add); pending = []; render(); }
    updateHint();
  });
  $('clear').addEventListener('click', function () {
    clearedAt = Date.now();
    spans.clear(); traces.clear(); pending = []; selectedTrace = ''; selectedSpan = '';
    updateHint(); render();
  });
  ['q', 'f-lane', 'f-surface', 'f-status'].forEach(function (id) {
    $(id).addEventListener('input', schedule);
    $(id).addEventListener('change', schedule);
  });

  function refreshCounts() {
    fetch(base + '/stats', { cache: 'no-store' }).then(function (r) { return r.ok ? r.json() : null;
      }).then(function (h) {
      if (!h) return;
      $('n-dropped').textContent = String(h.dropped);
      $('n-rejected').textContent = String(h.rejected);
      $('c-dropped').classList.toggle('warn', h.dropped > 0);
      $('c-rejected').classList.toggle('warn', h.rejected > 0);
    }).catch(function () {});
  }
  refreshCounts();
  setInterval(refreshCounts, 2000);

  var conn = $('conn');
  var source = new EventSource(base + '/events');
  source.addEventListener('open', function () { conn.className = 'dot live'; conn.title = 'live'; });
  source.addEventListener('error', function () { conn.className = 'dot down'; conn.title = 'reconnecting'; });
  source.addEventListener('kit-trace', function (e) {
    var s;
    try { s = JSON.parse(e.data); } catch (err) { return; }
    receive(s);
    if (view !== 'traces') refreshRoutes();
  });
  // Deep links from the editor: #trace=<id>[&editor=<template>].
  function applyHash() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ''));
    var id = params.get('trace');
    if (id && /^[0-9a-f]{32}$/.test(id)) { selectedTrace = id; selectedSpan = ''; }
    var tpl = params.get('editor');
    if (!tpl || !useTemplate(tpl, false)) useTemplate(editorTemplate, false);
    schedule();
  }
  applyHash();
  window.addEventListener('hashchange', applyHash);
  refreshRoutes();
  setInterval(function () { if (view !== 'traces') refreshRoutes(); }, 2000);
  window.__kitTraceViewer = { spans: spans, traces: traces };
  render();
})();
</script>
</body>
</html>
`;

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The viewer page. `base` is the collector mount (for example `/_kit/traces`); when '' the page derives it
 * from its own URL. `nonce` authorises the page's inline script and style under its Content-Security-Policy.
 */
export function viewerPage(base: string, nonce: string, sourceRoot = ''): string {
  return PAGE.replace('__KIT_TRACE_BASE__', escapeAttribute(base))
    .replace('__KIT_SOURCE_ROOT__', escapeAttribute(sourceRoot))
    .replace(/__KIT_NONCE__/g, escapeAttribute(nonce));
}
