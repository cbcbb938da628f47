// The second part of the trace viewer's script (see `viewer-script.ts`): the views (traces as a
// list and a waterfall, per-route figures, slowest requests, span details), and the end of the
// closure the first part opens.
export const VIEWER_SCRIPT_VIEWS = String.raw`  var view = 'traces';
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
      b.title =
        (i < bounds.length ? '\u2264 ' + bounds[i] + ' ms' : '> ' + bounds[bounds.length - 1] + ' ms') + ': ' + c;
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
      traces.size ? 'No trace matches the filters.' : 'Waiting for spans\u2026'));
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
    var sep = ' \u00b7 ';
    head.appendChild(el('div', 'meta', 'trace ' + t.id + sep + t.spans.length + ' spans' + sep + fmtDur(total)));
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
      if (item.depth > 0) label.appendChild(el('span', 'twig', '\u2514'));
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
      (s.status ? s.status.code : 'unset') + (s.status && s.status.message ? ' \u2014 ' + s.status.message : ''));
    kv(dl, 'surface', s.surface);
    kv(dl, 'lane', s.lane);
    kv(dl, 'duration', fmtDur(s.durationNs / 1e6));
    kv(dl, 'start', s.startTime);
    kv(dl, 'trace', s.traceId);
    kv(dl, 'span', s.spanId);
    kv(dl, 'parent', s.parentSpanId || '\u2014');
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
      d.appendChild(el('div', 'when', '+' + fmtDur(parseTime(e.time) - s._start) + ' \u00b7 ' + e.level));
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
})();`;
