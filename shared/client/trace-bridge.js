// kit browser trace bridge (plain browser JavaScript, no build step).
//
// Turned on by <html data-kit-trace>, by its own <script data-kit-trace> tag (what a traced kit app
// injects) or window.__kitTraceEnabled = true (set before this script runs).
// Records frontend spans for the page navigation and for same-origin fetch() calls, adds a W3C
// `traceparent` header to those fetches so server spans join the same trace, and posts finished spans to
// the collector's ingest endpoint (default /_kit/traces/browser; override with
// <html data-kit-trace-endpoint="/path"> or window.__kitTraceEndpoint) with fetch(..., {keepalive: true}).
//
// window.__kitTrace = { enabled, start(name, options), end(span, status, message), traceparent(span),
//                       fetch(input, init), flush() }
// The parent of a new span is the innermost span started with start() and not yet ended, else the
// document's own server span: window.__kitTraceparent ("00-<trace>-<span>-<flags>") when the page sets
// it, else the `traceparent` entry of the document's Server-Timing header (traced kit apps send it);
// else none (a new trace). The navigation span is the parent of fetches made while the page loads.
(function () {
  'use strict';
  if (typeof window === 'undefined' || window.__kitTrace) return;

  var root = document.documentElement;
  var own = document.currentScript;
  var enabled =
    window.__kitTraceEnabled === true ||
    (root !== null && root.hasAttribute('data-kit-trace')) ||
    (own !== null && own !== undefined && own.hasAttribute('data-kit-trace'));
  var endpoint = String(
    window.__kitTraceEndpoint || (root && root.getAttribute('data-kit-trace-endpoint')) || '/_kit/traces/browser',
  );
  var nativeFetch = typeof window.fetch === 'function' ? window.fetch.bind(window) : null;
  var LANES = [
    'route',
    'guard',
    'handler',
    'ssr',
    'action',
    'api',
    'fragment',
    'contract',
    'job',
    'island',
    'nav',
    'user',
  ];
  var MAX_BATCH_SPANS = 128;
  var MAX_BODY_CHARS = 60000; // keepalive request bodies are limited to 64 KiB in total
  var SEND_DELAY_MS = 200;

  var stack = [];
  var queue = [];
  var timer = 0;
  var dropped = 0;

  function hex(bytes) {
    var out = '';
    for (var i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    return out;
  }
  function randomId(byteCount) {
    var bytes = new Uint8Array(byteCount);
    for (;;) {
      crypto.getRandomValues(bytes);
      for (var i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return hex(bytes);
    }
  }
  var TRACEPARENT = /^[ \t]*([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?[ \t]*$/;
  function parseTraceparent(value) {
    var m = TRACEPARENT.exec(String(value || ''));
    if (!m || m[1] === 'ff' || (m[1] === '00' && m[5]) || /^0+$/.test(m[2]) || /^0+$/.test(m[3])) return null;
    return { traceId: m[2], spanId: m[3] };
  }
  function isoTime(perfMs) {
    var epoch = performance.timeOrigin + perfMs;
    var ms = Math.floor(epoch);
    var ns = Math.round((epoch - ms) * 1e6);
    if (ns >= 1e6) {
      ms += 1;
      ns -= 1e6;
    }
    return new Date(ms).toISOString().slice(0, -1) + String(ns).padStart(6, '0') + 'Z';
  }
  /** The document's server span, from the navigation's Server-Timing entry named traceparent. */
  function documentTraceparent() {
    try {
      var nav = performance.getEntriesByType('navigation')[0];
      var timing = (nav && nav.serverTiming) || [];
      for (var i = 0; i < timing.length; i++) if (timing[i].name === 'traceparent') return timing[i].description;
    } catch (_e) {
      /* no navigation timing */
    }
    return '';
  }
  var serverParent = documentTraceparent();
  function currentParent() {
    if (stack.length > 0) return stack[stack.length - 1];
    return parseTraceparent(window.__kitTraceparent || serverParent);
  }

  /** Starts a span. options: {lane, attributes: {key: value}, active: false to keep it off the parent stack}. */
  function start(name, options) {
    if (!enabled) return null;
    options = options || {};
    var parent = currentParent();
    var attributes = [];
    var given = options.attributes || {};
    Object.keys(given).forEach(function (k) {
      attributes.push({ key: k, value: given[k] });
    });
    var span = {
      traceId: parent ? parent.traceId : randomId(16),
      spanId: randomId(8),
      parentSpanId: parent ? parent.spanId : '',
      name: String(name),
      surface: 'frontend',
      lane: LANES.indexOf(options.lane) >= 0 ? options.lane : 'user',
      attributes: attributes,
      events: [],
      status: { code: 'unset', message: '' },
      _start: typeof options.startTime === 'number' ? options.startTime : performance.now(),
      _ended: false,
    };
    if (options.active !== false) stack.push(span);
    return span;
  }

  /** Ends a span with an optional status ('ok' | 'error' | 'unset') and message, and queues it for sending. */
  function end(span, status, message) {
    if (!span || span._ended) return;
    span._ended = true;
    var at = stack.lastIndexOf(span);
    if (at >= 0) stack.splice(at, 1);
    var stop = performance.now();
    if (status === 'ok' || status === 'error' || status === 'unset')
      span.status = { code: status, message: message ? String(message) : '' };
    queue.push({
      traceId: span.traceId,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      name: span.name,
      surface: span.surface,
      lane: span.lane,
      attributes: span.attributes,
      events: span.events,
      status: span.status,
      startTime: isoTime(span._start),
      endTime: isoTime(stop),
      durationNs: Math.max(0, Math.round((stop - span._start) * 1e6)),
    });
    if (queue.length >= MAX_BATCH_SPANS) flush();
    else if (!timer) timer = setTimeout(flush, SEND_DELAY_MS);
  }

  /** The traceparent header value for a span (default: the current parent), or '' when there is none. */
  function traceparent(span) {
    var s = span || currentParent();
    return s ? '00-' + s.traceId + '-' + s.spanId + '-01' : '';
  }

  /** Sends every queued span now, in batches that fit a keepalive request. */
  function flush() {
    if (timer) {
      clearTimeout(timer);
      timer = 0;
    }
    var sends = [];
    while (queue.length > 0) {
      var batch = [];
      var size = 2;
      while (queue.length > 0 && batch.length < MAX_BATCH_SPANS) {
        var text = JSON.stringify(queue[0]);
        if (text.length + 1 > MAX_BODY_CHARS) {
          queue.shift();
          dropped++;
          continue;
        }
        if (size + text.length + 1 > MAX_BODY_CHARS) break;
        batch.push(queue.shift());
        size += text.length + 1;
      }
      if (batch.length === 0) continue;
      if (!nativeFetch) continue;
      sends.push(
        nativeFetch(endpoint, {
          method: 'POST',
          keepalive: true,
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(batch),
        }).then(
          function () {},
          function () {},
        ),
      );
    }
    return Promise.all(sends).then(function () {});
  }

  function requestInfo(input, init) {
    var isRequest = typeof Request !== 'undefined' && input instanceof Request;
    var url;
    try {
      url = new URL(isRequest ? input.url : String(input), location.href);
    } catch (_e) {
      return null;
    }
    var method = (init && init.method) || (isRequest ? input.method : 'GET');
    return { url: url, method: String(method).toUpperCase(), isRequest: isRequest };
  }

  /** fetch() that records a span for same-origin requests and sends them a traceparent header. */
  function tracedFetch(input, init) {
    if (!nativeFetch) return Promise.reject(new TypeError('fetch is not available'));
    var info = enabled ? requestInfo(input, init) : null;
    if (
      !info ||
      info.url.origin !== location.origin ||
      info.url.pathname === new URL(endpoint, location.href).pathname
    ) {
      return nativeFetch(input, init);
    }
    var lane = init && LANES.indexOf(init.kitTraceLane) >= 0 ? init.kitTraceLane : 'api';
    var span = start(info.method + ' ' + info.url.pathname, {
      lane: lane,
      active: false,
      attributes: { 'url.path': info.url.pathname, 'http.request.method': info.method },
    });
    var headers = new Headers((init && init.headers) || (info.isRequest ? input.headers : undefined));
    if (!headers.has('traceparent')) headers.set('traceparent', traceparent(span));
    var nextInit = {};
    if (init)
      Object.keys(init).forEach(function (k) {
        if (k !== 'kitTraceLane') nextInit[k] = init[k];
      });
    nextInit.headers = headers;
    return nativeFetch(input, nextInit).then(
      function (res) {
        span.attributes.push({ key: 'http.response.status_code', value: res.status });
        end(span, res.ok ? 'ok' : 'error', res.ok ? '' : 'HTTP ' + res.status);
        return res;
      },
      function (err) {
        end(span, 'error', err && err.message ? err.message : String(err));
        throw err;
      },
    );
  }

  window.__kitTrace = {
    enabled: enabled,
    start: start,
    end: end,
    traceparent: traceparent,
    fetch: tracedFetch,
    flush: flush,
    dropped: function () {
      return dropped;
    },
  };
  if (!enabled) return;
  if (nativeFetch) window.fetch = tracedFetch;

  // The navigation span covers the document load; it starts at the navigation's time origin.
  var nav = start('navigation ' + location.pathname, {
    lane: 'nav',
    startTime: 0,
    attributes: { 'url.path': location.pathname },
  });
  function finishNavigation() {
    end(nav, 'ok');
  }
  if (document.readyState === 'complete') setTimeout(finishNavigation, 0);
  else
    window.addEventListener(
      'load',
      function () {
        setTimeout(finishNavigation, 0);
      },
      { once: true },
    );

  // Send what is queued before the page goes away.
  window.addEventListener('pagehide', function () {
    flush();
  });
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'hidden') flush();
  });
})();
