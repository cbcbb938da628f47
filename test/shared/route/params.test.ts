import { strict as assert } from 'node:assert';
import {
  decodeParam,
  decodeTypedParams,
  parseRoutePattern,
  route,
  MissingParamError,
  RouteParamError,
} from '#shared/route/index.js';
import type { ParamType, Params } from '#shared/route/index.js';

type Row = [raw: string, expected: string | number | bigint | boolean | null];

// null = does not decode. Bounds follow typescript.md: int/uint are safe-integer numbers,
// int64/uint64 are bigints with Go's ranges, bool is Go's ParseBool set.
const TABLES: Record<ParamType, Row[]> = {
  string: [
    ['hello', 'hello'],
    ['a b/c', 'a b/c'],
    ['0', '0'],
    ['', null],
  ],
  int: [
    ['0', 0],
    ['42', 42],
    ['-42', -42],
    ['+7', 7],
    ['007', 7],
    ['-0', 0],
    ['9007199254740991', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
    ['0000000000000000009007199254740991', 9007199254740991],
    ['9007199254740992', null],
    ['-9007199254740992', null],
    ['99999999999999999999', null],
    ['', null],
    [' 1', null],
    ['1 ', null],
    ['1.0', null],
    ['1e3', null],
    ['0x10', null],
    ['1_000', null],
    ['+', null],
    ['-', null],
    ['--1', null],
    ['\u0661', null],
    ['\uff11', null],
    ['abc', null],
  ],
  uint: [
    ['0', 0],
    ['42', 42],
    ['9007199254740991', 9007199254740991],
    ['9007199254740992', null],
    ['-1', null],
    ['+1', null],
    ['-0', null],
    ['', null],
    ['1.5', null],
  ],
  int64: [
    ['0', 0n],
    ['-1', -1n],
    ['+12', 12n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775808', null],
    ['-9223372036854775809', null],
    ['9007199254740993', 9007199254740993n],
    ['', null],
    ['1.0', null],
    ['0x1', null],
  ],
  uint64: [
    ['0', 0n],
    ['18446744073709551615', 18446744073709551615n],
    ['18446744073709551616', null],
    ['-1', null],
    ['+1', null],
    ['', null],
  ],
  bool: [
    ['1', true],
    ['t', true],
    ['T', true],
    ['TRUE', true],
    ['true', true],
    ['True', true],
    ['0', false],
    ['f', false],
    ['F', false],
    ['FALSE', false],
    ['false', false],
    ['False', false],
    ['tRUE', null],
    ['yes', null],
    ['on', null],
    ['2', null],
    ['', null],
    [' true', null],
    ['truE', null],
  ],
  float64: [
    // decimal forms
    ['1', 1],
    ['+1', 1],
    ['-0.1', -0.1],
    ['1.', 1],
    ['.5', 0.5],
    ['1e23', 1e23],
    ['1E23', 1e23],
    ['625e-3', 0.625],
    ['1.7976931348623157e308', 1.7976931348623157e308],
    ['1.7976931348623158e308', 1.7976931348623157e308],
    ['5e-324', 5e-324],
    ['2e-324', 0],
    ['1e-400000', 0],
    ['0e+01234567890123456789', 0],
    ['2.2250738585072012e-308', 2.2250738585072014e-308],
    ['1090544144181609348671888949248', 1.0905441441816093e30],
    // hexadecimal forms
    ['0x1p-2', 0.25],
    ['0x1p0', 1],
    ['0x1ep-1', 15],
    ['-0x1ep-1', -15],
    ['0x1fFe2.p0', 131042],
    ['0x1fFe2.P0', 131042],
    ['0x0.fp4', 15],
    ['0x.1p-2', 0.015625],
    ['0X1P+2', 4],
    ['0x1.fffffffffffffp1023', 1.7976931348623157e308],
    ['0x1.fffffffffffff7fffp1023', 1.7976931348623157e308],
    ['0x1p-1074', 5e-324],
    ['0x0.00000000000008p-1022', 0],
    ['0x0.000000000000081p-1022', 5e-324],
    ['0x1.00000000000008p0', 1],
    ['0x1.000000000000081p0', 1.0000000000000002],
    ['0x1.00000000000018p0', 1.0000000000000004],
    ['0x0.00000003456788p-1022', 1.694649e-317],
    ['0x0.00000003456789p-1022', 1.6946496e-317],
    ['0x1.fffffffffffff8p-1022', 4.450147717014403e-308],
    ['0x1.fffffffffffff7p-1022', 4.4501477170144023e-308],
    ['0x2.' + '2'.repeat(4000) + 'p221', 7.18931911124017e66],
    ['0x1p-18446744073709551616', 0],
    // underscores: only between digits (Go's underscoreOK)
    ['1_23.50_0_0e+1_2', 1.235e14],
    ['0x_1_2.3_4_5p+1_2', 74565],
    ['-0x1_ep-1', -15],
    ['-_123.5e+12', null],
    ['_123.5e+12', null],
    ['1__23.5e+12', null],
    ['123_.5e+12', null],
    ['123._5e+12', null],
    ['123.5_e+12', null],
    ['123.5e_+12', null],
    ['123.5e+_12', null],
    ['123.5e+12_', null],
    ['0x__12.345p+12', null],
    ['0x12.345_p+12', null],
    ['_0x12.345p+12', null],
    // specials
    ['inf', Infinity],
    ['+INF', Infinity],
    ['-Inf', -Infinity],
    ['-Infinity', -Infinity],
    ['Infinity', Infinity],
    ['+INFINITY', Infinity],
    ['infinit', null],
    ['infin', null],
    ['-nan', null],
    ['+nan', null],
    ['nan(1)', null],
    // overflow is an error (Go: ErrRange)
    ['1.7976931348623159e308', null],
    ['1e309', null],
    ['-1e400', null],
    ['0x1p1024', null],
    ['0x1.fffffffffffff8p1023', null],
    ['1e+18446744073709551616', null],
    ['0x1p+4294967296', null],
    // syntax errors
    ['', null],
    ['.', null],
    ['e5', null],
    ['1e', null],
    ['1e-', null],
    ['.e-1', null],
    ['1x', null],
    ['1.1.', null],
    ['0x', null],
    ['0x.', null],
    ['0x1', null],
    ['0x1e2', null],
    ['1p2', null],
    ['0x1p', null],
    ['0x.1p+', null],
    [' 1', null],
    ['1 ', null],
    ['1\u00002', null],
    ['Infinityx', null],
    ['0b101', null],
  ],
};

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) || (a === b && a !== 0);
  return a === b;
}

