import assert from 'node:assert/strict';
import {
  LIMITS,
  background,
  newTracer,
  parseSnapshot,
  rfc3339Nano,
  truncateUtf8,
  withSink,
} from '#shared/trace/index.js';
import { parseRfc3339 } from '#shared/trace/clock.js';
import { collectingSink } from './helpers.js';

const base = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  name: 'fetch /api',
  startTime: '2025-01-02T03:04:05.100Z',
  endTime: '2025-01-02T03:04:05.250Z',
};

describe('trace: snapshots', () => {
  it('a recorded snapshot passes ingest validation unchanged (round trip)', async () => {
    const sink = collectingSink();
    const tracer = newTracer(withSink(sink));
    const [ctx, root] = tracer.start(background(), 'root');
    const [, child] = tracer.start(ctx, 'child');
    child.set('k', [1, 2]);
    child.event('warn', 'hm', { a: true });
    child.setStatus('error', 'x');
    child.end();
    root.end();
    await tracer.flush();
    for (const span of sink.spans) {
      const snap = span.snapshot();
      assert.deepEqual(parseSnapshot(JSON.parse(span.json()), 'span'), snap);
    }
  });

  it('fills defaults for optional fields and computes the duration', () => {
    const snap = parseSnapshot({ ...base, parentSpanId: '' }, 'span');
    assert.equal(snap.parentSpanId, undefined);
    assert.equal(snap.surface, 'frontend');
    assert.equal(snap.lane, 'user');
    assert.deepEqual(snap.status, { code: 'unset', message: '' });
    assert.deepEqual(snap.attributes, []);
    assert.equal(snap.durationNs, 150_000_000);
  });

  const rejected: [string, Record<string, unknown>, RegExp][] = [
    ['unknown field', { ...base, extra: 1 }, /^span\.extra: unknown field$/],
    [
      'uppercase trace ID',
      { ...base, traceId: base.traceId.toUpperCase() },
      /^span\.traceId: must be 32 lowercase hex digits/,
    ],
    [
      'zero span ID',
      { ...base, spanId: '0000000000000000' },
      /^span\.spanId: must be 16 lowercase hex digits, not all zero$/,
    ],
    ['short parent ID', { ...base, parentSpanId: 'abc' }, /^span\.parentSpanId:/],
    ['missing name', { ...base, name: undefined }, /^span\.name: required string is missing$/],
    ['unknown lane', { ...base, lane: 'bogus' }, /^span\.lane: must be one of route, guard/],
    ['unknown surface', { ...base, surface: 'moon' }, /^span\.surface: must be one of backend, frontend, worker$/],
    ['bad status code', { ...base, status: { code: 'fine' } }, /^span\.status\.code: must be one of unset, ok, error$/],
    ['unknown status field', { ...base, status: { code: 'ok', detail: 1 } }, /^span\.status\.detail: unknown field$/],
    ['bad start time', { ...base, startTime: 'yesterday' }, /^span\.startTime: must be an RFC 3339 timestamp$/],
    [
      'impossible date',
      { ...base, startTime: '2025-02-30T00:00:00Z' },
      /^span\.startTime: must be an RFC 3339 timestamp$/,
    ],
    ['end before start', { ...base, endTime: '2025-01-02T03:04:05Z' }, /^span\.endTime: must not be before startTime$/],
    ['negative duration', { ...base, durationNs: -1 }, /^span\.durationNs: must be a non-negative number$/],
    [
      'attribute object value',
      { ...base, attributes: [{ key: 'a', value: { x: 1 } }] },
      /^span\.attributes\[0\]\.value: must be a string, boolean/,
    ],
    [
      'attribute without key',
      { ...base, attributes: [{ value: 1 }] },
      /^span\.attributes\[0\]\.key: must be a non-empty string/,
    ],
    ['attributes not a list', { ...base, attributes: { a: 1 } }, /^span\.attributes: must be an array/],
    [
      'event with bad time',
      { ...base, events: [{ time: 'x', level: 'info', message: 'm' }] },
      /^span\.events\[0\]\.time: must be an RFC 3339/,
    ],
    [
      'event unknown field',
      { ...base, events: [{ time: base.startTime, message: 'm', color: 'red' }] },
      /^span\.events\[0\]\.color: unknown field$/,
    ],
    [
      'source line not an integer',
      { ...base, source: { file: 'a', line: 1.5 } },
      /^span\.source\.line: must be a non-negative integer$/,
    ],
    ['not an object', [] as unknown as Record<string, unknown>, /^span: must be a span object$/],
  ];
  for (const [name, value, message] of rejected) {
    it(`rejects ${name} with the field path`, () => {
      assert.throws(
        () => parseSnapshot(value, 'span'),
        (err: Error) => {
          assert.equal(err.name, 'SnapshotError');
          assert.match(err.message, message);
          return true;
        },
      );
    });
  }

  it('truncates over-long strings of a received snapshot instead of rejecting it', () => {
    const snap = parseSnapshot(
      {
        ...base,
        name: 'n'.repeat(1000),
        attributes: [{ key: 'u', value: 'x'.repeat(5000) }],
        status: { code: 'error', message: 'e'.repeat(5000) },
      },
      'span',
    );
    assert.equal(snap.name.length, LIMITS.nameBytes);
    assert.equal((snap.attributes[0]!.value as string).length, LIMITS.attributeStringBytes);
    assert.equal(snap.status.message.length, LIMITS.statusMessageBytes);
  });

  it('parses RFC 3339 with offsets and nanoseconds', () => {
    assert.deepEqual(parseRfc3339('2025-01-02T03:04:05.123456789Z'), [Date.UTC(2025, 0, 2, 3, 4, 5, 123), 456789]);
    assert.deepEqual(parseRfc3339('2025-01-02T05:04:05+02:00'), [Date.UTC(2025, 0, 2, 3, 4, 5), 0]);
    assert.equal(parseRfc3339('2025-13-01T00:00:00Z'), null);
    assert.match(rfc3339Nano(performance.now()), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
  });

  it('truncates UTF-8 on character boundaries', () => {
    assert.equal(truncateUtf8('abc', 2), 'ab');
    assert.equal(truncateUtf8('éé', 3), 'é');
    assert.equal(truncateUtf8('😀😀', 5), '😀');
    assert.equal(truncateUtf8('a😀', 4), 'a');
    assert.equal(truncateUtf8('short', 100), 'short');
  });
});
