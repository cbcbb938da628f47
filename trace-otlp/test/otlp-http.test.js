// @ts-check
// The default exporter speaks OTLP/HTTP with JSON bodies: a local receiver decodes what it is sent.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { newOtlpExporter } from '../src/index.js';
import { SPANS } from './fixtures.js';

/** @type {{ path: string, type: string, body: any }[]} */
let received = [];
let status = 200;
const server = createServer((req, res) => {
  const chunks = /** @type {Buffer[]} */ ([]);
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    received.push({
      path: req.url ?? '',
      type: String(req.headers['content-type']),
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
    });
    res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  });
});
let url = '';

/** @param {any[]} attributes */
function attrs(attributes) {
  return Object.fromEntries(attributes.map((a) => [a.key, a.value]));
}

describe('kit-trace-otlp over OTLP/HTTP', () => {
  before(async () => {
    await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
    const address = server.address();
    url = `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}/v1/traces`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('posts an OTLP JSON request the receiver can decode', async () => {
    received = [];
    status = 200;
    const exporter = newOtlpExporter({ url, serviceName: 'shop', environment: 'dev', headers: { 'x-token': 't' } });
    await exporter.exportSpans(SPANS);
    await exporter.shutdown();
    assert.equal(received.length, 1);
    const { path, type, body } = received[0];
    assert.equal(path, '/v1/traces');
    assert.match(type, /^application\/json/);
    const resourceSpans = body.resourceSpans[0];
    const resource = attrs(resourceSpans.resource.attributes);
    assert.deepEqual(resource['service.name'], { stringValue: 'shop' });
    assert.deepEqual(resource['deployment.environment.name'], { stringValue: 'dev' });
    const scope = resourceSpans.scopeSpans[0];
    assert.deepEqual(scope.scope, { name: 'kit-trace-otlp', version: '0.1.0' });
    const [root, handler, contract] = scope.spans;
    assert.equal(root.traceId, SPANS[0].traceId);
    assert.equal(root.spanId, SPANS[0].spanId);
    assert.equal(root.name, 'GET /orders/{id}');
    assert.equal(root.kind, 2, 'SPAN_KIND_SERVER');
    assert.equal(String(root.startTimeUnixNano), '1735787045100000000');
    assert.equal(String(root.endTimeUnixNano), '1735787045250000123');
    const rootAttrs = attrs(root.attributes);
    assert.deepEqual(rootAttrs['http.route'], { stringValue: '/orders/{id}' });
    assert.deepEqual(rootAttrs['http.response.status_code'], { intValue: 200 });
    assert.deepEqual(rootAttrs['kit.lane'], { stringValue: 'route' });
    assert.deepEqual(rootAttrs.tags, { arrayValue: { values: [{ stringValue: 'a' }, { stringValue: 'b' }] } });
    assert.equal(root.events[0].name, 'slow render');
    assert.deepEqual(attrs(root.events[0].attributes)['kit.event.level'], { stringValue: 'warn' });
    assert.equal(root.status.code, 1, 'STATUS_CODE_OK');
    assert.equal(handler.parentSpanId, SPANS[0].spanId);
    assert.deepEqual(handler.status, { code: 2, message: 'db timeout' });
    assert.equal(contract.kind, 3, 'SPAN_KIND_CLIENT');
  });

  it('rejects when the receiver refuses the request', async () => {
    received = [];
    status = 400;
    const exporter = newOtlpExporter({ url });
    await assert.rejects(exporter.exportSpans(SPANS));
    assert.equal(exporter.exporterFailureCount(), 1);
    await exporter.shutdown();
  });
});
