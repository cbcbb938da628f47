// The viewer in headless Chromium: live updates over SSE, waterfall, details, filters, pause/clear,
// counters, and span data that stays inert text.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import {
  background,
  newCollector,
  newTracer,
  withAttributes,
  withLane,
  withSink,
  withSource,
  withStartTime,
  withSurface,
  type Collector,
  type Tracer,
} from '#shared/trace/index.js';
import { close, http, launchChromium, listen } from './helpers.js';

/** Now, as an epoch time in milliseconds with the monotonic clock's precision (spans' start times). */
const epochNow = () => performance.timeOrigin + performance.now();

/**
 * Until the page has drawn what it had scheduled: the viewer renders on the next animation frame
 * after a change, so two frames after an input its answer to it is on the page.
 */
async function framesDrawn(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

const MOUNT = '/_kit/traces';
const XSS_NAME = '<img src=x onerror="window.__xss=1">';
const XSS_VALUE = '<img src=x onerror=window.__xss=2><script>window.__xss=3</script>';

describe('trace: viewer in Chromium', function () {
  this.timeout(30_000);
  let browser: Browser;
  let collector: Collector;
  let tracer: Tracer;
  let server: Server;
  let url: string;
  let page: Page;
  let dialogs: string[];

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    collector = newCollector(256, { ingestRateLimit: 1000, sourceRoot: '/home/dev/shop' });
    tracer = newTracer(withSink(collector));
    const handler = collector.handler({ prefix: MOUNT });
    server = createServer((req, res) => handler(req, res));
    url = await listen(server);
    page = await browser.newPage();
    // Under the test's own timeout, so that a wait that never ends names what it waited for.
    page.setDefaultTimeout(10_000);
    dialogs = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // The viewer reads the route report once a moment after it opens. A test that opens the routes
    // view while that read is still on its way gets no read of its own (one at a time), so every
    // test starts once it is done.
    const firstRoutes = page.waitForResponse((r) => r.url().endsWith('/api/routes'));
    await page.goto(`${url}${MOUNT}/viewer`);
    await page.waitForFunction(() => document.querySelector('#conn')?.className.includes('live'));
    await (await firstRoutes).finished();
    await framesDrawn(page);
  });
  afterEach(async () => {
    await page.close();
    collector.close();
    await close(server);
  });

  /** Records a three-level backend trace (with an error leaf) and returns its root span name. */
  async function recordTrace(
    name: string,
    opts: { leafError?: boolean; lane?: 'route' | 'api' } = {},
  ): Promise<string> {
    // Started in the past instead of waiting: the root lasts 7 ms, the handler and its query 5 ms.
    const t0 = epochNow();
    const [ctx, root] = tracer.start(
      background(),
      name,
      withLane(opts.lane ?? 'route'),
      withAttributes({ 'http.route': '/orders/{id}' }),
      withStartTime(t0 - 7),
    );
    const [ctx2, handler] = tracer.start(
      ctx,
      'handler LoadOrder',
      withLane('handler'),
      withSource({ file: 'app/orders.kit', line: 7, column: 3 }),
      withStartTime(t0 - 5),
    );
    const [, query] = tracer.start(
      ctx2,
      'db.query',
      withLane('user'),
      withAttributes({ 'db.rows': 3 }),
      withStartTime(t0 - 5),
    );
    query.event('warn', 'slow query', { ms: 12 });
    if (opts.leafError) query.setStatus('error', 'timeout');
    query.end();
    handler.end();
    root.end();
    await tracer.flush();
    return name;
  }

  /** Waits until the viewer counts `n` spans: spans stream in as they end, children before their root. */
  async function spansShown(n: number): Promise<void> {
    await page.waitForFunction(
      (k) => document.querySelector('[data-testid=count-spans]')?.textContent === String(k),
      n,
    );
  }

  function rows(): Promise<string[]> {
    return page.$$eval('[data-testid=trace-row] .title .name', (els) => els.map((e) => e.textContent ?? ''));
  }

  it('shows spans recorded while the page is open, live', async () => {
    assert.deepEqual(await rows(), []);
    await recordTrace('GET /orders/1');
    // Spans stream in as they end (children before their root): wait for all three, so the row is
    // titled by the root rather than by the first child that arrived.
    await spansShown(3);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=trace-row]').length === 1);
    assert.deepEqual(await rows(), ['GET /orders/1']);
    assert.equal(await page.textContent('[data-testid=count-spans]'), '3');
    assert.equal(await page.textContent('[data-testid=count-traces]'), '1');
    // A browser span posted to the ingest endpoint appears too.
    const res = await http(`${url}${MOUNT}/browser`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({
        traceId: 'abcdef0123456789abcdef0123456789',
        spanId: '0123456789abcdef',
        name: 'navigation /shop',
        surface: 'frontend',
        lane: 'nav',
        startTime: new Date().toISOString(),
        endTime: new Date(Date.now() + 40).toISOString(),
      }),
    });
    assert.equal(res.status, 204);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=trace-row]').length === 2);
    assert.deepEqual(await rows(), ['navigation /shop', 'GET /orders/1'], 'newest trace first');
  });

  it('expands a trace into a nested waterfall and shows span details', async () => {
    await recordTrace('GET /orders/2');
    await page.click('[data-testid=trace-row]');
    await page.waitForSelector('[data-testid=span-row]');
    const spanRows = await page.$$eval('[data-testid=span-row]', (els) =>
      els.map((e) => {
        const bar = e.querySelector('[data-testid=span-bar]') as HTMLElement;
        return {
          name: e.querySelector('.name')!.textContent,
          depth: Number(e.getAttribute('data-depth')),
          left: parseFloat(bar.style.left),
          width: parseFloat(bar.style.width),
        };
      }),
    );
    assert.deepEqual(
      spanRows.map((r) => [r.name, r.depth]),
      [
        ['GET /orders/2', 0],
        ['handler LoadOrder', 1],
        ['db.query', 2],
      ],
    );
    const [root, handler, query] = spanRows;
    assert.equal(root!.left, 0);
    assert.ok(Math.abs(root!.width - 100) < 0.001, 'the root spans the whole trace');
    assert.ok(handler!.left >= root!.left && handler!.left + handler!.width <= 100.001);
    assert.ok(query!.width <= handler!.width + 0.001, 'durations to scale: a child is not wider than its parent');
    // Details of the selected root, then of the leaf.
    assert.match((await page.textContent('[data-testid=span-details]'))!, /http\.route\s*\/orders\/\{id\}/);
    await page.click('[data-testid=span-row][data-depth="1"]');
    assert.match((await page.textContent('[data-testid=span-details]'))!, /app\/orders\.kit:7:3/);
    await page.click('[data-testid=span-row][data-depth="2"]');
    const details = (await page.textContent('[data-testid=span-details]'))!;
    assert.match(details, /db\.rows\s*3/);
    assert.match(details, /slow query/);
    assert.match(details, /Events \(1\)/);
  });

  it('picks a span on the mouse press, so a redraw before the release does not lose the click', async () => {
    await recordTrace('GET /orders/9');
    await page.click('[data-testid=trace-row]');
    await page.waitForSelector('[data-testid=span-row][data-depth="2"]');
    // Typing a filter and then clicking a row: the press blurs the input, whose change draws the
    // waterfall again on the next frame, before a person's release.
    await page.fill('[data-testid=filter-text]', 'orders');
    await framesDrawn(page);
    const leaf = (await page.$('[data-testid=span-row][data-depth="2"]'))!;
    const box = (await leaf.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await framesDrawn(page);
    assert.equal(await leaf.evaluate((e) => e.isConnected), false, 'the row under the pointer was drawn again');
    await page.mouse.up();
    await framesDrawn(page);
    assert.match((await page.textContent('[data-testid=span-details]'))!, /db\.rows\s*3/);
    assert.equal(await page.getAttribute('[data-testid=span-row].selected', 'data-depth'), '2');
    // The keyboard still picks: Enter on the focused root row.
    await page.focus('[data-testid=span-row][data-depth="0"]');
    await page.keyboard.press('Enter');
    await framesDrawn(page);
    assert.equal(await page.getAttribute('[data-testid=span-row].selected', 'data-depth'), '0');
  });

  it('filters by text, lane, surface and status', async () => {
    await recordTrace('GET /orders/3');
    await recordTrace('POST /api/pay', { leafError: true, lane: 'api' });
    tracer.start(background(), 'worker tick', withSurface('worker'), withLane('job'))[1].end();
    await tracer.flush();
    await spansShown(7);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=trace-row]').length === 3);

    // Waits for these very rows: two filters in a row can show as many rows, and a count alone
    // would pass before the second one re-rendered the list.
    const expectRows = async (expected: string[]) => {
      const want = [...expected].sort();
      await page
        .waitForFunction(
          (w) =>
            JSON.stringify(
              Array.from(
                document.querySelectorAll('[data-testid=trace-row] .title .name'),
                (e) => e.textContent,
              ).sort(),
            ) === w,
          JSON.stringify(want),
          { timeout: 5000 },
        )
        .catch(() => undefined);
      assert.deepEqual((await rows()).sort(), want);
    };
    await page.fill('[data-testid=filter-text]', 'pay');
    await expectRows(['POST /api/pay']);
    await page.fill('[data-testid=filter-text]', 'db.rows'); // attribute keys are searched too
    await expectRows(['GET /orders/3', 'POST /api/pay']);
    await page.fill('[data-testid=filter-text]', '');
    await page.selectOption('[data-testid=filter-lane]', 'job');
    await expectRows(['worker tick']);
    await page.selectOption('[data-testid=filter-lane]', '');
    await page.selectOption('[data-testid=filter-surface]', 'worker');
    await expectRows(['worker tick']);
    await page.selectOption('[data-testid=filter-surface]', '');
    await page.selectOption('[data-testid=filter-status]', 'error');
    await expectRows(['POST /api/pay']);
    await page.selectOption('[data-testid=filter-status]', '');
    await expectRows(['GET /orders/3', 'POST /api/pay', 'worker tick']);
  });

  it('pauses, resumes and clears', async () => {
    await recordTrace('GET /a');
    await spansShown(3);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=trace-row]').length === 1);
    await page.click('[data-testid=pause]');
    await recordTrace('GET /b');
    await page.waitForFunction(() => document.querySelector('#hint')!.textContent === '3 new while paused');
    assert.deepEqual(await rows(), ['GET /a']);
    await page.click('[data-testid=pause]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=trace-row]').length === 2);
    await page.click('[data-testid=clear]');
    assert.equal(await page.locator('[data-testid=trace-row]').count(), 0);
    assert.equal(await page.textContent('[data-testid=count-spans]'), '0');
    await recordTrace('GET /c');
    await spansShown(3);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=trace-row]').length === 1);
    assert.deepEqual(await rows(), ['GET /c']);
  });

  it('shows dropped and rejected counts', async () => {
    const small = newCollector(2);
    const smallTracer = newTracer(withSink(small));
    const handler = small.handler({ prefix: MOUNT });
    const s = createServer((req, res) => handler(req, res));
    const u = await listen(s);
    try {
      for (let i = 0; i < 5; i++) smallTracer.start(background(), `s${i}`)[1].end();
      await smallTracer.flush();
      await http(`${u}${MOUNT}/browser`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
      await page.goto(`${u}${MOUNT}/viewer`);
      await page.waitForFunction(() => document.querySelector('[data-testid=count-rejected]')!.textContent === '1');
      assert.equal(await page.textContent('[data-testid=count-dropped]'), '3');
    } finally {
      small.close();
      await close(s);
    }
  });

  /** A request span as a traced app records it, with a guard child and a handler child. */
  async function recordRequest(route: string, status: number, opts: { ms?: number; file?: string } = {}) {
    // Started in the past instead of waiting: the handler lasts `ms`, after a guard that began with
    // the request.
    const ms = opts.ms ?? 2;
    const t0 = epochNow();
    const [ctx, root] = tracer.start(
      background(),
      `POST ${route}`,
      withLane('action'),
      withAttributes({
        'http.request.method': 'POST',
        'http.route': route,
        'kit.page': 'orders',
        'kit.endpoint.kind': 'action',
      }),
      withStartTime(t0 - ms - 0.5),
    );
    tracer.start(ctx, 'guard auth', withLane('guard'), withStartTime(t0 - ms - 0.5))[1].end();
    const [, handler] = tracer.start(
      ctx,
      'handler Save',
      withLane('handler'),
      withSource({ file: opts.file ?? 'orders/handlers.ts', line: 12, column: 17 }),
      withStartTime(t0 - ms),
    );
    handler.end();
    root.set('http.response.status_code', status);
    if (status >= 500) root.setStatus('error', 'action orders.Save failed: Error: boom');
    else if (status < 400) root.setStatus('ok');
    root.end();
    await tracer.flush();
    return root.traceId;
  }

  it('lists requests with method, route, status code, duration and an error marker; lanes colour the bars', async () => {
    await recordRequest('/orders/{id}', 200);
    await recordRequest('/orders/pay', 500);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=trace-row]').length === 2);
    await spansShown(6);
    const lines = await page.$$eval('[data-testid=trace-request]', (els) => els.map((e) => e.textContent ?? ''));
    assert.match(lines[0]!, /^POST\/orders\/pay500[\d.]+(µs|ms)● error$/);
    assert.match(lines[1]!, /^POST\/orders\/\{id\}200[\d.]+(µs|ms)$/);
    assert.equal(await page.locator('[data-testid=error-marker]').count(), 1);
    await page.click('[data-testid=trace-row]:nth-child(2)');
    await page.waitForSelector('[data-testid=span-row][data-depth="1"]');
    const bars = await page.$$eval('[data-testid=span-bar]', (els) => els.map((e) => e.className));
    assert.deepEqual(bars, ['bar backend lane-action', 'bar backend lane-guard', 'bar backend lane-handler']);
  });

  it('links a span source into the editor: VS Code by default, another editor by setting or deep link', async () => {
    const id = await recordRequest('/orders/{id}', 200);
    await page.goto(`${url}${MOUNT}/viewer/#trace=${id}`);
    await page.waitForSelector('[data-testid=span-row][data-depth="1"]');
    await page.click('[data-testid=span-row] >> text=handler Save');
    const href = () => page.getAttribute('[data-testid=source-link]', 'href');
    const hrefBecomes = (want: string) =>
      page.waitForFunction(
        (w) => document.querySelector('[data-testid=source-link]')?.getAttribute('href') === w,
        want,
      );
    assert.equal(await href(), 'vscode://file/home/dev/shop/orders/handlers.ts:12:17');
    assert.equal(await page.textContent('[data-testid=source-link]'), 'orders/handlers.ts:12:17');
    await page.selectOption('[data-testid=editor]', { label: 'JetBrains' });
    await hrefBecomes('idea://open?file=/home/dev/shop/orders/handlers.ts&line=12&column=17');
    await page.selectOption('[data-testid=editor]', 'custom');
    await page.fill('[data-testid=editor-template]', 'javascript:alert({path})');
    await page.press('[data-testid=editor-template]', 'Enter');
    await framesDrawn(page);
    assert.match((await href())!, /^idea:/, 'a script URL is not accepted as a template');
    const tpl = encodeURIComponent('zed://file{path}:{line}');
    await page.goto(`${url}${MOUNT}/viewer/#trace=${id}&editor=${tpl}`);
    await page.waitForSelector('[data-testid=span-row][data-depth="1"]');
    await page.click('[data-testid=span-row] >> text=handler Save');
    await hrefBecomes('zed://file/home/dev/shop/orders/handlers.ts:12');
  });

  it('shows per-route figures with a latency histogram, and the slowest requests', async () => {
    await recordRequest('/orders/{id}', 200, { ms: 1 });
    await recordRequest('/orders/{id}', 404, { ms: 1 });
    await recordRequest('/orders/pay', 500, { ms: 30 });
    await page.click('[data-testid=view-routes]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=route-row]').length === 2);
    const cells = await page.$$eval('[data-testid=route-row]', (rows) =>
      rows.map((r) =>
        Array.from(r.querySelectorAll('td'))
          .slice(0, 4)
          .map((td) => td.textContent),
      ),
    );
    assert.deepEqual(cells, [
      ['POST /orders/pay', 'action', '1', '1'],
      ['POST /orders/{id}', 'action', '2', '0'],
    ]);
    const bars = await page.$$eval('[data-testid=route-histogram]', (hs) => hs.map((h) => h.children.length));
    assert.deepEqual(bars, [12, 12]);
    // Live: a new request updates the figures without a reload.
    await recordRequest('/orders/pay', 200);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=route-row] td:nth-child(3)')?.textContent === '2',
    );
    await page.click('[data-testid=view-slowest]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=slow-row]').length === 4);
    const slow = await page.$$eval('[data-testid=slow-row]', (rs) => rs.map((r) => r.textContent ?? ''));
    assert.ok(
      slow.some((t) => /POST \/orders\/pay500/.test(t)),
      JSON.stringify(slow),
    );
    await page.click('[data-testid=slow-row] >> text=500');
    await page.waitForSelector('[data-testid=span-row]');
    assert.equal(await page.getAttribute('[data-testid=view-traces]', 'aria-pressed'), 'true');
  });

  it('renders span data as text: an HTML payload stays inert', async () => {
    const [ctx, root] = tracer.start(
      background(),
      XSS_NAME,
      withAttributes({ payload: XSS_VALUE, [XSS_VALUE]: 'key' }),
    );
    root.event('error', XSS_VALUE, { x: XSS_VALUE });
    root.setStatus('error', XSS_VALUE);
    tracer.start(ctx, XSS_VALUE, withSource({ file: XSS_VALUE, line: 1 }))[1].end();
    tracer.start(ctx, 'js source', withSource({ file: 'javascript:window.__xss=4', line: 1 }))[1].end();
    root.end();
    await tracer.flush();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=trace-row]').length === 1);
    await page.click('[data-testid=trace-row]');
    await page.waitForSelector('[data-testid=span-row]');
    await page.click('[data-testid=span-row][data-depth="0"]');
    await page.fill('[data-testid=filter-text]', 'onerror');
    await framesDrawn(page);
    const state = await page.evaluate(() => ({
      xss: (window as unknown as { __xss?: number }).__xss,
      images: document.querySelectorAll('img').length,
      scripts: document.querySelectorAll('script').length,
      text: document.body.textContent ?? '',
    }));
    await page.click('[data-testid=span-row] >> text=js source');
    const link = await page.getAttribute('[data-testid=source-link]', 'href');
    // Not clicked: the page has no handler on it, and what headless Chromium does with an external
    // protocol (sometimes holding the page for the rest of the test) is not the viewer's behaviour.
    assert.equal(link, 'vscode://file/home/dev/shop/javascript:window.__xss=4:1:1', 'a hostile path stays a path');
    // The routes view reads the collector's figures a moment after it opens, then draws them.
    const routesRead = page.waitForResponse((r) => r.url().endsWith('/api/routes'));
    await page.click('[data-testid=view-routes]');
    await (await routesRead).finished();
    await framesDrawn(page);
    assert.equal(state.xss, undefined, 'no injected handler or script ran');
    assert.equal(state.images, 0, 'no element was created from span data');
    assert.equal(state.scripts, 1, 'only the page script exists');
    assert.ok(state.text.includes(XSS_NAME), 'the name shows as text');
    assert.ok(state.text.includes(XSS_VALUE), 'the attribute value shows as text');
    assert.deepEqual(dialogs, []);
  });
});
