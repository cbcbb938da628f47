// A traced app (`kit build --trace`) over real HTTP: each request's span tree shows the stages the
// pipeline ran (match → guard → csrf → decode → handler, load → render, static files) with the `.kit`
// or `.ts` source behind each; statuses follow OpenTelemetry's HTTP server conventions; a thrown error
// becomes an `exception` event with a stack naming the handler's `.ts` line (never the answer); HTML
// answers load the browser bridge; and the collector serves per-route figures.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { attach, runKit, tempDir, type RunningApp } from '../../server/core/app/built-app.js';
import { fixture } from '../../helpers/repo.js';
import { waitFor } from '../../helpers/wait.js';
import { launchChromium } from '../trace/helpers.js';
import type { RoutesReport, SpanSnapshot } from '#shared/trace/index.js';

const SECRET = 'trace-secret-0123456789-abcdefghijklmnop';
const FIXTURE = fixture('trace', 'site');

type Span = SpanSnapshot;

function attr(s: Span, key: string): unknown {
  return s.attributes.find((a) => a.key === key)?.value;
}

export async function startTracedApp(): Promise<{ app: RunningApp; root: string }> {
  const root = tempDir('kit-trace-app-');
  const r = runKit(['build', '--ssr', '--trace', '--out', join(root, 'dist'), '--app', join(root, 'app'), FIXTURE]);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const proc = spawn(process.execPath, [join(root, 'app', 'server.js'), '--addr', '127.0.0.1:0'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: SECRET },
  });
  return { app: await attach(proc), root };
}

