// W3C Trace Context carried by a Node outgoing message over a real socket: what a server receives
// (the rest of propagation, in process: propagation.test.ts).
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage } from 'node:http';
import { background, extract, inject, newTracer, spanIdentity } from '#shared/trace/index.js';
import { close, listen } from './helpers.js';

const TRACE = '12345678901234567890123456789012';
const PARENT = '1234567890123456';
const VALID = `00-${TRACE}-${PARENT}-01`;

describe('trace: carriers', () => {
  it('injects into a plain object, WHATWG Headers and a Node outgoing message', async () => {
    const tracer = newTracer();
    const [ctx, span] = tracer.start(extract(background(), { traceparent: VALID, tracestate: 'a=1' }), 'client');
    const expected = `00-${TRACE}-${span.spanId}-01`;
    const obj: Record<string, string> = {};
    inject(ctx, obj);
    assert.deepEqual(obj, { traceparent: expected, tracestate: 'a=1' });
    const headers = new Headers();
    inject(ctx, headers);
    assert.equal(headers.get('traceparent'), expected);
    assert.equal(headers.get('tracestate'), 'a=1');

    let received: IncomingMessage['headers'] = {};
    const server = createServer((req, res) => {
      received = req.headers;
      res.end();
    });
    const base = await listen(server);
    try {
      await new Promise<void>((resolve, reject) => {
        const req = request(base, { agent: false }, (res) => res.resume().on('end', resolve));
        inject(ctx, req);
        req.on('error', reject);
        req.end();
      });
    } finally {
      await close(server);
    }
    assert.equal(received.traceparent, expected);
    assert.equal(received.tracestate, 'a=1');
    assert.equal(
      spanIdentity(extract(background(), received))!.spanId,
      span.spanId,
      'Node IncomingHttpHeaders round-trip',
    );
  });
});
