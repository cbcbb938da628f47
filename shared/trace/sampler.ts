// Samplers decide at span start whether a span is recorded. The ratio sampler reads the trace ID, so every
// process that sees the same trace makes the same decision and a trace is kept or dropped as a whole.
import type { Lane, Surface } from './constants.js';
import type { SpanIdentity } from './context.js';

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

/** @internal */
export const SAMPLER_ALWAYS_ON = ALWAYS_ON;
/** @internal */
export const SAMPLER_ALWAYS_OFF = ALWAYS_OFF;
