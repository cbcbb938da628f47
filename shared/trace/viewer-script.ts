// The trace viewer's script (`viewer-html.ts` puts it into the page's nonce'd <script>), one closure
// in two parts: `VIEWER_SCRIPT_DATA` opens it and holds the spans received over server-sent events,
// their grouping into traces, the filters and the editor links; `VIEWER_SCRIPT_VIEWS` renders the
// views (trace list and waterfall, per-route figures, slowest requests, span details) and closes it.
// Span data is untrusted: it only ever reaches the DOM as text. Kept in String.raw, without
// backticks or template placeholders, so its regular expressions keep their backslashes, and in
// ASCII (other characters as `\u` escapes the browser reads in its strings): the CLI bundle that
// carries it must stay ASCII, which V8 keeps in half the memory.
export const VIEWER_SCRIPT_DATA = String.raw`(function () {
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
    if (ms < 1) return (ms * 1000).toFixed(ms < 0.01 ? 2 : 1) + '\u00b5s';
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
      var mark = el('span', 'errmark', '\u25cf error');
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
    if (path.charAt(0) !== '/') path = '/' + path; // C:/x -> /C:/x: every {path} starts with a slash
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
`;
