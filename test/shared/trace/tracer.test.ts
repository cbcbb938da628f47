import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  AttrHTTPRoute,
  LANES,
  LaneRoute,
  NOOP_SPAN,
  StatusError,
  StatusOK,
  SURFACES,
  SurfaceFrontend,
  alwaysOff,
  background,
  getDefaultTracer,
  newRingSink,
  newTracer,
  setDefaultTracer,
  spanFromContext,
  spanIdentity,
  startSpan,
  withAttributes,
  withLane,
  withSampler,
  withSink,
  withSource,
  withSourceRoot,
  withStartTime,
  withSurface,
  withValue,
  LIMITS,
  type Span,
} from '#shared/trace/index.js';
import { collectingSink } from './helpers.js';

async function record(fn: (tracer: ReturnType<typeof newTracer>) => void, ...extra: Parameters<typeof newTracer>) {
  const sink = collectingSink();
  const tracer = newTracer(withSink(sink), ...extra);
  fn(tracer);
  await tracer.flush();
  return sink.spans.map((s) => s.snapshot());
}

describe('trace: tracer and spans', () => {
  it('starts a root span with crypto IDs and records it once ended', async () => {
    const [snap, ...rest] = await record((t) => {
      const [ctx, span] = t.start(background(), 'GET /docs');
      assert.equal(span.isRecording(), true);
      assert.equal(spanFromContext(ctx), span);
      span.end();
      assert.equal(span.isRecording(), false);
    });
    assert.equal(rest.length, 0);
    assert.match(snap!.traceId, /^[0-9a-f]{32}$/);
    assert.match(snap!.spanId, /^[0-9a-f]{16}$/);
    assert.notEqual(snap!.traceId, '0'.repeat(32));
    assert.equal(snap!.parentSpanId, undefined, 'a root span has no parentSpanId field');
    assert.equal(snap!.name, 'GET /docs');
    assert.equal(snap!.surface, 'backend');
    assert.equal(snap!.lane, 'user');
    assert.deepEqual(snap!.status, { code: 'unset', message: '' });
    assert.deepEqual(snap!.source, { file: '', line: 0, column: 0, ownerKind: '', ownerId: '' });
    assert.match(snap!.startTime, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
    assert.ok(snap!.durationNs >= 0);
    assert.ok(Date.parse(snap!.endTime) >= Date.parse(snap!.startTime));
  });

  it('gives every span a distinct ID and children the parent trace', async () => {
    const snaps = await record((t) => {
      const [ctx, root] = t.start(background(), 'root');
      const [cctx, child] = t.start(ctx, 'child');
      const [, grandchild] = t.start(withValue(cctx, 'k', 1), 'grandchild');
      grandchild.end();
      child.end();
      root.end();
      assert.equal(child.traceId, root.traceId);
      assert.notEqual(child.spanId, root.spanId);
    });
    const [grandchild, child, root] = snaps;
    assert.equal(child!.parentSpanId, root!.spanId);
    assert.equal(grandchild!.parentSpanId, child!.spanId, 'a value context keeps the active span');
    assert.equal(new Set(snaps.map((s) => s.traceId)).size, 1);
    assert.equal(new Set(snaps.map((s) => s.spanId)).size, 3);
    const traces = new Set<string>();
    await record((t) => {
      for (let i = 0; i < 200; i++) {
        const [, s] = t.start(background(), 'r');
        traces.add(s.traceId);
        s.end();
      }
    });
    assert.equal(traces.size, 200);
  });

  it('applies surface, lane, attributes, source and start time options', async () => {
    const url = pathToFileURL(join(process.cwd(), 'app', 'page.kit')).href;
    const startedAt = Date.UTC(2025, 0, 2, 3, 4, 5, 6);
    const [snap] = await record((t) => {
      const [, s] = t.start(
        background(),
        'render',
        withSurface(SurfaceFrontend),
        withLane(LaneRoute),
        withAttributes({ [AttrHTTPRoute]: '/blog/{slug}', n: 3, ok: true }),
        withSource({ file: url, line: 12, column: 4, ownerKind: 'page', ownerId: 'blog' }),
        withStartTime(startedAt),
        withAttributes(
          new Map<string, unknown>([
            ['extra', 'yes'],
            ['n', 4],
          ]),
        ),
      );
      s.end();
    });
    assert.equal(snap!.surface, 'frontend');
    assert.equal(snap!.lane, 'route');
    assert.deepEqual(snap!.attributes, [
      { key: 'http.route', value: '/blog/{slug}' },
      { key: 'n', value: 4 },
      { key: 'ok', value: true },
      { key: 'extra', value: 'yes' },
    ]);
    assert.deepEqual(
      snap!.source,
      { file: 'app/page.kit', line: 12, column: 4, ownerKind: 'page', ownerId: 'blog' },
      'absolute paths become project-relative',
    );
    assert.equal(snap!.startTime, '2025-01-02T03:04:05.006000000Z');
  });

  it('keeps absolute source paths when the source root is null', async () => {
    const file = join(process.cwd(), 'x.ts');
    const [snap] = await record(
      (t) => t.start(background(), 's', withSource({ file, line: 1 }))[1].end(),
      withSourceRoot(null),
    );
    assert.equal(snap!.source.file, file);
  });

  it('rejects unknown option values with an error naming the option', () => {
    assert.throws(() => withLane('nope' as never), /withLane: unknown lane "nope"; expected one of route, guard/);
    assert.throws(() => withSurface('moon' as never), /withSurface: unknown surface "moon"/);
    assert.throws(() => withAttributes(null as never), /withAttributes: attributes must be an object or a Map/);
    assert.throws(() => withSource({ file: 'x', line: -1 }), /withSource: source.line must be a non-negative integer/);
    assert.throws(() => withStartTime(NaN), /withStartTime/);
    assert.throws(() => newTracer({} as never), /newTracer: option 1 is not a tracer option/);
    assert.deepEqual([...LANES].length, 12);
    assert.deepEqual([...SURFACES], ['backend', 'frontend', 'worker']);
  });

  it('accepts more than four start options', async () => {
    const [snap] = await record((t) => {
      const [, s] = t.start(
        background(),
        'many',
        withAttributes({ a: 1 }),
        withAttributes({ b: 2 }),
        withAttributes({ c: 3 }),
        withAttributes({ d: 4 }),
        withAttributes({ e: 5 }),
        withLane('job'),
      );
      s.end();
    });
    assert.deepEqual(
      snap!.attributes.map((a) => a.key),
      ['a', 'b', 'c', 'd', 'e'],
    );
    assert.equal(snap!.lane, 'job');
  });

  it('set replaces the same key, events and status are recorded, end is idempotent and later mutations are ignored', async () => {
    let spanRef: Span | null = null;
    const sink = collectingSink();
    const tracer = newTracer(withSink(sink));
    const [, s] = tracer.start(background(), 'work', withAttributes({ a: 1, b: 'x' }));
    spanRef = s;
    s.set('a', 2);
    s.set('c', [1, 2, 3]);
    s.set('c', ['x']);
    s.event('warn', 'slow', { ms: 12 });
    s.event('info', ''); // empty message: ignored
    s.setStatus(StatusError, 'boom');
    s.end();
    s.end();
    s.set('late', true);
    s.event('info', 'late');
    s.setStatus(StatusOK);
    await tracer.flush();
    assert.equal(sink.spans.length, 1, 'a second end() does not export again');
    const snap = sink.spans[0]!.snapshot();
    assert.deepEqual(snap.attributes, [
      { key: 'a', value: 2 },
      { key: 'b', value: 'x' },
      { key: 'c', value: ['x'] },
    ]);
    assert.equal(snap.events.length, 1);
    assert.equal(snap.events[0]!.level, 'warn');
    assert.equal(snap.events[0]!.message, 'slow');
    assert.deepEqual(snap.events[0]!.attributes, [{ key: 'ms', value: 12 }]);
    assert.deepEqual(snap.status, { code: 'error', message: 'boom' });
    assert.equal(spanRef.isRecording(), false);
    assert.equal(tracer.health().exportedSpans, 1);
  });

  it('applies the span limits of the snapshot', async () => {
    const [snap] = await record((t) => {
      const [, s] = t.start(background(), 'n'.repeat(600));
      for (let i = 0; i < 80; i++) s.set(`k${i}`, i);
      s.set('k'.repeat(129), 'dropped: key too long');
      s.set('nan', NaN);
      s.set('obj', { no: 1 });
      s.set('mixed', [1, 'a']);
      s.set('long', 'é'.repeat(2000));
      for (let i = 0; i < 70; i++) s.event('x'.repeat(40), `event ${i}`);
      s.setStatus('error', 'm'.repeat(2000));
      s.end();
    });
    assert.equal(Buffer.byteLength(snap!.name), LIMITS.nameBytes);
    assert.equal(snap!.attributes.length, LIMITS.attributes);
    assert.ok(snap!.attributes.every((a) => a.key.startsWith('k') && a.key.length < 5));
    assert.equal(snap!.events.length, LIMITS.events);
    assert.equal(snap!.events[0]!.level, 'x'.repeat(32));
    assert.equal(Buffer.byteLength(snap!.status.message), LIMITS.statusMessageBytes);
  });

  it('truncates strings on character boundaries and caps arrays', async () => {
    const [snap] = await record((t) => {
      const [, s] = t.start(background(), 'x');
      s.set('long', 'é'.repeat(2000));
      s.set(
        'arr',
        Array.from({ length: 40 }, (_, i) => i),
      );
      s.set('big', 2n ** 70n);
      s.set('small', 5n);
      s.end();
    });
    const long = snap!.attributes.find((a) => a.key === 'long')!.value as string;
    assert.equal(long, 'é'.repeat(1024));
    assert.equal((snap!.attributes.find((a) => a.key === 'arr')!.value as number[]).length, 32);
    assert.equal(
      snap!.attributes.find((a) => a.key === 'big'),
      undefined,
      'bigints beyond 2^53 are dropped',
    );
    assert.equal(snap!.attributes.find((a) => a.key === 'small')!.value, 5);
  });

  it('keeps the encoded span within 64 KiB by dropping events, then attributes', async () => {
    const [snap] = await record((t) => {
      const [, s] = t.start(background(), 'big');
      for (let i = 0; i < 64; i++) s.set(`a${i}`, 'v'.repeat(2000));
      for (let i = 0; i < 64; i++) s.event('info', 'm'.repeat(1000), { x: 'y'.repeat(2000) });
      s.end();
    });
    assert.ok(Buffer.byteLength(JSON.stringify(snap)) <= LIMITS.spanBytes);
    assert.equal(snap!.events.length, 0);
    assert.ok(snap!.attributes.length < 64 && snap!.attributes.length > 20);
  });

  it('returns the shared no-op span and the same context when sampling is off', () => {
    const tracer = newTracer(withSampler(alwaysOff()));
    const ctx = background();
    const first = tracer.start(ctx, 'a');
    const second = tracer.start(ctx, 'b', withLane('route'));
    assert.equal(first[0], ctx);
    assert.equal(first[1], NOOP_SPAN);
    assert.equal(first, second, 'the pair is preallocated per context');
    const v = withValue(ctx, 'k', 'v');
    assert.equal(tracer.start(v, 'c')[0], v);
    assert.equal(tracer.start(v, 'c'), tracer.start(v, 'd'));
    // A caller that overwrites the shared pair cannot corrupt later starts.
    (first as unknown as unknown[])[1] = 'garbage';
    const third = tracer.start(ctx, 'e');
    assert.equal(third[1], NOOP_SPAN);
    // No-op span methods are safe to call.
    NOOP_SPAN.set('a', 1);
    NOOP_SPAN.event('info', 'x');
    NOOP_SPAN.setStatus('ok');
    NOOP_SPAN.end();
    assert.equal(NOOP_SPAN.isRecording(), false);
    assert.equal(NOOP_SPAN.traceId, '');
    assert.equal(tracer.health().sampler, 'always_off');
  });

  it('background() is the one empty root context and values chain through children', async () => {
    assert.equal(background(), background());
    assert.equal(spanIdentity(background()), null);
    const key = Symbol('request');
    const ctx = withValue(background(), key, { id: 7 });
    const sink = collectingSink();
    const tracer = newTracer(withSink(sink));
    const [child, span] = tracer.start(ctx, 'x');
    assert.deepEqual(child.value(key), { id: 7 });
    assert.equal(child.value(Symbol('other')), undefined);
    const id = spanIdentity(child)!;
    assert.equal(id.traceId, span.traceId);
    assert.equal(id.sampled, true);
    assert.equal(id.remote, false);
    span.end();
    await tracer.flush();
  });

  it('startSpan uses the tracer of the active span, else the default tracer', async () => {
    const sink = collectingSink();
    const tracer = newTracer(withSink(sink));
    const [ctx, root] = tracer.start(background(), 'root');
    const [, child] = startSpan(ctx, 'library call');
    assert.equal(child.isRecording(), true);
    child.end();
    root.end();
    await tracer.flush();
    assert.equal(sink.spans.length, 2);
    assert.equal(startSpan(background(), 'no tracer')[1], NOOP_SPAN, 'the default tracer samples nothing');
    const previous = getDefaultTracer();
    const ring = newRingSink(4);
    const fallback = newTracer(withSink(ring));
    setDefaultTracer(fallback);
    try {
      startSpan(background(), 'via default')[1].end();
      await fallback.flush();
      assert.equal(ring.snapshots()[0]!.name, 'via default');
    } finally {
      setDefaultTracer(previous);
    }
  });

  it('snapshots are cached after end and toJSON gives the snapshot', async () => {
    const sink = collectingSink();
    const tracer = newTracer(withSink(sink));
    tracer.start(background(), 's', withAttributes({ a: 1 }))[1].end();
    await tracer.flush();
    const span = sink.spans[0]!;
    assert.equal(span.snapshot(), span.snapshot());
    assert.equal(span.json(), JSON.stringify(span.snapshot()));
    assert.deepEqual(JSON.parse(JSON.stringify(span)), span.snapshot());
  });
});