describe('shared/route decodeParam', () => {
  for (const [type, rows] of Object.entries(TABLES) as [ParamType, Row[]][]) {
    describe(type, () => {
      for (const [raw, expected] of rows) {
        const shown = raw.length > 40 ? raw.slice(0, 37) + '...' : raw;
        it(`${JSON.stringify(shown)} → ${expected === null ? 'invalid' : String(expected)}`, () => {
          const r = decodeParam(type, raw);
          if (expected === null) assert.deepEqual(r, { ok: false });
          else {
            assert.equal(r.ok, true);
            if (r.ok) assert.ok(same(r.value, expected), `got ${String(r.value)} (${typeof r.value})`);
          }
        });
      }
    });
  }

  it('nan decodes to NaN (Go accepts it)', () => {
    for (const raw of ['nan', 'NaN', 'NAN']) {
      const r = decodeParam('float64', raw);
      assert.ok(r.ok && Number.isNaN(r.value as number), raw);
    }
  });
  it('keeps the sign of zero for float64 (as Go) but never gives -0 for int', () => {
    const f = decodeParam('float64', '-0');
    assert.ok(f.ok && Object.is(f.value, -0));
    const hz = decodeParam('float64', '-0x0p+01234567890123456789');
    assert.ok(hz.ok && Object.is(hz.value, -0));
    const i = decodeParam('int', '-0');
    assert.ok(i.ok && Object.is(i.value, 0));
  });
  it('returns the right JavaScript types', () => {
    const types: Record<ParamType, string> = {
      string: 'string',
      int: 'number',
      uint: 'number',
      int64: 'bigint',
      uint64: 'bigint',
      bool: 'boolean',
      float64: 'number',
    };
    for (const [type, js] of Object.entries(types) as [ParamType, string][]) {
      const r = decodeParam(type, '1');
      assert.ok(r.ok);
      if (r.ok) assert.equal(typeof r.value, js, type);
    }
  });
});

