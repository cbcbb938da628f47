// The runtime under clients that do not behave: readers that never read, bodies that never end,
// requests that stall; and the small request-shape rules (urlencoded bytes, Fetch Metadata case,
// absolute-form targets). In process, over real sockets, with the server limits scaled down.
import { strict as assert } from 'node:assert';
import { once } from 'node:events';
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
import { waitFor } from '../../helpers/wait.js';

const SECRET = 'x'.repeat(32);

// The limits, scaled down. Which one ended a connection is read from the server's side of it (the
// error its socket was destroyed with, whether the send idle limit fired on it), not from when it
// ended: a window of milliseconds fails on a loaded machine and says nothing about the cause.
const DEADLINE_MS = 400;
const REQUEST_TIMEOUT_MS = 700;
const CHECK_MS = 100;
const IDLE_MS = 300;

interface Ending {
  /** The error the server's socket was destroyed with (null: closed without one). */
  error: (Error & { code?: string }) | null;
  /** Whether the send idle limit fired on the socket (its 'timeout' event) before it closed. */
  idle: boolean;
}

/** How the server's side of `res`'s connection ends; listening changes nothing in what Node does. */
function ending(res: ServerResponse): Promise<Ending> {
  const socket = res.socket!;
  let idle = false;
  socket.on('timeout', () => {
    idle = true;
  });
  return new Promise((resolve) => socket.once('close', () => resolve({ error: socket.errored, idle })));
}

/** The deadline's cut of an answer already under way (deadlines.ts). */
const DEADLINE_CUT = /^request deadline exceeded while the answer was being sent$/;

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
      requestTimeoutMs: DEADLINE_MS,
      log: (l) => logs.push(l),
    });
    // The send idle timeout stays at its default (30 s): only the deadline can cut an answer here.
    server = createHttpServer(app, {
      ...SERVER_LIMITS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      headersTimeoutMs: 600,
      timeoutCheckMs: CHECK_MS,
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

  beforeEach(() => {
    lastRes = undefined;
  });

  it('a reader that never reads holds at most one write slice in the server, and is cut by the deadline', async () => {
    const s = await open();
    s.pause(); // never read
    s.write(`GET /big HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const res = await waitFor(() => lastRes, { what: 'the server to take the request' });
    const ended = ending(res);
    // Until the server waits for the reader (its socket's buffers are full): one slice, plus its
    // chunked-encoding frame, is all it holds then.
    await waitFor(() => res.writableNeedDrain || res.destroyed, { what: 'the server to wait for the reader to drain' });
    assert.ok(!res.destroyed, 'the deadline cut the answer before the server had to wait for the reader');
    assert.ok(
      res.writableLength <= WRITE_SLICE_BYTES + 64,
      `write queue ${res.writableLength} B, at most one ${WRITE_SLICE_BYTES} B slice`,
    );
    const { error, idle } = await ended;
    assert.match(String(error?.message), DEADLINE_CUT, 'cut by the request deadline');
    assert.equal(idle, false, 'not by the send idle limit');
    assert.ok(res.destroyed && !res.writableFinished, 'the answer was not completed');
    s.destroy();
  });

  it('the request deadline covers a body that never ends: the answer is cut and its stream cancelled', async () => {
    const s = await open();
    let got = '';
    s.setEncoding('latin1').on('data', (d: string) => (got += d));
    const gone = once(s, 'close');
    s.write(`GET /endless HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const res = await waitFor(() => lastRes, { what: 'the server to take the request' });
    const { error, idle } = await ending(res);
    await gone;
    await wasCancelled;
    assert.match(got, /^HTTP\/1\.1 200/);
    assert.match(got, /first chunk/);
    assert.match(String(error?.message), DEADLINE_CUT, 'cut by the request deadline');
    assert.equal(idle, false, 'not by the send idle limit');
  });

  it('a request whose body stalls is answered 408 by the request timeout', async () => {
    const s = await open();
    let got = '';
    s.setEncoding('latin1').on('data', (d: string) => (got += d));
    const gone = once(s, 'close');
    s.write(
      `POST /echo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        'Content-Length: 100\r\n\r\nname=a',
    );
    const res = await waitFor(() => lastRes, { what: 'the server to take the request' });
    const { error } = await ending(res);
    await gone;
    assert.match(got, /^HTTP\/1\.1 408 /);
    // Node's request timeout: its check (every CHECK_MS here; Node's own default is 30 s, past this
    // test's timeout) found the request incomplete and closed the connection with this error. The
    // headers had arrived (the server took the request), so it was not the headers timeout, and the
    // app never answered (the deadline starts once the body is read).
    assert.equal(error?.code, 'ERR_HTTP_REQUEST_TIMEOUT', `closed by ${String(error)}`);
    assert.equal(res.req.complete, false, 'the body never arrived');
    assert.equal(res.headersSent, false, 'the app did not answer');
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
    const server = createHttpServer(app, {
      ...SERVER_LIMITS,
      sendIdleTimeoutMs: IDLE_MS,
      timeoutCheckMs: CHECK_MS,
    }).server;
    let res: ServerResponse | undefined;
    server.on('request', (_req: IncomingMessage, r: ServerResponse) => {
      res = r;
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    try {
      const s = connect(port, '127.0.0.1');
      s.pause();
      s.write(`GET /big HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      const r = await waitFor(() => res, { what: 'the server to take the request' });
      const { error, idle } = await ending(r);
      // The send idle limit fired (its socket 'timeout' event) and Node closed the socket without an
      // error; the deadline (60 s) would have closed it with its own.
      assert.equal(idle, true, 'closed by the send idle limit');
      assert.equal(error, null, `closed with ${String(error)}`);
      assert.ok(!r.writableFinished, 'before the answer was sent');
      s.destroy();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
