// The runtime under clients that do not behave: readers that never read, bodies that never end,
// requests that stall; and the small request-shape rules (urlencoded bytes, Fetch Metadata case,
// absolute-form targets). In process, over real sockets, with the server limits scaled down.
import { strict as assert } from 'node:assert';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  createApp,
  createHttpServer,
  dirSource,
  SERVER_LIMITS,
  type AppManifest,
  type EndpointEntry,
} from '#shared/app/index.js';
import { WRITE_SLICE_BYTES } from '#shared/app/responses.js';
import { newToken, csrfKeys } from '#shared/app/csrf.js';

const SECRET = 'x'.repeat(32);

function api(symbol: string, method: string, route: string, csrf = false): EndpointEntry {
  return {
    kind: method === 'POST' ? 'action' : 'api',
    endpointSource: 'kit',
    method,
    route,
    pageId: 'p',
    package: 't',
    symbol,
    guards: ['public'],
    csrf,
    handler: {
      status: 'bound',
      module: 'm',
      export: symbol,
      signature: method === 'POST' ? 'action_form' : 'api',
    },
  } as EndpointEntry;
}

const BIG = 16 * 1024 * 1024;

describe('app runtime: slow clients and stalled answers', function () {
  this.timeout(20000);
  let server: Server;
  let port = 0;
  let lastRes: ServerResponse | undefined;
  let cancelled: () => void = () => undefined;
  const wasCancelled = new Promise<void>((r) => (cancelled = r));
  const logs: string[] = [];

  before(async () => {
    const manifest: AppManifest = {
      version: 1,
      app: 'slow',
      pages: [],
      endpoints: [api('Big', 'GET', '/big'), api('Endless', 'GET', '/endless'), api('Echo', 'POST', '/echo', true)],
      static: {},
      templates: {},
    };
    const modules = {
      m: {
        Big: () => new Response(new Uint8Array(BIG).fill(97)),
        Endless: () =>
          new Response(
            new ReadableStream({
              start(c) {
                c.enqueue(new TextEncoder().encode('first chunk'));
              },
              cancel() {
                cancelled();
              },
            }),
          ),
        Echo: (_ctx: unknown, form: { names(): string[]; get(n: string): string | undefined }) =>
          Response.json(Object.fromEntries(form.names().map((n) => [n, form.get(n)]))),
      },
    };
    const app = createApp({
      manifest,
      modules,
      static: dirSource('/nonexistent'),
      csrfSecret: SECRET,
      requestTimeoutMs: 400,
      log: (l) => logs.push(l),
    });
    server = createHttpServer(app, {
      ...SERVER_LIMITS,
      sendIdleTimeoutMs: 1500,
      requestTimeoutMs: 700,
      headersTimeoutMs: 600,
      timeoutCheckMs: 100,
    }).server;
    server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
      lastRes = res;
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });

  function open(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(s));
      s.on('error', reject);
    });
  }

  function closed(s: Socket): Promise<number> {
    const started = performance.now();
    return new Promise((resolve) => s.once('close', () => resolve(performance.now() - started)));
  }

  it('a reader that never reads holds at most one write slice in the server, and is cut by the deadline', async () => {
    const s = await open();
    s.pause(); // never read
    const started = performance.now();
    s.write(`GET /big HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    for (let i = 0; i < 100 && lastRes === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    const res = lastRes!;
    const cut = new Promise<number>((resolve) => res.once('close', () => resolve(performance.now() - started)));
    await new Promise((r) => setTimeout(r, 200));
    // One slice, plus its chunked-encoding frame.
    assert.ok(
      res.writableLength <= WRITE_SLICE_BYTES + 64,
      `write queue ${res.writableLength} B, at most one ${WRITE_SLICE_BYTES} B slice`,
    );
    const ms = await cut;
    assert.ok(ms >= 350 && ms < 2000, `cut after ${ms.toFixed(0)} ms (deadline 400 ms)`);
    assert.ok(res.destroyed);
    s.destroy();
  });

  it('the request deadline covers a body that never ends: the answer is cut and its stream cancelled', async () => {
    const s = await open();
    let got = '';
    s.setEncoding('latin1').on('data', (d: string) => (got += d));
    const gone = closed(s);
    s.write(`GET /endless HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const ms = await gone;
    await wasCancelled;
    assert.match(got, /^HTTP\/1\.1 200/);
    assert.match(got, /first chunk/);
    assert.ok(ms >= 350 && ms < 2000, `cut after ${ms.toFixed(0)} ms (deadline 400 ms)`);
  });

  it('a request whose body stalls is answered 408 within the request timeout plus one check', async () => {
    const s = await open();
    let got = '';
    s.setEncoding('latin1').on('data', (d: string) => (got += d));
    const gone = closed(s);
    const started = performance.now();
    s.write(
      `POST /echo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        'Content-Length: 100\r\n\r\nname=a',
    );
    await gone;
    const ms = performance.now() - started;
    assert.match(got, /^HTTP\/1\.1 408/);
    assert.ok(ms >= 650 && ms < 1100, `408 after ${ms.toFixed(0)} ms (timeout 700 ms, checked every 100 ms)`);
  });

  async function post(body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
    const token = newToken(csrfKeys(SECRET));
    const r = await fetch(`http://127.0.0.1:${port}/echo`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `kit-csrf=${token}`,
        'x-kit-csrf': token,
        ...headers,
      },
      body,
    });
    return { status: r.status, text: await r.text() };
  }

  it('urlencoded fields: %-encoded bytes that are not UTF-8 are a 400, like raw ones; valid ones decode', async () => {
    assert.deepEqual(await post('name=caf%C3%A9+au+lait&x=%25%zz'), {
      status: 200,
      text: '{"name":"café au lait","x":"%%zz"}',
    });
    const encoded = await post('name=%FF%FE');
    assert.equal(encoded.status, 400);
    assert.equal(encoded.text, 'invalid form\n');
  });

  it('Sec-Fetch-Site is compared without regard to case', async () => {
    for (const value of ['cross-site', 'Cross-Site', 'CROSS-SITE']) {
      const r = await post('name=a', { 'sec-fetch-site': value });
      assert.equal(r.status, 403, value);
    }
    assert.equal((await post('name=a', { 'sec-fetch-site': 'same-origin' })).status, 200);
  });
});

