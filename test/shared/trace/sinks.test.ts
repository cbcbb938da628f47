import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import {
  background,
  escapeLogText,
  exporterSink,
  formatGoDuration,
  multiSink,
  newConsoleSink,
  newJSONLSink,
  newRingSink,
  newTracer,
  withAttributes,
  withErrorHandler,
  withExportQueueSize,
  withExportTimeout,
  withSink,
  withSource,
  type ExportSpan,
  type FinishedSpan,
  type Sink,
} from '#shared/trace/index.js';
import { waitFor } from '../../helpers/wait.js';
import { collectingSink } from './helpers.js';

function lines(stream: PassThrough): string[] {
  const text = (stream.read() as Buffer | null)?.toString('utf8') ?? '';
  return text.split('\n').filter((l) => l !== '');
}

describe('trace: sinks', () => {
  it('console sink writes one readable line per span', async () => {
    const out = new PassThrough();
    const tracer = newTracer(withSink(newConsoleSink(out)));
    const [ctx, root] = tracer.start(background(), 'GET /docs', withSource({ file: 'app/docs.kit', line: 3 }));
    const [, child] = tracer.start(ctx, 'load');
    child.event('info', 'cache miss');
    child.event('warn', 'slow');
    child.setStatus('error', 'db down');
    child.end();
    root.end();
    await tracer.flush();
    const [childLine, rootLine] = lines(out);
    assert.match(
      childLine!,
      new RegExp(
        `^load trace=${root.traceId} span=${child.spanId} parent=${root.spanId} surface=backend lane=user duration=\\S+ status=error message=db down events=cache miss\\|slow$`,
      ),
    );
    assert.match(
      rootLine!,
      new RegExp(
        `^GET /docs trace=${root.traceId} span=${root.spanId} parent=- surface=backend lane=user duration=\\S+ status=unset source=app/docs.kit:3$`,
      ),
    );
  });

  it('console sink escapes control characters so span data cannot forge log lines', async () => {
    const out = new PassThrough();
    const tracer = newTracer(withSink(newConsoleSink(out)));
    const [, s] = tracer.start(background(), 'evil\nkit/trace forged=1\r\x1b[31m\u2028');
    s.setStatus('error', 'a\tb\\c\u0085');
    s.end();
    await tracer.flush();
    const all = lines(out);
    assert.equal(all.length, 1);
    assert.ok(all[0]!.startsWith('evil\\nkit/trace forged=1\\r\\x1b[31m\\u2028 trace='));
    assert.ok(all[0]!.includes('message=a\\tb\\\\c\\x85'));
    assert.equal(escapeLogText('plain text'), 'plain text');
  });

  it('formats durations like Go', () => {
    const table: [number, string][] = [
      [0, '0s'],
      [850, '850ns'],
      [12_500, '12.5µs'],
      [1_234_567, '1.234567ms'],
      [2_500_000_000, '2.5s'],
      [90_500_000_000, '1m30.5s'],
      [3_723_000_000_000, '1h2m3s'],
      [-1500, '-1.5µs'],
    ];
    for (const [ns, text] of table) assert.equal(formatGoDuration(ns), text, String(ns));
  });

  it('JSONL sink writes one snapshot per line', async () => {
    const out = new PassThrough();
    const tracer = newTracer(withSink(newJSONLSink(out)));
    tracer.start(background(), 'a\nb', withAttributes({ x: 'line\nbreak' }))[1].end();
    tracer.start(background(), 'c')[1].end();
    await tracer.flush();
    const all = lines(out).map((l) => JSON.parse(l) as { name: string; attributes: unknown[] });
    assert.deepEqual(
      all.map((s) => s.name),
      ['a\nb', 'c'],
    );
    assert.deepEqual(all[0]!.attributes, [{ key: 'x', value: 'line\nbreak' }]);
  });

  it('ring sink keeps the newest spans and counts the ones it dropped', async () => {
    const ring = newRingSink(3);
    const tracer = newTracer(withSink(ring));
    for (let i = 0; i < 5; i++) tracer.start(background(), `s${i}`)[1].end();
    await tracer.flush();
    assert.deepEqual(
      ring.snapshots().map((s) => s.name),
      ['s2', 's3', 's4'],
    );
    assert.equal(ring.dropped(), 2);
    assert.equal(ring.size, 3);
    ring.clear();
    assert.equal(ring.size, 0);
    assert.equal(newRingSink().limit, 256);
    assert.throws(() => newRingSink(0), /newRingSink: limit must be a positive integer/);
  });

  it('ring sink keeps spans within a byte budget, dropping the oldest first', async () => {
    const tracer = newTracer();
    const spans = [0, 1, 2, 3].map((i) => {
      const span = tracer.start(background(), `s${i}`, withAttributes({ pad: 'x'.repeat(i === 3 ? 250 : 100) }))[1];
      span.end();
      return span as unknown as FinishedSpan;
    });
    const bytes = spans.map((s) => Buffer.byteLength(s.json()));
    const ring = newRingSink(10, { maxBytes: bytes[0]! + bytes[1]! + bytes[2]! });
    for (const s of spans.slice(0, 3)) ring.write(s);
    assert.equal(ring.size, 3, 'three fit exactly');
    assert.equal(ring.bytes, bytes[0]! + bytes[1]! + bytes[2]!);
    ring.write(spans[3]!); // 150 bytes more than the others: the two oldest must go
    assert.deepEqual(
      ring.snapshots().map((s) => s.name),
      ['s2', 's3'],
    );
    assert.equal(ring.dropped(), 2);
    assert.equal(ring.bytes, bytes[2]! + bytes[3]!);
    const tiny = newRingSink(10, { maxBytes: 1 });
    tiny.write(spans[0]!);
    tiny.write(spans[1]!);
    assert.deepEqual(
      tiny.snapshots().map((s) => s.name),
      ['s1'],
      'a span over the whole budget is kept alone',
    );
    assert.equal(newRingSink().maxBytes, 1024 * 1024);
    assert.equal(newRingSink(4, { maxBytes: Infinity }).bytes, 0);
    assert.throws(() => newRingSink(4, { maxBytes: 0 }), /options.maxBytes must be a positive integer or Infinity/);
  });

  it('multi sink delivers to every sink even when one throws or rejects', async () => {
    const a = collectingSink();
    const b = collectingSink();
    const errors: unknown[] = [];
    const throwing: Sink = {
      write: () => {
        throw new Error('sync failure');
      },
    };
    const rejecting: Sink = { write: () => Promise.reject(new Error('async failure')) };
    const tracer = newTracer(
      withSink(multiSink(a, throwing, rejecting, b)),
      withErrorHandler((e) => errors.push(e)),
    );
    tracer.start(background(), 'x')[1].end();
    await tracer.flush();
    assert.equal(a.spans.length, 1);
    assert.equal(b.spans.length, 1);
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof AggregateError);
    assert.deepEqual(
      (errors[0] as AggregateError).errors.map((e: Error) => e.message),
      ['sync failure', 'async failure'],
    );
    assert.equal(tracer.health().exportFailures, 1);
    assert.throws(() => multiSink({} as Sink), /multiSink: argument 1 is not a sink/);
  });

  it('exporter sink hands OTLP-shaped batches to the exporter', async () => {
    const batches: ExportSpan[][] = [];
    const tracer = newTracer(
      withSink(exporterSink({ exportSpans: (spans) => void batches.push(spans) }, { maxBatchSize: 3 })),
    );
    const [ctx, root] = tracer.start(background(), 'root', withAttributes({ k: 'v' }));
    for (let i = 0; i < 4; i++) tracer.start(ctx, `c${i}`)[1].end();
    root.event('info', 'done');
    root.setStatus('ok');
    root.end();
    await tracer.flush();
    assert.deepEqual(
      batches.map((b) => b.length),
      [3, 2],
      'a full batch is sent at once, the rest at the end of the drain',
    );
    const last = batches[1]![1]!;
    assert.equal(last.name, 'root');
    assert.equal(last.parentSpanId, '');
    assert.equal(batches[0]![0]!.parentSpanId, root.spanId);
    assert.match(last.startTimeUnixNano, /^\d{19}$/);
    assert.ok(BigInt(last.endTimeUnixNano) >= BigInt(last.startTimeUnixNano));
    assert.deepEqual(last.attributes, [{ key: 'k', value: 'v' }]);
    assert.equal(last.events[0]!.message, 'done');
    assert.match(last.events[0]!.timeUnixNano, /^\d{19}$/);
    assert.deepEqual(last.status, { code: 'ok', message: '' });
    assert.throws(() => exporterSink({} as never), /exporterSink: exporter must have an exportSpans/);
  });

  it('end() never waits for the sink; a full export queue drops the newest spans and counts them', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const received: string[] = [];
    const slow: Sink = {
      write: async (span) => {
        received.push(span.name);
        await gate;
      },
    };
    const tracer = newTracer(withSink(slow), withExportQueueSize(4));
    const started = performance.now();
    for (let i = 0; i < 10; i++) tracer.start(background(), `s${i}`)[1].end();
    assert.ok(performance.now() - started < 50, 'ending spans did not wait for the sink');
    assert.equal(tracer.health().exportQueueDepth, 4);
    assert.equal(tracer.health().exportDroppedSpans, 6, 'drop newest when full');
    await waitFor(() => received.length > 0, { what: 'the drain to hand the first span to the sink' });
    assert.deepEqual(received, ['s0'], 'the drain waits for the sink one span at a time');
    assert.equal(tracer.health().exportInFlight, 1);
    release();
    await tracer.flush();
    assert.deepEqual(received, ['s0', 's1', 's2', 's3']);
    const h = tracer.health();
    assert.equal(h.exportedSpans, 4);
    assert.equal(h.exportQueueDepth, 0);
    assert.equal(h.exportInFlight, 0);
    assert.equal(h.exportQueueCapacity, 4);
    assert.ok(h.maxExportLatencyNs >= h.lastExportLatencyNs && h.lastExportLatencyNs > 0);
  });

  it('a sink call that outlives the export timeout is counted and skipped', async () => {
    const received: string[] = [];
    const hanging: Sink = {
      write: (s) => (received.push(s.name), s.name === 'hang' ? new Promise<void>(() => {}) : undefined),
    };
    const tracer = newTracer(withSink(hanging), withExportTimeout(20));
    tracer.start(background(), 'hang')[1].end();
    tracer.start(background(), 'next')[1].end();
    await tracer.flush();
    assert.deepEqual(received, ['hang', 'next']);
    assert.equal(tracer.health().exportTimeouts, 1);
    assert.equal(tracer.health().exportedSpans, 1);
  });

  it('a slow stream applies backpressure through the queue instead of buffering without bound', async () => {
    const chunks: string[] = [];
    let pending: (() => void) | null = null;
    const stream = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk.toString());
        pending = cb;
      },
    });
    const tracer = newTracer(withSink(newJSONLSink(stream)), withExportQueueSize(2));
    for (let i = 0; i < 5; i++) tracer.start(background(), `s${i}`)[1].end();
    await waitFor(() => chunks.length > 0, { what: 'the sink to write the first span' });
    assert.equal(chunks.length, 1, 'the sink waits for drain');
    assert.equal(tracer.health().exportDroppedSpans, 3);
    const flushed = tracer.flush();
    (pending as (() => void) | null)?.();
    await waitFor(() => chunks.length === 2, { what: 'the sink to write again once the stream drained' });
    (pending as (() => void) | null)?.();
    await flushed;
    assert.equal(chunks.length, 2);
  });

  it('flush resolves at once when idle, and sink errors are reported on stderr by default', async () => {
    const tracer = newTracer(withSink(collectingSink()));
    await tracer.flush();
    const writes: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    (process.stderr as { write: unknown }).write = (chunk: string) => (writes.push(String(chunk)), true);
    try {
      const failing = newTracer(
        withSink({
          write: () => {
            throw new Error('disk\nfull');
          },
        }),
      );
      failing.start(background(), 'x')[1].end();
      await failing.flush();
    } finally {
      (process.stderr as { write: unknown }).write = original;
    }
    assert.equal(writes.length, 1);
    assert.equal(writes[0], 'kit/trace: sink failed (1 failures so far): Error: disk\\nfull\n');
  });

  it('sinks receive finished spans with cached JSON', async () => {
    const got: FinishedSpan[] = [];
    const tracer = newTracer(withSink({ write: (s) => void got.push(s) }));
    tracer.start(background(), 'x')[1].end();
    await tracer.flush();
    assert.equal(got[0]!.json(), got[0]!.json());
    assert.equal(got[0]!.name, 'x');
  });
});
