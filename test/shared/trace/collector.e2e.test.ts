import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import {
  SSE_EVENT,
  background,
  newCollector,
  newTracer,
  withAttributes,
  withExportQueueSize,
  withSink,
  type Collector,
  type SpanSnapshot,
} from '#shared/trace/index.js';
import { waitFor } from '../../helpers/wait.js';
import { SseClient, close, http, listen } from './helpers.js';

const MOUNT = '/_kit/traces';

function browserSpan(i: number, extra: Partial<SpanSnapshot> = {}): Record<string, unknown> {
  return {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: (i + 1).toString(16).padStart(16, '0'),
    parentSpanId: '',
    name: `fetch /api/${i}`,
    surface: 'frontend',
    lane: 'api',
    attributes: [{ key: 'url.path', value: `/api/${i}` }],
    events: [],
    status: { code: 'ok', message: '' },
    startTime: '2025-01-02T03:04:05.100Z',
    endTime: '2025-01-02T03:04:05.250Z',
    durationNs: 150_000_000,
    ...extra,
  };
}

/** A server request span of a route, as a page could forge one. */
const spoofed = browserSpan(2, {
  name: 'GET /spoofed',
  surface: 'backend',
  attributes: [
    { key: 'http.route', value: '/spoofed' },
    { key: 'http.request.method', value: 'GET' },
    { key: 'http.response.status_code', value: 200 },
  ],
});

/** A server that mounts the collector the way an app does: under the prefix, without stripping it. */
async function serve(collector: Collector, strip = false): Promise<{ server: Server; url: string }> {
  const handler = collector.handler({ prefix: MOUNT });
  const server = createServer((req, res) => {
    if (strip && req.url!.startsWith(MOUNT)) req.url = req.url!.slice(MOUNT.length) || '/';
    if (req.url!.startsWith(MOUNT) || strip) return handler(req, res);
    res.writeHead(404).end();
  });
  const url = await listen(server);
  return { server, url };
}

