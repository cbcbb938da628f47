// The per-request deadline of request-time work (25 s by default, shortened
// here) and the context helpers' misuse errors, against the runtime over real HTTP.
import { strict as assert } from 'node:assert';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { app, createApp, createHttpServer, dirSource, type AppManifest } from '#shared/app/index.js';

describe('app runtime: request deadline', () => {
  let server: Server;
  let base = '';
  let aborted: Promise<string>;
  const logs: string[] = [];

  before(async () => {
    let resolveAborted: (s: string) => void = () => undefined;
    aborted = new Promise((r) => (resolveAborted = r));
    const manifest: AppManifest = {
      version: 1,
      app: 'deadline',
      pages: [],
      endpoints: [
        {
          kind: 'api',
          endpointSource: 'kit',
          method: 'GET',
          route: '/slow',
          pageId: 'p',
          package: 't',
          symbol: 'Slow',
          guards: ['public'],
          csrf: false,
          handler: { status: 'bound', module: 'm', export: 'Slow', signature: 'api' },
        },
        {
          kind: 'api',
          endpointSource: 'kit',
          method: 'GET',
          route: '/misuse',
          pageId: 'p',
          package: 't',
          symbol: 'Misuse',
          guards: ['public'],
          csrf: false,
          handler: { status: 'bound', module: 'm', export: 'Misuse', signature: 'api' },
        },
      ],
      static: {},
      templates: {},
    };
    const modules = {
      m: {
        Slow: (ctx: unknown) =>
          new Promise<Response>((resolve) => {
            const signal = app.signal(ctx);
            signal.addEventListener('abort', () => {
              resolveAborted(String((signal.reason as Error).message));
              resolve(new Response('too late'));
            });
          }),
        Misuse: () => {
          app.route({});
          return new Response('unreachable');
        },
      },
    };
    const kit = createApp({
      manifest,
      modules,
      static: dirSource('/nonexistent'),
      csrfSecret: 'x'.repeat(32),
      requestTimeoutMs: 150,
      log: (l) => logs.push(l),
    });
    server = createHttpServer(kit).server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it("answers 503 no-store when the deadline passes and aborts the handler's signal", async () => {
    const t0 = Date.now();
    const r = await fetch(base + '/slow');
    assert.equal(r.status, 503);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.equal(r.headers.get('x-kit-error-code'), 'request_timeout');
    assert.deepEqual(await r.json(), { ok: false, error: { code: 'request_timeout', message: 'request timed out' } });
    assert.ok(Date.now() - t0 >= 140, 'not before the deadline');
    assert.equal(await aborted, 'request deadline exceeded');
  });

  it('app.* on something that is not a request context is a clear TypeError (logged, generic 500)', async () => {
    const r = await fetch(base + '/misuse');
    assert.equal(r.status, 500);
    assert.match(logs.join('\n'), /app\.route\(ctx\): ctx is not a kit request context/);
  });
});
