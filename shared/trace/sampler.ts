// Samplers decide at span start whether a span is recorded. The ratio sampler reads the trace ID, so every
// process that sees the same trace makes the same decision and a trace is kept or dropped as a whole.
import { performance } from 'node:perf_hooks';
import type { Lane, Surface } from './constants.js';
import type { SpanIdentity } from './context.js';
import type { Attributes } from './types.js';

/**
 * What a sampler sees. The tracer reuses one object for every decision: read it during `shouldSample`,
 * do not keep it.
 */
export interface SamplingParameters {
  /** The trace ID as 32 hex digits. */
  readonly traceId: string;
  /** The first 8 hex digits of the trace ID as an unsigned 32-bit number. */
  readonly traceIdHigh: number;
  /** The next 8 hex digits of the trace ID as an unsigned 32-bit number. */
  readonly traceIdLow: number;
  /** The parent span (local or remote), or null for a root span. */
  parent: SpanIdentity | null;
  name: string;
  surface: Surface;
  lane: Lane;
  /** The attributes given at start (`withAttributes`), or null. */
  attributes: Attributes | null;
}

export interface Sampler {
  /** Reported by `tracer.health()`: `always_on`, `always_off`, `ratio`, `parent_based`, or a custom name. */
  readonly name: string;
  /** The ratio, for ratio-based samplers. */
  readonly ratio?: number;
  shouldSample(params: SamplingParameters): boolean;
}

const ALWAYS_ON: Sampler = Object.freeze({ name: 'always_on', shouldSample: () => true });
const ALWAYS_OFF: Sampler = Object.freeze({ name: 'always_off', shouldSample: () => false });

/** Records every span. */
export function alwaysOn(): Sampler {
  return ALWAYS_ON;
}

/** Records nothing; `start` without options then returns the same context and allocates nothing. */
export function alwaysOff(): Sampler {
  return ALWAYS_OFF;
}

/**
 * Records a fraction `ratio` (0..1) of traces: a span is kept when the first 16 hex digits of its trace
 * ID, read as an unsigned 64-bit number, are at most `ratio · 2^64`. `ratio ≤ 0` is `alwaysOff()`, `≥ 1`
 * is `alwaysOn()`.
 */
export function ratioSampler(ratio: number): Sampler {
  if (typeof ratio !== 'number' || Number.isNaN(ratio))
    throw new TypeError('ratioSampler: ratio must be a number between 0 and 1');
  if (ratio <= 0) return ALWAYS_OFF;
  if (ratio >= 1) return ALWAYS_ON;
  // ratio·2^64 is exact in binary floating point (a power-of-two scale), and below 2^64 since ratio < 1.
  const threshold = BigInt(Math.floor(ratio * 2 ** 64));
  const hi = Number(threshold >> 32n);
  const lo = Number(threshold & 0xffffffffn);
  return Object.freeze({
    name: 'ratio',
    ratio,
    shouldSample(p: SamplingParameters): boolean {
      const h = p.traceIdHigh;
      return h < hi || (h === hi && p.traceIdLow <= lo);
    },
  });
}

/** Follows the parent's sampled flag (local or remote); `root` decides for spans without a parent. */
export function parentBased(root: Sampler): Sampler {
  return Object.freeze({
    name: 'parent_based',
    ...(root.ratio !== undefined ? { ratio: root.ratio } : {}),
    shouldSample(p: SamplingParameters): boolean {
      return p.parent !== null ? p.parent.sampled : root.shouldSample(p);
    },
  });
}

/** What a rule expects of one attribute: the exact value, or a pattern its text must match. */
export type AttributeMatcher = string | number | boolean | RegExp;

/** One rule of `ruleSampler`: every field given must match; `sampler` decides for the spans it matches. */
export interface SamplingRule {
  /** The span name: exact text, or a pattern (request spans are named `METHOD /route/{pattern}`). */
  name?: string | RegExp;
  lane?: Lane;
  surface?: Surface;
  /**
   * Start attributes the span must carry, each equal to (or, for a pattern, matching) the value given:
   * `{ 'http.route': /^\/admin\//, 'kit.page': 'home' }`. A span without the attribute does not match.
   */
  attributes?: Readonly<Record<string, AttributeMatcher>>;
  sampler: Sampler;
}

function attributeOf(attrs: Attributes | null, key: string): unknown {
  if (attrs === null) return undefined;
  if (attrs instanceof Map) return attrs.get(key);
  return Object.prototype.hasOwnProperty.call(attrs, key) ? (attrs as Record<string, unknown>)[key] : undefined;
}

function attributesMatch(want: Readonly<Record<string, AttributeMatcher>>, attrs: Attributes | null): boolean {
  for (const key of Object.keys(want)) {
    const m = want[key];
    const v = attributeOf(attrs, key);
    if (v === undefined) return false;
    if (m instanceof RegExp ? !m.test(String(v)) : v !== m) return false;
  }
  return true;
}

/**
 * Decides by the first rule that matches the span (its name, lane, surface or start attributes), else by
 * `fallback`: `ruleSampler([{ name: /^GET \/_kit\/health$/, sampler: alwaysOff() }], ratioSampler(0.1))`.
 * Wrap it in `parentBased` to keep traces whole.
 */
export function ruleSampler(rules: readonly SamplingRule[], fallback: Sampler): Sampler {
  rules.forEach((r, i) => {
    if (!r || typeof r.sampler?.shouldSample !== 'function')
      throw new TypeError(`ruleSampler: rule ${i} needs a sampler`);
    if (r.attributes !== undefined && (r.attributes === null || typeof r.attributes !== 'object'))
      throw new TypeError(`ruleSampler: rule ${i}: attributes must be an object of attribute values or patterns`);
  });
  const matches = (r: SamplingRule, p: SamplingParameters): boolean =>
    (r.name === undefined || (typeof r.name === 'string' ? p.name === r.name : r.name.test(p.name))) &&
    (r.lane === undefined || p.lane === r.lane) &&
    (r.surface === undefined || p.surface === r.surface) &&
    (r.attributes === undefined || attributesMatch(r.attributes, p.attributes));
  const list = [...rules];
  return Object.freeze({
    name: 'rule_based',
    shouldSample(p: SamplingParameters): boolean {
      for (const r of list) if (matches(r, p)) return r.sampler.shouldSample(p);
      return fallback.shouldSample(p);
    },
  });
}

/**
 * Records at most `perSecond` spans a second (a token bucket refilled continuously, holding at most
 * one second's worth), whatever the traffic; `parentBased(rateLimitedSampler(n))` keeps at most n
 * traces a second, whole. `clock` (milliseconds) is for tests.
 */
export function rateLimitedSampler(perSecond: number, clock: () => number = () => performance.now()): Sampler {
  if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond < 0)
    throw new TypeError('rateLimitedSampler: perSecond must be a finite number of at least 0');
  let tokens = perSecond;
  let last = clock();
  return Object.freeze({
    name: 'rate_limited',
    shouldSample(): boolean {
      const t = clock();
      tokens = Math.min(perSecond, tokens + ((t - last) / 1000) * perSecond);
      last = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  });
}

/** @internal */
export const SAMPLER_ALWAYS_ON = ALWAYS_ON;
/** @internal */
export const SAMPLER_ALWAYS_OFF = ALWAYS_OFF;
