// Tracer options: where spans go, how they are sampled, how the export queue behaves.
import { SAMPLER_ALWAYS_ON, type Sampler } from './sampler.js';
import type { Sink } from './types.js';

export const DEFAULT_EXPORT_QUEUE_SIZE = 256;
export const DEFAULT_EXPORT_TIMEOUT_MS = 5000;

/** @internal */
export interface TracerConfig {
  sink: Sink | null;
  sampler: Sampler;
  queueSize: number;
  timeoutMs: number;
  sourceRoot: string;
  onError: ((err: unknown) => void) | null;
}

/** A tracer option (see `withSink`, `withSampler`, `withExportQueueSize`, `withExportTimeout`, ...). */
export class TracerOption {
  /** @internal */
  constructor(readonly _apply: (config: TracerConfig) => void) {
    Object.freeze(this);
  }
}

/** Where finished spans go. Without a sink spans are sampled but discarded. */
export function withSink(sink: Sink): TracerOption {
  if (sink === null || typeof sink !== 'object' || typeof sink.write !== 'function')
    throw new TypeError('withSink: sink must be an object with a write(span) method');
  return new TracerOption((c) => (c.sink = sink));
}

/** The sampler; null means `alwaysOn()`. */
export function withSampler(sampler: Sampler | null): TracerOption {
  if (sampler !== null && (typeof sampler !== 'object' || typeof sampler.shouldSample !== 'function')) {
    throw new TypeError('withSampler: sampler must have a shouldSample(params) method');
  }
  return new TracerOption((c) => (c.sampler = sampler ?? SAMPLER_ALWAYS_ON));
}

/** Capacity of the export queue (default 256); when full, newly ended spans are dropped and counted. */
export function withExportQueueSize(size: number): TracerOption {
  if (!Number.isInteger(size) || size < 1) throw new TypeError('withExportQueueSize: size must be a positive integer');
  return new TracerOption((c) => (c.queueSize = size));
}

/** How long one asynchronous sink call may take (default 5000 ms) before it is counted as timed out. */
export function withExportTimeout(ms: number): TracerOption {
  if (typeof ms !== 'number' || !(ms > 0) || !Number.isFinite(ms))
    throw new TypeError('withExportTimeout: ms must be a positive number of milliseconds');
  return new TracerOption((c) => (c.timeoutMs = ms));
}

/**
 * Directory that absolute source paths are reported relative to (default: the working directory when the
 * tracer was created); null reports absolute paths.
 */
export function withSourceRoot(dir: string | null): TracerOption {
  if (dir !== null && typeof dir !== 'string') throw new TypeError('withSourceRoot: dir must be a string or null');
  return new TracerOption((c) => (c.sourceRoot = dir === null ? '' : dir.replace(/[\\/]+$/, '')));
}

/** Called with every sink error instead of the default (one line on stderr, at most once a second). */
export function withErrorHandler(handler: (err: unknown) => void): TracerOption {
  if (typeof handler !== 'function') throw new TypeError('withErrorHandler: handler must be a function');
  return new TracerOption((c) => (c.onError = handler));
}