describe('app runtime: the send idle timeout', function () {
  this.timeout(10000);

  it('closes a connection whose client stopped reading once no data moved for the idle limit', async () => {
    const manifest: AppManifest = {
      version: 1,
      app: 'idle',
      pages: [],
      endpoints: [api('Big', 'GET', '/big')],
      static: {},
      templates: {},
    };
    const app = createApp({
      manifest,
      modules: { m: { Big: () => new Response(new Uint8Array(BIG).fill(98)) } },
      static: dirSource('/nonexistent'),
      csrfSecret: SECRET,
      requestTimeoutMs: 60_000,
      log: () => undefined,
    });
    const server = createHttpServer(app, { ...SERVER_LIMITS, sendIdleTimeoutMs: 300, timeoutCheckMs: 100 }).server;
    let res: ServerResponse | undefined;
    server.on('request', (_req: IncomingMessage, r: ServerResponse) => {
      res = r;
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    try {
      const s = connect(port, '127.0.0.1');
      s.pause();
      const started = performance.now();
      s.write(`GET /big HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      for (let i = 0; i < 100 && res === undefined; i++) await new Promise((r) => setTimeout(r, 10));
      const ms = await new Promise<number>((resolve) => res!.once('close', () => resolve(performance.now() - started)));
      assert.ok(ms >= 250 && ms < 3000, `closed after ${ms.toFixed(0)} ms of no progress (limit 300 ms)`);
      s.destroy();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