describe('shared/route route.* accessors', () => {
  const secret = '<script>alert(1)</script>';
  it('return value and found for present params', () => {
    const p = { id: '42', big: '9223372036854775807', flag: 'T', ratio: '0.5', name: 'ann', u: '7' };
    assert.deepEqual(route.int(p, 'id'), { value: 42, found: true });
    assert.deepEqual(route.int64(p, 'big'), { value: 9223372036854775807n, found: true });
    assert.deepEqual(route.uint(p, 'u'), { value: 7, found: true });
    assert.deepEqual(route.uint64(p, 'u'), { value: 7n, found: true });
    assert.deepEqual(route.bool(p, 'flag'), { value: true, found: true });
    assert.deepEqual(route.float64(p, 'ratio'), { value: 0.5, found: true });
    assert.deepEqual(route.string(p, 'name'), { value: 'ann', found: true });
  });
  it('read Maps as well as records', () => {
    const p = new Map([['id', '5']]);
    assert.deepEqual(route.int(p, 'id'), { value: 5, found: true });
    assert.equal(route.required(p, 'id'), '5');
  });
  it('missing or empty: found false, no value, no error', () => {
    for (const p of [{}, { id: '' }, new Map<string, string>()] as Params[]) {
      assert.deepEqual(route.int(p, 'id'), { value: undefined, found: false });
      assert.deepEqual(route.string(p, 'id'), { value: undefined, found: false });
    }
  });
  it('never read inherited properties', () => {
    assert.deepEqual(route.string({}, 'constructor'), { value: undefined, found: false });
    assert.deepEqual(route.string({}, '__proto__'), { value: undefined, found: false });
    assert.throws(() => route.required({}, 'toString'), MissingParamError);
  });
  it('decode errors name the param and type and never echo the raw value', () => {
    const checks: [
      ParamType,
      (p: Record<string, string>, n: string) => { error?: Error; found: boolean; value: unknown },
    ][] = [
      ['int', route.int],
      ['int64', route.int64],
      ['uint', route.uint],
      ['uint64', route.uint64],
      ['bool', route.bool],
      ['float64', route.float64],
    ];
    for (const [type, fn] of checks) {
      const r = fn({ id: secret }, 'id');
      assert.equal(r.found, true);
      assert.equal(r.value, undefined);
      assert.ok(r.error instanceof RouteParamError);
      assert.equal(r.error.message, `invalid ${type} route param "id"`);
      assert.ok(!r.error.message.includes(secret) && !String(r.error.stack).includes(secret));
    }
  });
  it('required throws MissingParamError with the Go text', () => {
    assert.throws(
      () => route.required({}, 'slug'),
      (e: unknown) => e instanceof MissingParamError && e.message === 'missing route param "slug"',
    );
    assert.throws(() => route.required({ slug: '' }, 'slug'), MissingParamError);
    assert.equal(route.required({ slug: 'x' }, 'slug'), 'x');
  });
});

describe('shared/route decodeTypedParams (4.10)', () => {
  const r = parseRoutePattern('/p/{id:int}/{flag:bool}/{rest...}');
  it('decodes every declared param', () => {
    assert.deepEqual(decodeTypedParams(r, { id: '7', flag: 'true', rest: 'a/b' }), {
      ok: true,
      values: { id: 7, flag: true, rest: 'a/b' },
    });
  });
  it('400 invalid route parameter <name>, without the value', () => {
    assert.deepEqual(decodeTypedParams(r, { id: 'x<y', flag: 'true', rest: 'a' }), {
      ok: false,
      status: 400,
      param: 'id',
      message: 'invalid route parameter id',
    });
  });
  it('404 missing route parameter <name> for absent or empty params', () => {
    assert.deepEqual(decodeTypedParams(r, { id: '7', rest: 'a' }), {
      ok: false,
      status: 404,
      param: 'flag',
      message: 'missing route parameter flag',
    });
    assert.deepEqual(decodeTypedParams(r, { id: '', flag: 't', rest: 'a' }), {
      ok: false,
      status: 404,
      param: 'id',
      message: 'missing route parameter id',
    });
  });
  it('handles a param named __proto__ as an own property', () => {
    const res = decodeTypedParams(
      parseRoutePattern('/x/{__proto__:int}'),
      JSON.parse('{"__proto__":"3"}') as Record<string, string>,
    );
    assert.ok(res.ok);
    if (res.ok) {
      assert.ok(Object.prototype.hasOwnProperty.call(res.values, '__proto__'));
      assert.equal(Object.getPrototypeOf(res.values), Object.prototype);
    }
  });
});

describe('shared/route decoders on hostile input', () => {
  // Values come from request paths (up to the header size limit): decoding must stay linear.
  it('reject 16 KB digit runs with junk quickly (no regular-expression backtracking)', () => {
    const long = '1'.repeat(16_000);
    const start = process.hrtime.bigint();
    for (const type of ['int', 'int64', 'uint', 'uint64', 'float64'] as ParamType[]) {
      assert.deepEqual(decodeParam(type, long + 'x'), { ok: false }, type);
      assert.deepEqual(decodeParam(type, '-' + long + 'e'), { ok: false }, type);
    }
    assert.deepEqual(decodeParam('float64', '0x' + 'f'.repeat(16_000) + 'x'), { ok: false });
    assert.ok(Number(process.hrtime.bigint() - start) / 1e6 < 1000, 'well under a second');
  });
  it('leading zeros are fine however many (as in Go); long significant digits are out of range', () => {
    assert.deepEqual(decodeParam('int', '0'.repeat(10_000) + '42'), { ok: true, value: 42 });
    assert.deepEqual(decodeParam('uint64', '0'.repeat(10_000) + '18446744073709551615'), {
      ok: true,
      value: 18446744073709551615n,
    });
    assert.deepEqual(decodeParam('int64', '-' + '0'.repeat(100) + '9223372036854775808'), {
      ok: true,
      value: -9223372036854775808n,
    });
    assert.deepEqual(decodeParam('int64', '9'.repeat(10_000)), { ok: false });
    const f = decodeParam('float64', '1'.repeat(10_000));
    assert.ok(f.ok === false, 'overflows to +Inf, an error as in Go');
  });
});
