// @ts-check
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { hrTimeFromUnixNano, newOtlpExporter, spanKindForLane } from '../src/index.js';
import { SPANS } from './fixtures.js';

describe('kit-trace-otlp mapping', () => {
  it('derives the span kind from the lane', () => {
    for (const lane of ['route', 'handler', 'ssr', 'action', 'api', 'fragment'])
      assert.equal(spanKindForLane(lane), SpanKind.SERVER, lane);
    assert.equal(spanKindForLane('contract'), SpanKind.CLIENT);
    for (const lane of ['guard', 'job', 'island', 'nav', 'user'])
      assert.equal(spanKindForLane(lane), SpanKind.INTERNAL, lane);
  });

  it('converts decimal Unix nanoseconds to HrTime without losing digits', () => {
    assert.deepEqual(hrTimeFromUnixNano('1735787045250000123'), [1735787045, 250000123]);
  });

  it('exports kit spans through an OpenTelemetry SDK exporter (InMemorySpanExporter)', async () => {
    const memory = new InMemorySpanExporter();
    const exporter = newOtlpExporter({
      exporter: memory,
      serviceName: 'shop',
      serviceVersion: '1.2.3',
      environment: 'dev',
    });
    await exporter.exportSpans(SPANS);
    const [root, handler, contract] = memory.getFinishedSpans();
    assert.ok(root && handler && contract);

    assert.equal(root.name, 'GET /orders/{id}');
    assert.equal(root.kind, SpanKind.SERVER);
    assert.deepEqual(root.spanContext().traceId, SPANS[0].traceId, 'kit IDs are kept');
    assert.equal(root.spanContext().spanId, SPANS[0].spanId);
    assert.equal(root.parentSpanContext, undefined);
    assert.deepEqual(root.startTime, [1735787045, 100000000]);
    assert.deepEqual(root.endTime, [1735787045, 250000123]);
    assert.deepEqual(root.duration, [0, 150000123]);
    assert.deepEqual(root.status, { code: SpanStatusCode.OK });
    assert.deepEqual(root.attributes, {
      'http.route': '/orders/{id}',
      'http.response.status_code': 200,
      tags: ['a', 'b'],
      'kit.surface': 'backend',
      'kit.lane': 'route',
      'kit.source.file': 'app/orders.kit',
      'kit.source.line': 3,
      'kit.source.column': 1,
      'kit.owner.kind': 'page',
      'kit.owner.id': 'orders',
    });
    assert.deepEqual(root.events, [
      { name: 'slow render', time: [1735787045, 200000000], attributes: { ms: 40, 'kit.event.level': 'warn' } },
    ]);
    assert.equal(root.resource.attributes['service.name'], 'shop');
    assert.equal(root.resource.attributes['service.version'], '1.2.3');
    assert.equal(root.resource.attributes['deployment.environment.name'], 'dev');
    assert.deepEqual(root.instrumentationScope, { name: 'kit-trace-otlp', version: '0.1.0' });

    assert.equal(handler.kind, SpanKind.SERVER);
    assert.equal(handler.parentSpanContext?.spanId, SPANS[0].spanId);
    assert.deepEqual(handler.status, { code: SpanStatusCode.ERROR, message: 'db timeout' });
    assert.deepEqual(
      handler.attributes['kit.dropped_attributes'],
      ['bad'],
      'values OpenTelemetry cannot carry are listed',
    );
    assert.equal(handler.droppedAttributesCount, 1);
    assert.equal(contract.kind, SpanKind.CLIENT);
    assert.deepEqual(contract.status, { code: SpanStatusCode.UNSET });
    assert.equal(exporter.unsupportedAttributeCount(), 1);
    assert.equal(exporter.exporterFailureCount(), 0);
    await exporter.shutdown();
  });

  it('reports a failed export as a rejection and counts it', async () => {
    const memory = new InMemorySpanExporter();
    await memory.shutdown(); // a stopped in-memory exporter answers FAILED
    const exporter = newOtlpExporter({ exporter: memory });
    await assert.rejects(exporter.exportSpans(SPANS));
    assert.equal(exporter.exporterFailureCount(), 1);
  });

  it('defaults the service name to kit', async () => {
    const memory = new InMemorySpanExporter();
    await newOtlpExporter({ exporter: memory }).exportSpans([SPANS[2]]);
    assert.equal(memory.getFinishedSpans()[0]?.resource.attributes['service.name'], 'kit');
  });
});