describe('traced app: stage spans, statuses, errors, bridge and route figures', function () {
  this.timeout(120000);
  let app: RunningApp;
  let session = '';
  let token = '';

  before(async () => {
    ({ app } = await startTracedApp());
    const page = await fetch(app.url + '/inbox', { headers: { cookie: 'session=ok' } });
    assert.equal(page.status, 200);
    const html = await page.text();
    token = /name="_kit_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
    assert.ok(token !== '' && cookie !== '', 'the page hands out a CSRF token');
    session = `session=ok; ${cookie}`;
  });
  after(async () => {
    await app?.stop();
  });

  /** Sends a request and returns the spans of its trace once the request span has arrived. */
  async function traced(
    path: string,
    init: RequestInit = {},
  ): Promise<{ status: number; body: string; spans: Span[] }> {
    const traceId = [...crypto.getRandomValues(new Uint8Array(16))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    const headers = new Headers(init.headers);
    headers.set('traceparent', `00-${traceId}-00f067aa0ba902b7-01`);
    const r = await fetch(app.url + path, { ...init, headers, redirect: 'manual' });
    const body = await r.text();
    const spans = await waitFor(
      async () => {
        const list = (await (await fetch(app.url + '/_kit/traces')).json()) as { spans: Span[] };
        const mine = list.spans.filter((s) => s.traceId === traceId);
        return mine.some((s) => s.parentSpanId === '00f067aa0ba902b7') ? mine : undefined;
      },
      { what: `the request span of ${path}` },
    );
    return { status: r.status, body, spans };
  }

  function tree(spans: Span[]): { root: Span; children: Span[] } {
    const root = spans.find((s) => s.parentSpanId === '00f067aa0ba902b7')!;
    const children = spans
      .filter((s) => s.parentSpanId === root.spanId)
      .sort((a, b) => (a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0));
    return { root, children };
  }

  function post(fields: Record<string, string>, cookie = session): RequestInit {
    return {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams(fields).toString(),
    };
  }

  it('a guarded action: match → guard → csrf → decode → handler, each with its source and lane', async () => {
    const { status, spans } = await traced('/inbox/send', post({ _kit_csrf: token, subject: 'hi', size: '3' }));
    assert.equal(status, 303);
    const { root, children } = tree(spans);
    assert.equal(root.name, 'POST /inbox/send');
    assert.equal(root.lane, 'action');
    assert.deepEqual(root.status, { code: 'ok', message: '' });
    assert.deepEqual(
      children.map((c) => [c.name, c.lane]),
      [
        ['match /inbox/send', 'route'],
        ['guard auth.ok', 'guard'],
        ['csrf', 'guard'],
        ['decode', 'action'],
        ['handler Send', 'handler'],
      ],
    );
    const [match, guard, csrf, decode, handler] = children as [Span, Span, Span, Span, Span];
    assert.deepEqual([match.source.file, match.source.line, match.source.column], ['inbox.kit', 7, 1], 'the act line');
    assert.deepEqual([root.source.file, root.source.line], ['inbox.kit', 7]);
    assert.deepEqual([guard.source.file, guard.source.line, guard.source.column], ['inbox.kit', 5, 1]);
    assert.equal(attr(guard, 'kit.guard.decision'), 'allow');
    assert.equal(csrf.status.code, 'ok');
    assert.equal(decode.status.code, 'ok');
    assert.deepEqual([handler.source.file, handler.source.line], ['handlers.ts', 14], 'the handler function');
    assert.equal(attr(handler, 'kit.handler'), 'Send');
    for (const c of children) assert.ok(c.startTime >= root.startTime && c.endTime <= root.endTime, c.name);
  });

  it('SSR page: guard, load (in its .ts module) and render spans', async () => {
    const { status, body, spans } = await traced('/inbox', { headers: { cookie: 'session=ok' } });
    assert.equal(status, 200);
    assert.match(body, /<h1>Inbox \(3\)<\/h1>/);
    const { root, children } = tree(spans);
    assert.equal(root.lane, 'ssr');
    assert.deepEqual(
      children.map((c) => c.name),
      ['match /inbox', 'guard auth.ok', 'load LoadInbox', 'render inbox'],
    );
    assert.deepEqual([children[2]!.source.file, children[2]!.source.line], ['handlers.ts', 9]);
    assert.equal(children[2]!.lane, 'handler');
    assert.deepEqual([children[3]!.source.file, children[3]!.source.line, children[3]!.lane], ['inbox.kit', 4, 'ssr']);
  });

  it('statuses: 2xx/3xx ok; 400, 403, 404, 422 unset with the status code; guard and CSRF refusals say why', async () => {
    const ok = tree((await traced('/')).spans).root;
    assert.equal(ok.status.code, 'ok');
    assert.equal(attr(ok, 'http.response.status_code'), 200);
    const rows: [string, RequestInit, number][] = [
      ['/inbox/send', post({ _kit_csrf: token, subject: 'x', size: '1', admin: 'yes' }), 400],
      ['/inbox', {}, 403],
      ['/nope', {}, 404],
      ['/inbox/send', post({ _kit_csrf: token, subject: 'invalid', size: '1' }), 422],
    ];
    for (const [path, init, want] of rows) {
      const { status, spans } = await traced(path, init);
      assert.equal(status, want, path);
      const { root } = tree(spans);
      assert.equal(root.status.code, 'unset', `${want} leaves the status unset`);
      assert.equal(attr(root, 'http.response.status_code'), want);
    }
    const denied = tree((await traced('/inbox')).spans);
    assert.deepEqual(
      denied.root.events.map((e) => [e.level, e.message]),
      [['warn', 'guard auth.ok denied the request (no session cookie)']],
    );
    assert.equal(attr(denied.children[1]!, 'kit.guard.decision'), 'deny');
    const forged = tree((await traced('/inbox/send', post({ _kit_csrf: 'forged', subject: 'a', size: '1' }))).spans);
    assert.equal(attr(forged.root, 'http.response.status_code'), 403);
    assert.deepEqual(
      forged.root.events.map((e) => e.message),
      ['csrf check failed (the submitted token does not match the cookie)'],
    );
    const decode = forged.children.find((c) => c.name === 'decode');
    assert.equal(decode, undefined, 'nothing is decoded after a failed CSRF check');
  });

  it('a page without a guard: 403, its trace recording the denial as a guard does (missing_guard)', async () => {
    const { status, spans } = await traced('/locked');
    assert.equal(status, 403);
    const { root, children } = tree(spans);
    assert.equal(attr(root, 'http.response.status_code'), 403);
    assert.deepEqual(
      root.events.map((e) => [e.level, e.message]),
      [['warn', 'no guard is declared: denied by default (missing_guard)']],
    );
    const guard = children.find((c) => c.lane === 'guard');
    assert.ok(guard, `a guard span: ${children.map((c) => c.name).join(', ')}`);
    assert.equal(attr(guard, 'kit.guard.decision'), 'deny');
    assert.equal(attr(guard, 'kit.guard.reason'), 'missing_guard');
    assert.equal(guard.source.file, 'locked.kit');
  });

  it('a thrown error: 500, error status, an exception event with the handler .ts line; nothing leaks', async () => {
    const { status, body, spans } = await traced('/inbox/crash', post({ _kit_csrf: token }));
    assert.equal(status, 500);
    assert.doesNotMatch(body, /offline|TypeError|handlers/);
    const { root, children } = tree(spans);
    assert.equal(root.status.code, 'error');
    assert.equal(root.status.message, 'action inbox.Crash failed: TypeError: inbox store is offline');
    const handler = children.find((c) => c.name === 'handler Crash')!;
    assert.equal(handler.status.code, 'error');
    const ex = handler.events.find((e) => e.message === 'exception')!;
    assert.ok(ex, 'an exception event');
    const a = Object.fromEntries(ex.attributes.map((x) => [x.key, x.value]));
    assert.equal(a['exception.type'], 'TypeError');
    assert.equal(a['exception.message'], 'inbox store is offline');
    assert.match(String(a['exception.stacktrace']), /handlers\.ts:22:\d+/, 'the source-mapped .ts line');
  });

  it('HTML answers load the bridge and name their server span in Server-Timing; the collector serves it', async () => {
    const r = await fetch(app.url + '/');
    const html = await r.text();
    assert.match(html, /<head><script src="\/_kit\/traces\/bridge\.js" data-kit-trace><\/script>/);
    assert.match(r.headers.get('server-timing') ?? '', /^traceparent;desc="00-[0-9a-f]{32}-[0-9a-f]{16}-01"$/);
    const bridge = await fetch(app.url + '/_kit/traces/bridge.js');
    assert.equal(bridge.status, 200);
    assert.match(bridge.headers.get('content-type') ?? '', /text\/javascript/);
    assert.match(await bridge.text(), /window\.__kitTrace = /);
  });

  it('in Chromium: the navigation joins the page request trace and a fetch joins its server trace', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(app.url + '/');
      await page.waitForFunction(
        () => (window as unknown as { __kitTrace?: { enabled: boolean } }).__kitTrace?.enabled,
      );
      await page.evaluate(async () => {
        await fetch('/?from=page');
        await (window as unknown as { __kitTrace: { flush(): Promise<void> } }).__kitTrace.flush();
      });
      let spans: Span[] = [];
      await waitFor(
        async () => {
          spans = ((await (await fetch(app.url + '/_kit/traces')).json()) as { spans: Span[] }).spans;
          const nav = spans.find((s) => s.surface === 'frontend' && s.lane === 'nav');
          const fetched = spans.find((s) => s.surface === 'frontend' && s.name === 'GET /');
          if (nav && fetched) return true;
          await page.evaluate(() =>
            (window as unknown as { __kitTrace: { flush(): Promise<void> } }).__kitTrace.flush(),
          );
          return false;
        },
        { what: 'the browser spans of the navigation and its fetch', every: 50 },
      );
      const nav = spans.find((s) => s.surface === 'frontend' && s.lane === 'nav')!;
      assert.ok(nav, 'the navigation span arrived');
      const pageRequest = spans.find((s) => s.spanId === nav.parentSpanId)!;
      assert.ok(pageRequest, 'the navigation is a child of the server span that answered the page');
      assert.equal(pageRequest.name, 'GET /');
      assert.equal(pageRequest.surface, 'backend');
      const fetched = spans.find((s) => s.surface === 'frontend' && s.name === 'GET /')!;
      assert.equal(fetched.traceId, nav.traceId, 'the fetch made while the page loads joins the same trace');
      const served = spans.find((s) => s.surface === 'backend' && s.parentSpanId === fetched.spanId);
      assert.ok(served, 'the server span of the fetch is a child of the browser fetch span');
      assert.equal(served.traceId, fetched.traceId);
    } finally {
      await browser.close();
    }
  });

  it('per-route figures: counts, errors, percentiles and the last error, by route', async () => {
    const report = (await (await fetch(app.url + '/_kit/traces/api/routes')).json()) as RoutesReport;
    assert.equal(report.version, 1);
    assert.equal(report.sourceRoot, FIXTURE.replace(/\/$/, ''));
    const crash = report.routes.find((r) => r.key === 'POST /inbox/crash')!;
    assert.ok(crash);
    assert.equal(crash.kind, 'action');
    assert.equal(crash.page, 'inbox');
    assert.equal(crash.symbol, 'Crash');
    assert.ok(crash.count >= 1 && crash.errors >= 1);
    assert.match(crash.lastError!.message, /inbox store is offline/);
    const send = report.routes.find((r) => r.key === 'POST /inbox/send')!;
    assert.ok(send.clientErrors >= 3, 'the 400, 403 and 422 answers');
    assert.equal(send.errors, 0);
    assert.ok(send.p50Ms > 0 && send.p95Ms >= send.p50Ms && send.p99Ms >= send.p95Ms);
    assert.equal(send.histogram.length, report.bounds.length + 1);
    assert.equal(
      send.histogram.reduce((a, b) => a + b, 0),
      send.count,
    );
    assert.ok(report.slowest.length > 0);
    assert.ok(!report.routes.some((r) => r.route === '/nope'), 'unmatched paths are not routes');
  });
});
