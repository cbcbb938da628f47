import assert from 'node:assert/strict';
import {
  NOOP_SPAN,
  alwaysOff,
  alwaysOn,
  background,
  extract,
  inject,
  newTracer,
  parentBased,
  rateLimitedSampler,
  ratioSampler,
  ruleSampler,
  spanIdentity,
  withAttributes,
  withSampler,
  withSink,
  type Sampler,
  type SamplingParameters,
} from '#shared/trace/index.js';
import { collectingSink } from './helpers.js';

function params(traceId: string, sampledParent?: boolean): SamplingParameters {
  const parent = sampledParent === undefined ? null : spanIdentityFor(traceId, sampledParent);
  return {
    traceId,
    traceIdHigh: parseInt(traceId.slice(0, 8), 16),
    traceIdLow: parseInt(traceId.slice(8, 16), 16),
    parent: parent as SamplingParameters['parent'],
    name: 'x',
    surface: 'backend',
    lane: 'user',
    attributes: null,
  };
}

function spanIdentityFor(traceId: string, sampled: boolean) {
  const ctx = extract(background(), { traceparent: `00-${traceId}-00f067aa0ba902b7-${sampled ? '01' : '00'}` });
  return (ctx as unknown as { _identity(): unknown })._identity();
}

describe('trace: samplers', () => {
  it('alwaysOn and alwaysOff decide without looking', () => {
    assert.equal(alwaysOn().shouldSample(params('4bf92f3577b34da6a3ce929d0e0e4736')), true);
    assert.equal(alwaysOff().shouldSample(params('4bf92f3577b34da6a3ce929d0e0e4736')), false);
    assert.equal(alwaysOn().name, 'always_on');
    assert.equal(alwaysOff().name, 'always_off');
  });

  it('ratioSampler compares the first 64 bits of the trace ID with ratio·2^64', () => {
    const half = ratioSampler(0.5);
    const table: [string, boolean][] = [
      ['00000000000000000000000000000001', true],
      ['7fffffffffffffffffffffffffffffff', true], // exactly 2^63 - 1 ≤ 2^63
      ['80000000000000000000000000000000', true], // 2^63 ≤ 2^63
      ['80000000000000010000000000000000', false],
      ['ffffffffffffffff0000000000000000', false],
    ];
    for (const [id, keep] of table) assert.equal(half.shouldSample(params(id)), keep, id);
    assert.equal(half.name, 'ratio');
    assert.equal(half.ratio, 0.5);
    assert.equal(ratioSampler(0), alwaysOff());
    assert.equal(ratioSampler(-1), alwaysOff());
    assert.equal(ratioSampler(1), alwaysOn());
    assert.throws(() => ratioSampler(NaN), /ratioSampler: ratio must be a number between 0 and 1/);
  });

  it('ratioSampler keeps close to the ratio and decides a whole trace the same way', async () => {
    const sink = collectingSink();
    const tracer = newTracer(withSink(sink), withSampler(ratioSampler(0.25)));
    let kept = 0;
    for (let i = 0; i < 4000; i++) {
      const [ctx, span] = tracer.start(background(), 'root');
      const [, child] = tracer.start(ctx, 'child');
      assert.equal(child.isRecording(), span.isRecording(), 'children follow the trace decision');
      if (span.isRecording()) kept++;
      child.end();
      span.end();
      if (i % 200 === 0) await tracer.flush();
    }
    await tracer.flush();
    assert.ok(kept > 850 && kept < 1150, `kept ${kept} of 4000 at ratio 0.25`);
    assert.equal(tracer.health().samplingRatio, 0.25);
  });

  it('an unsampled root still carries its trace identity (sampled=0) to descendants and carriers', () => {
    const tracer = newTracer(withSampler(ratioSampler(1e-12)));
    const [ctx, span] = tracer.start(background(), 'dropped');
    assert.equal(span, NOOP_SPAN);
    const id = spanIdentity(ctx)!;
    assert.equal(id.sampled, false);
    assert.match(id.traceId, /^[0-9a-f]{32}$/);
    const headers: Record<string, string> = {};
    inject(ctx, headers);
    assert.equal(headers.traceparent, `00-${id.traceId}-${id.spanId}-00`);
    const [childCtx, child] = tracer.start(ctx, 'child');
    assert.equal(child, NOOP_SPAN);
    assert.equal(childCtx, ctx, 'a dropped child of a dropped parent needs no new identity');
  });

  it('parentBased follows the parent flag (local or remote) and asks the root sampler otherwise', async () => {
    const sink = collectingSink();
    const tracer = newTracer(withSink(sink), withSampler(parentBased(alwaysOff())));
    assert.equal(tracer.start(background(), 'root')[1], NOOP_SPAN);
    const sampledRemote = extract(background(), {
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    });
    const [ctx, span] = tracer.start(sampledRemote, 'server');
    assert.equal(span.isRecording(), true);
    assert.equal(span.traceId, '4bf92f3577b34da6a3ce929d0e0e4736');
    assert.equal(tracer.start(ctx, 'child')[1].isRecording(), true, 'a sampled local parent');
    const unsampledRemote = extract(background(), {
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00',
    });
    const on = newTracer(withSampler(parentBased(alwaysOn())));
    assert.equal(on.start(unsampledRemote, 'x')[1], NOOP_SPAN);
    assert.equal(on.start(background(), 'x')[1].isRecording(), true);
    assert.equal(parentBased(ratioSampler(0.5)).ratio, 0.5);
    span.end();
    await tracer.flush();
  });

  it('alwaysOn ignores an unsampled remote parent (the remote flag alone never decides)', () => {
    const unsampledRemote = extract(background(), {
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00',
    });
    const [, span] = newTracer().start(unsampledRemote, 'x');
    assert.equal(span.isRecording(), true);
  });

  it('custom samplers see the span being decided', () => {
    const seen: string[] = [];
    const custom: Sampler = {
      name: 'custom',
      shouldSample: (p) => {
        seen.push(`${p.name} ${p.lane} ${p.traceId.length} ${p.parent === null}`);
        return p.name !== 'skip';
      },
    };
    const tracer = newTracer(withSampler(custom));
    assert.equal(tracer.start(background(), 'keep')[1].isRecording(), true);
    assert.equal(tracer.start(background(), 'skip')[1], NOOP_SPAN);
    assert.deepEqual(seen, ['keep user 32 true', 'skip user 32 true']);
    assert.equal(tracer.health().sampler, 'custom');
    assert.throws(() => withSampler({} as Sampler), /withSampler: sampler must have a shouldSample/);
  });
});