describe('trace: collector over HTTP', () => {
  let collector: Collector;
  let server: Server;
  let url: string;

  beforeEach(async () => {
    collector = newCollector(8, { ingestRateLimit: 1000, sseLimit: 2 });
    ({ server, url } = await serve(collector));
  });
  afterEach(async () => {
    collector.close();
    await close(server);
  });

  async function ingest(
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: string }> {
    return http(`${url}${MOUNT}/browser`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  it('lists stored spans oldest first with dropped, rejected and health', async () => {
    const tracer = newTracer(withSink(collector));
    for (let i = 0; i < 10; i++) tracer.start(background(), `s${i}`, withAttributes({ i }))[1].end();
    await tracer.flush();
    for (const path of [MOUNT, `${MOUNT}/`, `${MOUNT}/data`, `${MOUNT}?x=1`]) {
      const res = await http(url + path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers['content-type']!, /^application\/json/);
      assert.equal(res.headers['cache-control'], 'no-store');
      const body = JSON.parse(res.body) as {
        spans: SpanSnapshot[];
        dropped: number;
        rejected: number;
        health: Record<string, number>;
      };
      assert.deepEqual(
        body.spans.map((s) => s.name),
        ['s2', 's3', 's4', 's5', 's6', 's7', 's8', 's9'],
      );
      assert.equal(body.dropped, 2);
      assert.equal(body.rejected, 0);
      assert.equal(body.health.spans, 8);
      assert.equal(body.health.sseLimit, 2);
      assert.equal(body.health.subscriberQueueCapacity, 16);
    }
    const stats = JSON.parse((await http(`${url}${MOUNT}/stats`)).body) as { dropped: number };
    assert.equal(stats.dropped, 2);
  });

  it('works when the caller strips the prefix', async () => {
    const c = newCollector(4);
    const { server: s, url: u } = await serve(c, true);
    try {
      c.record([JSON.parse(JSON.stringify(browserSpan(1)))]);
      assert.equal((JSON.parse((await http(`${u}${MOUNT}`)).body) as { spans: unknown[] }).spans.length, 1);
      assert.equal((await http(`${u}${MOUNT}/viewer`)).status, 200);
    } finally {
      c.close();
      await close(s);
    }
  });

  it('streams kit-trace events: stored spans first, then new ones', async () => {
    const tracer = newTracer(withSink(collector));
    tracer.start(background(), 'before')[1].end();
    await tracer.flush();
    const sse = await SseClient.open(`${url}${MOUNT}/events`);
    try {
      assert.equal(sse.status, 200);
      assert.match(sse.headers['content-type']!, /^text\/event-stream/);
      await sse.waitFor(1);
      tracer.start(background(), 'after')[1].end();
      await tracer.flush();
      assert.equal((await ingest(browserSpan(7))).status, 204);
      await sse.waitFor(3);
      assert.deepEqual(
        sse.events.map((e) => e.event),
        [SSE_EVENT, SSE_EVENT, SSE_EVENT],
      );
      assert.deepEqual(
        sse.events.map((e) => (JSON.parse(e.data) as SpanSnapshot).name),
        ['before', 'after', 'fetch /api/7'],
      );
    } finally {
      sse.close();
    }
  });

  it('streams on Accept: text/event-stream at the list path', async () => {
    const sse = await SseClient.open(`${url}${MOUNT}`, { accept: 'text/event-stream' });
    try {
      assert.match(sse.headers['content-type']!, /^text\/event-stream/);
      assert.equal((await ingest(browserSpan(1))).status, 204);
      await sse.waitFor(1);
      assert.equal(sse.events[0]!.event, 'kit-trace');
    } finally {
      sse.close();
    }
  });

  it('refuses subscribers over the cap with 429 and frees the slot when one leaves', async () => {
    const a = await SseClient.open(`${url}${MOUNT}/events`);
    const b = await SseClient.open(`${url}${MOUNT}/events`);
    const c = await SseClient.open(`${url}${MOUNT}/events`);
    assert.equal(c.status, 429);
    c.close();
    assert.equal(collector.health().subscribers, 2);
    a.close();
    await waitFor(() => collector.health().subscribers === 1, {
      what: 'the collector to forget the closed subscriber',
    });
    const d = await SseClient.open(`${url}${MOUNT}/events`);
    assert.equal(d.status, 200);
    b.close();
    d.close();
  });

  it('ingests one span or a batch and answers 204', async () => {
    assert.equal((await ingest(browserSpan(1))).status, 204);
    assert.equal(
      (await ingest([browserSpan(2), browserSpan(3)], { 'content-type': 'application/json; charset=utf-8' })).status,
      204,
    );
    assert.equal((await ingest(browserSpan(4), { 'content-type': 'application/vnd.kit+json' })).status, 204);
    assert.equal((await ingest(browserSpan(5), { origin: url })).status, 204, 'a same-origin Origin header');
    assert.deepEqual(
      collector.snapshots().map((s) => s.name),
      ['fetch /api/1', 'fetch /api/2', 'fetch /api/3', 'fetch /api/4', 'fetch /api/5'],
    );
    assert.equal(collector.rejected(), 0);
  });

  it('refuses ingest without an Origin exactly as a cross-origin one', async () => {
    const none = await http(`${url}${MOUNT}/browser`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(browserSpan(1)),
    });
    const cross = await ingest(browserSpan(1), { origin: 'http://evil.example' });
    assert.equal(none.status, 403);
    assert.equal(none.body, cross.body);
    assert.equal(collector.snapshots().length, 0);
  });

  it('answers only requests for a loopback host name: a rebound name gets 421 on every route', async () => {
    const port = new URL(url).port;
    const evil = { host: `attacker.example:${port}` };
    for (const path of ['', '/', '/data', '/stats', '/events', '/viewer']) {
      const r = await http(`${url}${MOUNT}${path}`, { headers: evil });
      assert.equal(r.status, 421, path);
      assert.doesNotMatch(r.body, /fetch \/api/);
    }
    const sse = await http(`${url}${MOUNT}/events`, { headers: { ...evil, accept: 'text/event-stream' } });
    assert.equal(sse.status, 421);
    const fed = await ingest(browserSpan(1), { ...evil, origin: `http://attacker.example:${port}` });
    assert.equal(fed.status, 421);
    assert.equal(collector.snapshots().length, 0);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`, `127.1.2.3`])
      assert.equal((await http(`${url}${MOUNT}/stats`, { headers: { host } })).status, 200, host);
  });

  it('rejects bad ingest requests with the right status, records nothing and counts each', async () => {
    const big = JSON.stringify([browserSpan(1, { name: 'x'.repeat(1024 * 1024) })]);
    const cases: [string, Promise<{ status: number; body: string }>, number, RegExp][] = [
      ['cross-origin', ingest(browserSpan(1), { origin: 'http://evil.example' }), 403, /same-origin Origin/],
      ['other port', ingest(browserSpan(1), { origin: url.replace(/:(\d+)$/, ':1') }), 403, /same-origin Origin/],
      ['origin null', ingest(browserSpan(1), { origin: 'null' }), 403, /same-origin Origin/],
      [
        'text/plain',
        ingest(browserSpan(1), { 'content-type': 'text/plain' }),
        415,
        /Content-Type must be application\/json/,
      ],
      ['form', ingest('a=1', { 'content-type': 'application/x-www-form-urlencoded' }), 415, /Content-Type/],
      ['too large', ingest(big), 413, /exceeds 1048576 bytes/],
      [
        'too many spans',
        ingest(Array.from({ length: 129 }, (_, i) => browserSpan(i))),
        413,
        /batch of 129 spans exceeds the limit of 128/,
      ],
      ['empty batch', ingest([]), 400, /batch is empty/],
      ['not JSON', ingest('{"traceId":'), 400, /not valid JSON/],
      ['trailing data', ingest(JSON.stringify(browserSpan(1)) + ' x'), 400, /not valid JSON/],
      [
        'invalid span in a batch',
        ingest([browserSpan(1), browserSpan(2, { traceId: 'zz' })]),
        400,
        /spans\[1\]\.traceId: must be 32 lowercase hex/,
      ],
      [
        'unknown field',
        ingest(browserSpan(1, { color: 'red' } as Partial<SpanSnapshot>)),
        400,
        /span\.color: unknown field/,
      ],
      [
        'a server span from the browser',
        ingest([browserSpan(1), spoofed]),
        400,
        /spans\[1\]\.surface: must be "frontend": a browser reports the spans that ran in it/,
      ],
    ];
    for (const [name, pending, status, message] of cases) {
      const res = await pending;
      assert.equal(res.status, status, name);
      assert.match((JSON.parse(res.body) as { error: string }).error, message, name);
    }
    assert.equal(collector.snapshots().length, 0, 'nothing of a rejected batch is recorded');
    const routes = (await http(`${url}${MOUNT}/api/routes`)).body;
    assert.ok(!routes.includes('/spoofed'), `a browser cannot add a route to the figures: ${routes}`);
    assert.equal(collector.rejected(), cases.length);
    const list = JSON.parse((await http(`${url}${MOUNT}`)).body) as { rejected: number };
    assert.equal(list.rejected, cases.length);
  });

  it('honours X-Forwarded-Proto and Forwarded proto= for the origin check', async () => {
    const host = url.replace('http://', '');
    assert.equal(
      (await ingest(browserSpan(1), { origin: `https://${host}`, 'x-forwarded-proto': 'https' })).status,
      204,
    );
    assert.equal(
      (await ingest(browserSpan(2), { origin: `https://${host}`, forwarded: 'for=1.2.3.4;proto=https' })).status,
      204,
    );
    assert.equal((await ingest(browserSpan(3), { origin: `https://${host}` })).status, 403);
  });

  it('rate-limits ingest per client with 429', async () => {
    const c = newCollector(16, { ingestRateLimit: 3, ingestRateWindowMs: 60_000 });
    const { server: s, url: u } = await serve(c);
    try {
      const send = () =>
        http(`${u}${MOUNT}/browser`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: u },
          body: JSON.stringify(browserSpan(1)),
        });
      assert.deepEqual([(await send()).status, (await send()).status, (await send()).status], [204, 204, 204]);
      const limited = await send();
      assert.equal(limited.status, 429);
      assert.equal(limited.headers['retry-after'], '60');
      assert.equal(c.rejected(), 1);
    } finally {
      c.close();
      await close(s);
    }
  });

  it('answers 405 for other methods and 404 for unknown paths', async () => {
    const res = await http(`${url}${MOUNT}`, { method: 'DELETE' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'GET, HEAD, POST');
    assert.equal((await http(`${url}${MOUNT}/nope`)).status, 404);
    assert.equal((await http(`${url}${MOUNT}/browser`)).status, 404, 'GET of the ingest path');
  });

  it('serves the viewer page with a strict content security policy', async () => {
    const res = await http(`${url}${MOUNT}/viewer`);
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type']!, /^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    assert.ok(res.body.includes(`<script nonce="${nonce}">`));
    assert.ok(res.body.includes(`<meta name="kit-trace-base" content="${MOUNT}">`));
    assert.ok(!/https?:\/\//.test(res.body.replace(/http:\/\/www\.w3\.org\/[^"]*/g, '')), 'no external resources');
    assert.match(csp, /default-src 'none'/);
  });

  it('the viewer handler serves the page at its root and redirects the bare mount to a trailing slash', async () => {
    const c = newCollector(4);
    const viewer = c.viewerHandler({ prefix: MOUNT });
    const s = createServer((req, res) => viewer(req, res));
    const u = await listen(s);
    try {
      const redirect = await http(`${u}${MOUNT}?a=1`);
      assert.equal(redirect.status, 308);
      assert.equal(redirect.headers.location, `${MOUNT}/?a=1`);
      assert.match((await http(`${u}${MOUNT}/`)).body, /<title>kit trace<\/title>/);
      assert.equal((await http(`${u}${MOUNT}/data`)).status, 200);
      assert.equal((await http(`${u}${MOUNT}/viewer`)).status, 404);
    } finally {
      c.close();
      await close(s);
    }
  });

  it('drops events for a subscriber that does not read, and counts them', async () => {
    const c = newCollector(4, { subscriberBuffer: 2 });
    const { server: s, url: u } = await serve(c);
    const sse = await SseClient.open(`${u}${MOUNT}/events`);
    try {
      // Stop reading: the socket buffers fill, then the per-subscriber queue, then messages are dropped.
      (sse as unknown as { req: { socket: { pause(): void } } }).req.socket.pause();
      const tracer = newTracer(withSink(c));
      const big = 'x'.repeat(2000);
      // Rounds of spans, the socket writes running between them, until the collector drops some.
      await waitFor(
        async () => {
          for (let i = 0; i < 200; i++)
            tracer.start(background(), 'span', withAttributes({ a: big, b: big, c: big, d: big, e: big }))[1].end();
          await tracer.flush();
          return c.dropped() > 0;
        },
        { what: 'the collector to drop messages for the subscriber that does not read', every: 5 },
      );
      const h = c.health();
      assert.ok(h.dropped > 0, 'a slow subscriber loses messages instead of buffering without bound');
      assert.ok(h.subscriberQueueDepth <= 2);
    } finally {
      sse.close();
      c.close();
      await close(s);
    }
  });
});

describe('trace: collector memory', () => {
  it('stays bounded after a million spans into a collector of limit 1,024', async function () {
    this.timeout(60_000);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const collector = newCollector(1024);
    const tracer = newTracer(withSink(collector), withExportQueueSize(4096));
    const feed = async (n: number) => {
      for (let i = 0; i < n; i += 2000) {
        for (let j = 0; j < 2000; j++)
          tracer.start(background(), 'span', withAttributes({ i: j, route: '/x', ok: true }))[1].end();
        await tracer.flush();
      }
    };
    await feed(50_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    await feed(1_000_000);
    gc();
    const after = process.memoryUsage().heapUsed;
    assert.equal(collector.health().spans, 1024);
    assert.equal(tracer.health().exportedSpans, 1_050_000);
    assert.equal(collector.dropped(), 1_050_000 - 1024);
    assert.ok(after - before < 4 * 1024 * 1024, `heap grew by ${after - before} bytes`);
  });
});
