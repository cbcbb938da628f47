// The browser trace bridge (shared/client/trace-bridge.js) in headless Chromium against a real server that
// traces its requests and mounts the collector.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import {
  newCollector,
  newTracer,
  traceRequest,
  withSink,
  type Collector,
  type SpanSnapshot,
  type Tracer,
} from '#shared/trace/index.js';
import { repoRoot } from '../../helpers/repo.js';
import { waitFor } from '../../helpers/wait.js';
import { close, launchChromium, listen } from './helpers.js';

const MOUNT = '/_kit/traces';
const bridge = readFileSync(join(repoRoot, 'shared', 'client', 'trace-bridge.js'), 'utf8');

function page(attrs: string, before = ''): string {
  return `<!doctype html><html ${attrs}><head><meta charset="utf-8">${before}<script src="/trace-bridge.js"></script></head><body>ok</body></html>`;
}

describe('trace: browser bridge in Chromium', function () {
  this.timeout(30_000);
  let browser: Browser;
  let collector: Collector;
  let tracer: Tracer;
  let server: Server;
  let other: Server;
  let url: string;
  let otherUrl: string;
  let seenHeaders: Record<string, IncomingHttpHeaders>;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    collector = newCollector(64);
    tracer = newTracer(withSink(collector));
    seenHeaders = {};
    const handler = collector.handler({ prefix: MOUNT });
    server = createServer((req, res) => {
      const path = req.url!.split('?')[0]!;
      if (path.startsWith(MOUNT)) return handler(req, res);
      if (path === '/trace-bridge.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bridge);
      if (path === '/on') return res.writeHead(200, { 'content-type': 'text/html' }).end(page('data-kit-trace'));
      if (path === '/off') return res.writeHead(200, { 'content-type': 'text/html' }).end(page(''));
      if (path === '/recorded') {
        // Wraps fetch before the bridge loads, so the test sees the options the bridge posts with.
        const spy =
          '<script>window.__posts=[];var f=window.fetch.bind(window);window.fetch=function(i,o){window.__posts.push({url:String(i),o:o});return f(i,o)}</script>';
        return res.writeHead(200, { 'content-type': 'text/html' }).end(page('data-kit-trace', spy));
      }
      if (!path.startsWith('/api/')) return res.writeHead(404).end();
      seenHeaders[path] = req.headers;
      const [, span] = traceRequest(tracer, req, { route: '/api/{name}', lane: 'api' }, res);
      res
        .writeHead(path === '/api/fail' ? 500 : 200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ traceId: span.traceId }));
    });
    url = await listen(server);
    other = createServer((req, res) => {
      seenHeaders['other'] = req.headers;
      res.writeHead(200, { 'access-control-allow-origin': '*' }).end('x');
    });
    otherUrl = await listen(other);
  });
  afterEach(async () => {
    collector.close();
    await close(server);
    await close(other);
  });

  function waitForSpans(count: number): Promise<SpanSnapshot[]> {
    return waitFor(
      () => {
        const spans = collector.snapshots();
        assert.ok(spans.length >= count, `got ${spans.map((s) => s.name).join(', ')}`);
        return spans;
      },
      { what: `${count} spans at the collector`, every: 50 },
    );
  }

  it('records the navigation and same-origin fetches, propagates traceparent and posts the spans', async () => {
    const p = await browser.newPage();
    try {
      await p.goto(`${url}/on`);
      const result = await p.evaluate(async (o) => {
        const a = await (await fetch('/api/items?q=secret')).json();
        const b = await fetch('/api/fail');
        await fetch(o + '/x');
        await (window as unknown as { __kitTrace: { flush(): Promise<void> } }).__kitTrace.flush();
        return {
          a,
          failStatus: b.status,
          enabled: (window as unknown as { __kitTrace: { enabled: boolean } }).__kitTrace.enabled,
        };
      }, otherUrl);
      assert.equal(result.enabled, true);
      assert.equal(result.failStatus, 500);
      const traceparent = String(seenHeaders['/api/items']!.traceparent);
      assert.match(traceparent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      assert.equal(seenHeaders['other']!.traceparent, undefined, 'no traceparent to another origin');
      await tracer.flush();
      const spans = await waitForSpans(5);
      const byName = new Map(spans.map((s) => [s.name, s]));
      const fetchSpan = byName.get('GET /api/items')!;
      assert.ok(fetchSpan, spans.map((s) => s.name).join(', '));
      assert.equal(fetchSpan.surface, 'frontend');
      assert.equal(fetchSpan.lane, 'api');
      assert.equal(fetchSpan.status.code, 'ok');
      assert.deepEqual(
        fetchSpan.attributes.find((a) => a.key === 'url.path'),
        { key: 'url.path', value: '/api/items' },
        'the query string is not recorded',
      );
      assert.equal(traceparent, `00-${fetchSpan.traceId}-${fetchSpan.spanId}-01`, 'the header names the fetch span');
      const serverSpan = spans.find(
        (s) => s.surface === 'backend' && s.attributes.some((a) => a.key === 'url.path' && a.value === '/api/items'),
      )!;
      assert.equal(serverSpan.traceId, fetchSpan.traceId, 'the server span joins the browser trace');
      assert.equal(serverSpan.parentSpanId, fetchSpan.spanId);
      assert.equal(result.a.traceId, fetchSpan.traceId);
      const failed = byName.get('GET /api/fail')!;
      assert.deepEqual(failed.status, { code: 'error', message: 'HTTP 500' });
      const nav = byName.get('navigation /on')!;
      assert.equal(nav.lane, 'nav');
      assert.equal(nav.surface, 'frontend');
      assert.equal(nav.status.code, 'ok');
      assert.equal(spans.filter((s) => s.surface === 'frontend').length, 3, 'the cross-origin fetch is not traced');
      assert.equal(collector.rejected(), 0);
    } finally {
      await p.close();
    }
  });

  it('posts spans with fetch keepalive and a JSON content type', async () => {
    const p = await browser.newPage();
    try {
      await p.goto(`${url}/recorded`);
      // Flushed until the navigation span (ended by a timer the load event sets) has been posted.
      const posts = await waitFor(
        () =>
          p.evaluate(async () => {
            const w = window as unknown as {
              __kitTrace: { flush(): Promise<void> };
              __posts: { url: string; o: RequestInit }[];
            };
            await w.__kitTrace.flush();
            if (w.__posts.length === 0) return null;
            return w.__posts.map((x) => ({
              url: x.url,
              keepalive: x.o.keepalive,
              method: x.o.method,
              type: (x.o.headers as Record<string, string>)['Content-Type'],
            }));
          }),
        { what: 'the page to post its navigation span' },
      );
      assert.deepEqual(posts, [{ url: `${MOUNT}/browser`, keepalive: true, method: 'POST', type: 'application/json' }]);
      const spans = await waitForSpans(1);
      assert.equal(spans[0]!.name, 'navigation /recorded');
    } finally {
      await p.close();
    }
  });

  it('does nothing unless enabled', async () => {
    const p = await browser.newPage();
    try {
      await p.goto(`${url}/off`);
      const state = await p.evaluate(async () => {
        const w = window as unknown as { __kitTrace: { enabled: boolean; start(n: string): unknown } };
        await fetch('/api/plain');
        return {
          enabled: w.__kitTrace.enabled,
          span: w.__kitTrace.start('x'),
          patched: window.fetch === (w.__kitTrace as unknown as { fetch: unknown }).fetch,
        };
      });
      assert.deepEqual(state, { enabled: false, span: null, patched: false });
      assert.equal(seenHeaders['/api/plain']!.traceparent, undefined);
      // Whatever the page would send is sent now: after the load event's zero-delay timer (which ends
      // an enabled bridge's navigation span), a flush, answered before it resolves.
      await p.evaluate(async () => {
        await new Promise((r) => setTimeout(r, 0));
        await (window as unknown as { __kitTrace: { flush(): Promise<void> } }).__kitTrace.flush();
      });
      await tracer.flush();
      assert.deepEqual(
        collector.snapshots().filter((s) => s.surface === 'frontend'),
        [],
      );
    } finally {
      await p.close();
    }
  });

  it('nests spans started with __kitTrace.start and continues the document trace from __kitTraceparent', async () => {
    const p = await browser.newPage();
    try {
      await p.goto(`${url}/on`);
      await p.evaluate(async () => {
        type Bridge = {
          start(n: string, o?: object): object;
          end(s: object, st?: string, message?: string): void;
          flush(): Promise<void>;
          traceparent(s?: object): string;
        };
        const w = window as unknown as { __kitTrace: Bridge; __kitTraceparent?: string };
        // After the load event's zero-delay timer, which ends the navigation span.
        await new Promise((r) => setTimeout(r, 0));
        w.__kitTraceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
        const outer = w.__kitTrace.start('checkout', { lane: 'user' });
        const inner = w.__kitTrace.start('validate', { attributes: { step: 2 } });
        w.__kitTrace.end(inner, 'ok');
        w.__kitTrace.end(outer, 'error', 'card declined');
        await w.__kitTrace.flush();
      });
      const spans = await waitForSpans(3);
      const outer = spans.find((s) => s.name === 'checkout')!;
      const inner = spans.find((s) => s.name === 'validate')!;
      assert.equal(outer.traceId, '0af7651916cd43dd8448eb211c80319c');
      assert.equal(outer.parentSpanId, 'b7ad6b7169203331');
      assert.equal(inner.parentSpanId, outer.spanId);
      assert.deepEqual(outer.status, { code: 'error', message: 'card declined' });
      assert.deepEqual(inner.attributes, [{ key: 'step', value: 2 }]);
    } finally {
      await p.close();
    }
  });
});