describe('rule-based and rate-limited samplers', () => {
  const at = (name: string, lane: SamplingParameters['lane'] = 'route'): SamplingParameters => ({
    ...params('4bf92f3577b34da6a3ce929d0e0e4736'),
    name,
    lane,
  });

  it('decides by the first rule that matches, else by the fallback', () => {
    const s = ruleSampler(
      [
        { name: 'GET /_kit/health', sampler: alwaysOff() },
        { name: /^POST /, sampler: alwaysOn() },
        { lane: 'guard', sampler: alwaysOff() },
        { name: /^POST \/admin/, sampler: alwaysOff() }, // never reached: the POST rule comes first
      ],
      alwaysOn(),
    );
    assert.equal(s.name, 'rule_based');
    assert.equal(s.shouldSample(at('GET /_kit/health')), false);
    assert.equal(s.shouldSample(at('POST /admin/save')), true);
    assert.equal(s.shouldSample(at('check', 'guard')), false);
    assert.equal(s.shouldSample(at('GET /blog/{slug}')), true);
    assert.throws(() => ruleSampler([{} as never], alwaysOn()), /ruleSampler: rule 0 needs a sampler/);
  });

  it('matches start attributes: exact values and patterns, Maps and objects, absent keys never match', () => {
    const s = ruleSampler(
      [
        { attributes: { 'http.route': /^\/admin\// }, sampler: alwaysOff() },
        { attributes: { 'kit.page': 'home', 'kit.render': 'ssr' }, sampler: alwaysOff() },
        { attributes: { 'http.response.status_code': 500 }, sampler: alwaysOn() },
      ],
      ratioSampler(0),
    );
    const withAttrs = (attributes: SamplingParameters['attributes']) => ({ ...at('GET /x'), attributes });
    assert.equal(s.shouldSample(withAttrs({ 'http.route': '/admin/users' })), false);
    assert.equal(s.shouldSample(withAttrs(new Map([['http.route', '/admin/{id}']]))), false);
    assert.equal(s.shouldSample(withAttrs({ 'kit.page': 'home' })), false, 'fallback: one key of two is not enough');
    assert.equal(s.shouldSample(withAttrs({ 'http.response.status_code': 500 })), true);
    assert.equal(s.shouldSample(withAttrs({ 'http.response.status_code': '500' })), false, 'exact values are typed');
    assert.equal(s.shouldSample(withAttrs(null)), false);
    assert.throws(
      () => ruleSampler([{ attributes: 'x' as never, sampler: alwaysOn() }], alwaysOn()),
      /rule 0: attributes must be an object/,
    );
  });

  it('sees the attributes a span starts with, through the tracer', () => {
    const sink = collectingSink();
    const tracer = newTracer(
      withSink(sink),
      withSampler(ruleSampler([{ attributes: { 'kit.page': 'noisy' }, sampler: alwaysOff() }], alwaysOn())),
    );
    assert.equal(tracer.start(background(), 'GET /', withAttributes({ 'kit.page': 'noisy' }))[1], NOOP_SPAN);
    assert.notEqual(tracer.start(background(), 'GET /', withAttributes({ 'kit.page': 'home' }))[1], NOOP_SPAN);
  });

  it('keeps at most n spans a second, refilling continuously', () => {
    let t = 0;
    const s = rateLimitedSampler(3, () => t);
    const burst = [1, 2, 3, 4, 5].map(() => s.shouldSample(at('GET /')));
    assert.deepEqual(burst, [true, true, true, false, false]);
    t += 500; // half a second: one and a half tokens back
    assert.deepEqual(
      [1, 2].map(() => s.shouldSample(at('GET /'))),
      [true, false],
    );
    t += 10_000; // a long pause refills one second's worth, no more
    assert.equal([1, 2, 3, 4].filter(() => s.shouldSample(at('GET /'))).length, 3);
    assert.equal(rateLimitedSampler(0, () => t).shouldSample(at('GET /')), false);
    assert.throws(() => rateLimitedSampler(-1), /perSecond must be a finite number of at least 0/);
  });

  it('keeps whole traces under parentBased: children follow the root decision', () => {
    const t = 0;
    const s = parentBased(rateLimitedSampler(1, () => t));
    assert.equal(s.shouldSample(params('4bf92f3577b34da6a3ce929d0e0e4736')), true);
    assert.equal(s.shouldSample(params('4bf92f3577b34da6a3ce929d0e0e4736', true)), true, 'a child of a kept root');
    assert.equal(s.shouldSample(params('00f92f3577b34da6a3ce929d0e0e4736')), false, 'the next root waits');
  });
});
