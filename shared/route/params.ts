// Typed route params: the decoders behind `{name:type}`, the `route.*` accessors user code calls,
// and the request-time binding that turns decode failures into 400/404.
// Errors name the param and the expected type but never echo the raw value: it came from the
// request and could be anything (markup, secrets, very long strings).
import { quote } from './pattern.js';
import { parseGoFloat } from './go-float.js';
import { getOwn, setOwn } from './record.js';
import type { ParamType, ParsedRoute } from './types.js';

export type Params = Record<string, string> | Map<string, string>;
export interface ParamResult<T> {
  value: T | undefined;
  found: boolean;
  error?: Error;
}
export type ParamValue = string | number | bigint | boolean;

/** A present param whose text does not decode as its declared type. */
export class RouteParamError extends Error {
  readonly param: string;
  readonly type: ParamType;
  constructor(param: string, type: ParamType) {
    super(`invalid ${type} route param ${quote(param)}`);
    this.name = 'RouteParamError';
    this.param = param;
    this.type = type;
  }
}

/** A required param that is absent or empty. */
export class MissingParamError extends Error {
  readonly param: string;
  constructor(param: string) {
    super(`missing route param ${quote(param)}`);
    this.name = 'MissingParamError';
    this.param = param;
  }
}

const SIGNED_DIGITS = /^[+-]?[0-9]+$/;
const DIGITS = /^[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
// Exactly Go's strconv.ParseBool.
const BOOLS = new Map<string, boolean>([
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
]);

// `int`/`uint` are JavaScript numbers, so they stop at the safe-integer range rather than Go's
// 64 bits (a larger value would silently lose precision); `int64`/`uint64` are bigints.
// Leading zeros are allowed (as in Go) but skipped before converting, and anything longer than
// 20 significant digits is out of every range: a huge request value never reaches BigInt().
function significant(raw: string, pattern: RegExp): string | undefined {
  if (!pattern.test(raw)) return undefined;
  const negative = raw.charCodeAt(0) === 45;
  let i = raw.charCodeAt(0) === 43 || negative ? 1 : 0;
  while (i < raw.length - 1 && raw.charCodeAt(i) === 48) i++;
  const digits = raw.slice(i);
  if (digits.length > 20) return undefined;
  return negative && digits !== '0' ? '-' + digits : digits;
}

function safeInteger(raw: string, pattern: RegExp): number | undefined {
  const s = significant(raw, pattern);
  if (s === undefined) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

function bigInteger(raw: string, pattern: RegExp, min: bigint, max: bigint): bigint | undefined {
  const s = significant(raw, pattern);
  if (s === undefined) return undefined;
  const big = BigInt(s);
  return big < min || big > max ? undefined : big;
}

/** The decoded value, or undefined when `raw` is not valid for `type` (empty is never valid). */
export function decodeValue(type: ParamType, raw: string): ParamValue | undefined {
  if (raw === '') return undefined;
  switch (type) {
    case 'string':
      return raw;
    case 'int':
      return safeInteger(raw, SIGNED_DIGITS);
    case 'uint':
      return safeInteger(raw, DIGITS);
    case 'int64':
      return bigInteger(raw, SIGNED_DIGITS, INT64_MIN, INT64_MAX);
    case 'uint64':
      return bigInteger(raw, DIGITS, 0n, UINT64_MAX);
    case 'bool':
      return BOOLS.get(raw);
    case 'float64':
      return parseGoFloat(raw);
  }
}

/** Counts ASCII digits after an optional sign; -1 when anything else appears or no digit does. */
function digitCount(raw: string, signed: boolean): number {
  let i = 0;
  if (signed) {
    const c = raw.charCodeAt(0);
    if (c === 43 || c === 45) i = 1;
  }
  if (i === raw.length) return -1;
  for (let j = i; j < raw.length; j++) {
    const c = raw.charCodeAt(j);
    if (c < 48 || c > 57) return -1;
  }
  return raw.length - i;
}

/**
 * Whether `raw` decodes as `type`, without building the value (the router asks this at every
 * typed param segment). Short digit strings are decided by their length alone.
 */
export function decodesAs(type: ParamType, raw: string): boolean {
  switch (type) {
    case 'string':
      return raw !== '';
    case 'int':
    case 'uint': {
      const digits = digitCount(raw, type === 'int');
      return digits > 0 && (digits <= 15 || decodeValue(type, raw) !== undefined);
    }
    case 'int64':
    case 'uint64': {
      const digits = digitCount(raw, type === 'int64');
      return digits > 0 && (digits <= 18 || decodeValue(type, raw) !== undefined);
    }
    case 'bool':
      return BOOLS.has(raw);
    case 'float64':
      return decodeValue(type, raw) !== undefined;
  }
}

export function decodeParam(type: ParamType, raw: string): { ok: true; value: ParamValue } | { ok: false } {
  const value = decodeValue(type, raw);
  return value === undefined ? { ok: false } : { ok: true, value };
}

function read<T extends ParamValue>(params: Params, name: string, type: ParamType): ParamResult<T> {
  const raw = getOwn(params, name);
  if (typeof raw !== 'string' || raw === '') return { value: undefined, found: false };
  const value = decodeValue(type, raw);
  if (value === undefined) return { value: undefined, found: true, error: new RouteParamError(name, type) };
  return { value: value as T, found: true };
}

/** `route.int(params, 'id')` and friends: `{ value, found, error }`, never throwing. */
export const route = Object.freeze({
  string: (p: Params, name: string): ParamResult<string> => read<string>(p, name, 'string'),
  int: (p: Params, name: string): ParamResult<number> => read<number>(p, name, 'int'),
  int64: (p: Params, name: string): ParamResult<bigint> => read<bigint>(p, name, 'int64'),
  uint: (p: Params, name: string): ParamResult<number> => read<number>(p, name, 'uint'),
  uint64: (p: Params, name: string): ParamResult<bigint> => read<bigint>(p, name, 'uint64'),
  bool: (p: Params, name: string): ParamResult<boolean> => read<boolean>(p, name, 'bool'),
  float64: (p: Params, name: string): ParamResult<number> => read<number>(p, name, 'float64'),
  /** The raw value; throws MissingParamError when absent or empty. */
  required(p: Params, name: string): string {
    const raw = getOwn(p, name);
    if (typeof raw !== 'string' || raw === '') throw new MissingParamError(name);
    return raw;
  },
});

export type TypedParamsResult =
  | { ok: true; values: Record<string, unknown> }
  | { ok: false; status: 400 | 404; param: string; message: string };

/**
 * Request-time binding for SSR pages and fragments: decodes every declared param before guards
 * and hooks run. Absent or empty → 404 `missing route parameter <name>`; undecodable → 400
 * `invalid route parameter <name>` (the first failing param in declaration order).
 */
export function decodeTypedParams(r: ParsedRoute, params: Params): TypedParamsResult {
  const values: Record<string, unknown> = {};
  for (const { name, type } of r.params) {
    const raw = getOwn(params, name);
    if (typeof raw !== 'string' || raw === '')
      return { ok: false, status: 404, param: name, message: `missing route parameter ${name}` };
    const value = decodeValue(type, raw);
    if (value === undefined) return { ok: false, status: 400, param: name, message: `invalid route parameter ${name}` };
    setOwn(values, name, value);
  }
  return { ok: true, values };
}
