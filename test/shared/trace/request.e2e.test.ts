import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage } from 'node:http';
import {
  isLoopbackAddress,
  isLoopbackRequest,
  newRingSink,
  newTracer,
  traceRequest,
  withSink,
} from '#shared/trace/index.js';
import { waitFor } from '../../helpers/wait.js';
import { close, http, listen } from './helpers.js';

describe('trace: request helpers', () => {
  it('isLoopbackAddress accepts loopback forms only', () => {
    const table: [string | undefined, boolean][] = [
      ['127.0.0.1', true],
      ['127.1.2.3', true],
      ['::1', true],
      ['::ffff:127.0.0.1', true],
      ['0:0:0:0:0:0:0:1', true],
      ['10.0.0.1', false],
      ['::ffff:10.0.0.1', false],
      ['192.168.1.2', false],
      ['fe80::1', false],
      ['', false],
      [undefined, false],
      ['127.0.0.1.evil', false],
    ];
    for (const [address, loopback] of table) assert.equal(isLoopbackAddress(address), loopback, String(address));
  });

  it('isLoopbackRequest needs a loopback peer and local address and no proxy headers', async () => {
    const seen: boolean[] = [];
    const server = createServer((req, res) => {
      seen.push(isLoopbackRequest(req));
      res.end();
    });
    const url = await listen(server);
    try {
      await http(url);
      for (const h of [
        'x-forwarded-for',
        'x-forwarded-host',
        'x-forwarded-proto',
        'forwarded',
        'x-real-ip',
        'X-Forwarded-Port',
      ]) {
        await http(url, { headers: { [h]: '127.0.0.1' } });
      }
      await http(url, { headers: { host: 'localhost' } });
    } finally {
      await close(server);
    }
    assert.deepEqual(seen, [true, false, false, false, false, false, false, true]);
    const remote = {
      socket: { remoteAddress: '192.168.1.2', localAddress: '127.0.0.1' },
      headers: { host: '127.0.0.1' },
    } as unknown as IncomingMessage;
    assert.equal(isLoopbackRequest(remote), false, 'a spoofed Host header does not make a remote peer local');
    const publicListener = {
      socket: { remoteAddress: '127.0.0.1', localAddress: '10.1.2.3' },
      headers: {},
    } as unknown as IncomingMessage;
    assert.equal(isLoopbackRequest(publicListener), false, 'a loopback peer on a non-loopback listener is refused');
  });

  it('traceRequest continues the caller trace, records route attributes and ends with the response', async () => {
    const ring = newRingSink(16);
    const tracer = newTracer(withSink(ring));
    const server = createServer((req, res) => {
      const status = req.url!.startsWith('/fail') ? 503 : 200;
      traceRequest(tracer, req, { route: '/items/{id}', page: 'items', render: 'ssr', lane: 'ssr' }, res);
      res.writeHead(status).end('ok');
    });
    const url = await listen(server);
    try {
      await http(`${url}/items/7?token=secret`, {
        headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', host: 'shop.test:8080' },
      });
      await http(`${url}/fail`, { method: 'POST' });
      await tracer.flush();
    } finally {
      await close(server);
    }
    const [ok, failed] = ring.snapshots();
    assert.equal(ok!.name, 'GET /items/{id}');
    assert.equal(ok!.traceId, '4bf92f3577b34da6a3ce929d0e0e4736');
    assert.equal(ok!.parentSpanId, '00f067aa0ba902b7');
    assert.equal(ok!.lane, 'ssr');
    assert.deepEqual(Object.fromEntries(ok!.attributes.map((a) => [a.key, a.value])), {
      'http.request.method': 'GET',
      'url.path': '/items/7',
      'http.route': '/items/{id}',
      'server.address': 'shop.test',
      'kit.page': 'items',
      'kit.render': 'ssr',
      'http.response.status_code': 200,
    });
    assert.deepEqual(ok!.status, { code: 'ok', message: '' });
    assert.equal(failed!.name, 'POST /items/{id}');
    assert.deepEqual(failed!.status, { code: 'error', message: 'HTTP 503' });
    assert.ok(!JSON.stringify(ring.snapshots()).includes('secret'), 'the query string is never recorded');
  });

  it('traceRequest marks a request whose client went away as an error', async () => {
    const ring = newRingSink(4);
    const tracer = newTracer(withSink(ring));
    let hold: (() => void) | null = null;
    const server = createServer((req, res) => {
      traceRequest(tracer, req, {}, res);
      hold = () => res.end();
    });
    const url = await listen(server);
    try {
      const req = request(`${url}/slow`, { agent: false });
      req.on('error', () => {});
      req.end();
      await waitFor(() => hold !== null, { what: 'the server to receive the request' });
      req.destroy();
      await waitFor(
        async () => {
          await tracer.flush();
          return ring.size > 0;
        },
        { what: 'the span of the abandoned request' },
      );
    } finally {
      await close(server);
    }
    const [snap] = ring.snapshots();
    assert.equal(snap!.name, 'GET /slow');
    assert.deepEqual(snap!.status, { code: 'error', message: 'connection closed before the response was sent' });
  });
});
