// W3C Trace Context: the cases of the specification's published test suite (test/test.py of the
// w3c/trace-context repository) as tables, plus carrier handling (into a Node request on a real
// socket: propagation.e2e.test.ts).
import assert from 'node:assert/strict';
import {
  background,
  extract,
  inject,
  isValidTracestateKey,
  newTracer,
  parseTraceparent,
  parseTracestate,
  spanIdentity,
  withSink,
  type Carrier,
} from '#shared/trace/index.js';
import { collectingSink } from './helpers.js';

const TRACE = '12345678901234567890123456789012';
const PARENT = '1234567890123456';
const VALID = `00-${TRACE}-${PARENT}-01`;

/** The trace ID a service would continue with for these headers, or null when it starts a new trace. */
function continued(carrier: Carrier): string | null {
  const id = spanIdentity(extract(background(), carrier));
  return id === null ? null : id.traceId;
}

function tracestateOf(carrier: Carrier): string {
  return spanIdentity(extract(background(), carrier))?.traceState ?? '';
}

describe('trace: W3C traceparent', () => {
  const table: [string, string, boolean][] = [
    ['valid, sampled', VALID, true],
    ['valid, not sampled', `00-${TRACE}-${PARENT}-00`, true],
    ['version 00 with trailing "."', `${VALID}.`, false],
    ['version 00 with extra fields', `${VALID}-what-the-future-will-be-like`, false],
    ['future version cc', `cc-${TRACE}-${PARENT}-01`, true],
    ['future version cc with extra fields', `cc-${TRACE}-${PARENT}-01-what-the-future-will-be-like`, true],
    ['future version cc, extra not introduced by "-"', `cc-${TRACE}-${PARENT}-01.what-the-future-will-be-like`, false],
    ['version ff', `ff-${TRACE}-${PARENT}-01`, false],
    ['version ".0"', `.0-${TRACE}-${PARENT}-01`, false],
    ['version "0."', `0.-${TRACE}-${PARENT}-01`, false],
    ['version too long (000)', `000-${TRACE}-${PARENT}-01`, false],
    ['version too long (0000)', `0000-${TRACE}-${PARENT}-01`, false],
    ['version too short', `0-${TRACE}-${PARENT}-01`, false],
    ['uppercase version', `0A-${TRACE}-${PARENT}-01`, false],
    ['trace ID all zero', `00-${'0'.repeat(32)}-${PARENT}-01`, false],
    ['trace ID illegal first char', `00-.2345678901234567890123456789012-${PARENT}-01`, false],
    ['trace ID illegal last char', `00-1234567890123456789012345678901.-${PARENT}-01`, false],
    ['trace ID too long', `00-${TRACE}3-${PARENT}-01`, false],
    ['trace ID too short', `00-${TRACE.slice(1)}-${PARENT}-01`, false],
    ['trace ID uppercase', `00-4BF92F3577B34DA6A3CE929D0E0E4736-${PARENT}-01`, false],
    ['parent ID all zero', `00-${TRACE}-0000000000000000-01`, false],
    ['parent ID illegal first char', `00-${TRACE}-.234567890123456-01`, false],
    ['parent ID illegal last char', `00-${TRACE}-123456789012345.-01`, false],
    ['parent ID too long', `00-${TRACE}-12345678901234567-01`, false],
    ['parent ID too short', `00-${TRACE}-123456789012345-01`, false],
    ['parent ID uppercase', `00-${TRACE}-00F067AA0BA902B7-01`, false],
    ['flags ".0"', `00-${TRACE}-${PARENT}-.0`, false],
    ['flags "0."', `00-${TRACE}-${PARENT}-0.`, false],
    ['flags too long', `00-${TRACE}-${PARENT}-001`, false],
    ['flags too short', `00-${TRACE}-${PARENT}-1`, false],
    ['flags uppercase', `00-${TRACE}-${PARENT}-0A`, false],
    ['leading space', ` ${VALID}`, true],
    ['leading tab', `\t${VALID}`, true],
    ['trailing space', `${VALID} `, true],
    ['trailing tab', `${VALID}\t`, true],
    ['surrounding tabs and spaces', `\t ${VALID} \t`, true],
    ['inner whitespace', `00-${TRACE} -${PARENT}-01`, false],
    ['empty', '', false],
    ['garbage', 'not a traceparent', false],
  ];
  for (const [name, header, valid] of table) {
    it(`${valid ? 'accepts' : 'rejects'}: ${name}`, () => {
      assert.equal(continued({ traceparent: header }), valid ? TRACE : null);
      assert.equal(parseTraceparent(header) !== null, valid);
    });
  }

  it('reads the sampled flag from bit 0 and ignores other flag bits', () => {
    assert.equal(spanIdentity(extract(background(), { traceparent: `00-${TRACE}-${PARENT}-03` }))!.sampled, true);
    assert.equal(spanIdentity(extract(background(), { traceparent: `00-${TRACE}-${PARENT}-02` }))!.sampled, false);
    assert.deepEqual(parseTraceparent(`cc-${TRACE}-${PARENT}-09-x`), {
      version: 0xcc,
      traceId: TRACE,
      spanId: PARENT,
      flags: 9,
    });
  });

  it('starts a new trace for duplicated traceparent headers', () => {
    const other = `00-12345678901234567890123456789011-${PARENT}-01`;
    assert.equal(continued({ traceparent: [other, VALID] }), null, 'a repeated header as a list');
    assert.equal(continued({ traceparent: `${other}, ${VALID}` }), null, 'Node joins repeated headers with ", "');
    const headers = new Headers();
    headers.append('traceparent', other);
    headers.append('traceparent', VALID);
    assert.equal(continued(headers), null, 'WHATWG Headers joins them too');
    assert.equal(continued({ traceparent: [VALID] }), TRACE, 'a one-element list is one header');
  });

  it('finds the header whatever its name casing, and ignores misspelled names', () => {
    assert.equal(continued({ TraceParent: VALID }), TRACE);
    assert.equal(continued({ TRACEPARENT: VALID, tracestate: 'foo=1' }), TRACE);
    assert.equal(continued({ 'trace-parent': VALID }), null);
    assert.equal(continued({ 'trace.parent': VALID }), null);
    assert.equal(continued(new Headers({ TrAcEpArEnT: VALID })), TRACE);
  });

  it('passes an extracted context on as version 00 with only the sampled flag', () => {
    const relay = (header: string) => {
      const out: Record<string, string> = {};
      inject(extract(background(), { traceparent: header }), out);
      return out.traceparent;
    };
    assert.equal(relay(VALID), VALID);
    assert.equal(relay(` ${VALID}\t`), VALID);
    assert.equal(relay(`00-${TRACE}-${PARENT}-03`), VALID);
    assert.equal(relay(`00-${TRACE}-${PARENT}-02`), `00-${TRACE}-${PARENT}-00`);
    assert.equal(relay(`cc-${TRACE}-${PARENT}-01-future`), VALID);
  });

  it('a new span continues the trace with a new parent ID', async () => {
    const sink = collectingSink();
    const tracer = newTracer(withSink(sink));
    const [ctx, span] = tracer.start(extract(background(), { traceparent: VALID, tracestate: 'foo=1' }), 'server');
    const out: Record<string, string> = {};
    inject(ctx, out);
    span.end();
    await tracer.flush();
    assert.match(out.traceparent!, new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    assert.notEqual(out.traceparent!.slice(36, 52), PARENT);
    assert.equal(out.tracestate, 'foo=1', 'tracestate is inherited');
    assert.equal(sink.spans[0]!.snapshot().parentSpanId, PARENT);
  });
});

describe('trace: W3C tracestate', () => {
  const withParent = (...tracestate: string[]): Record<string, string | string[]> => ({
    traceparent: `00-${TRACE}-${PARENT}-00`,
    tracestate: tracestate.length === 1 ? tracestate[0]! : tracestate,
  });
  const keyNoVendor = 'abcdefghijklmnopqrstuvwxyz0123456789_-*/';
  const keyVendor = keyNoVendor + '@a-z0-9_-*/';
  let allValue = '';
  for (let c = 0x20; c <= 0x7e; c++) if (c !== 0x2c && c !== 0x3d) allValue += String.fromCharCode(c);
  const table: [string, string[], string][] = [
    ['two members', ['foo=1,bar=2'], 'foo=1,bar=2'],
    ['empty header', [''], ''],
    ['empty then valid header', ['', 'foo=1'], 'foo=1'],
    ['valid then empty header', ['foo=1', ''], 'foo=1'],
    [
      'several headers keep their order',
      ['foo=1,bar=2', 'rojo=1,congo=2', 'baz=3'],
      'foo=1,bar=2,rojo=1,congo=2,baz=3',
    ],
    ['duplicate key in one header', ['foo=1,foo=1'], ''],
    ['duplicate key with another value', ['foo=1,foo=2'], ''],
    ['duplicate key across headers', ['foo=1', 'foo=1'], ''],
    ['duplicate key across headers, other value', ['foo=1', 'foo=2'], ''],
    ['every allowed character, simple key', [`${keyNoVendor}=${allValue}`], `${keyNoVendor}=${allValue}`],
    ['every allowed character, tenant@system key', [`${keyVendor}=${allValue}`], `${keyVendor}=${allValue}`],
    ['optional whitespace around members', ['foo=1 \t , \t bar=2, \t baz=3'], 'foo=1,bar=2,baz=3'],
    ['tabs and spaces', ['foo=1\t \t,\t \tbar=2,\t \tbaz=3'], 'foo=1,bar=2,baz=3'],
    ['leading space', [' foo=1'], 'foo=1'],
    ['leading tab', ['\tfoo=1'], 'foo=1'],
    ['trailing space', ['foo=1 '], 'foo=1'],
    ['trailing tab', ['foo=1\t'], 'foo=1'],
    ['surrounding whitespace', ['\t foo=1 \t'], 'foo=1'],
    ['empty list members', ['foo=1,,bar=2, ,'], 'foo=1,bar=2'],
    ['space inside the key', ['foo =1'], ''],
    ['uppercase key', ['FOO=1'], ''],
    ['dot in the key', ['foo.bar=1'], ''],
    ['key starting with a digit (simple key)', ['1foo=1'], ''],
    ['tenant starting with a digit', ['1foo@bar=1'], '1foo@bar=1'],
    ['empty system', ['foo@=1,bar=2'], ''],
    ['empty tenant', ['@foo=1,bar=2'], ''],
    ['double @', ['foo@@bar=1,bar=2'], ''],
    ['two @', ['foo@bar@baz=1,bar=2'], ''],
    ['system starting with a digit', ['foo@1bar=1'], ''],
    ['key of 256 characters', ['foo=1', `${'z'.repeat(256)}=1`], `foo=1,${'z'.repeat(256)}=1`],
    ['key of 257 characters', ['foo=1', `${'z'.repeat(257)}=1`], ''],
    [
      'tenant 241 + system 14',
      ['foo=1', `${'t'.repeat(241)}@${'v'.repeat(14)}=1`],
      `foo=1,${'t'.repeat(241)}@${'v'.repeat(14)}=1`,
    ],
    ['tenant of 242', ['foo=1', `${'t'.repeat(242)}@v=1`], ''],
    ['system of 15', ['foo=1', `t@${'v'.repeat(15)}=1`], ''],
    ['value containing =', ['foo=bar=baz'], ''],
    ['empty value', ['foo=,bar=3'], ''],
    ['value ending in a space', ['foo=a b ,bar=3'], 'foo=a b,bar=3'],
    ['value of 257 characters', [`foo=${'v'.repeat(257)}`], ''],
    ['control character in value', ['foo=a\u0001b'], ''],
    ['non-ASCII value', ['foo=é'], ''],
    ['member without =', ['foo'], ''],
  ];
  for (const [name, headers, expected] of table) {
    it(`${expected === '' ? 'drops' : 'keeps'}: ${name}`, () => {
      assert.equal(tracestateOf(withParent(...headers)), expected);
      assert.equal(continued(withParent(...headers)), TRACE, 'an invalid tracestate never drops the trace');
    });
  }

  it('accepts 32 members across headers and drops 33', () => {
    const members = Array.from(
      { length: 33 },
      (_, i) => `bar${String(i + 1).padStart(2, '0')}=${String(i + 1).padStart(2, '0')}`,
    );
    const split = (list: string[]) => [
      list.slice(0, 10).join(','),
      list.slice(10, 20).join(','),
      list.slice(20, 30).join(','),
      list.slice(30).join(','),
    ];
    assert.equal(tracestateOf(withParent(...split(members.slice(0, 32)))).split(',').length, 32);
    assert.equal(tracestateOf(withParent(...split(members))), '');
  });

  it('is ignored without a traceparent', () => {
    assert.equal(spanIdentity(extract(background(), { tracestate: 'foo=1' })), null);
  });

  it('over 512 characters drops long members first, then from the end', () => {
    const long = `big=${'x'.repeat(200)}`;
    const small = Array.from({ length: 30 }, (_, i) => `k${i}=${'v'.repeat(14)}`);
    const value = parseTracestate([long, ...small].join(','));
    assert.ok(value.length <= 512);
    assert.ok(!value.includes('big='));
    assert.ok(value.startsWith('k0='));
    assert.equal(isValidTracestateKey('a'.repeat(256)), true);
    assert.equal(isValidTracestateKey(''), false);
  });
});

describe('trace: carriers', () => {
  it('injects nothing for a context without a span', () => {
    const obj: Record<string, string> = {};
    inject(background(), obj);
    assert.deepEqual(obj, {});
  });

  it('extract of an invalid carrier returns the same context', () => {
    const ctx = background();
    assert.equal(extract(ctx, {}), ctx);
    assert.equal(extract(ctx, { traceparent: 42 }), ctx);
    assert.equal(extract(ctx, null as unknown as Carrier), ctx);
  });
});
