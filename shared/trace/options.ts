// Start options. Surface and lane options are preallocated per value and `withAttributes` returns its
// argument unchanged, so passing options allocates nothing beyond what the caller builds.
import { LANES, SURFACES, type Lane, type Surface } from './constants.js';
import type { Attributes, SourceLocation } from './types.js';

export const OPT_SURFACE = 1;
export const OPT_LANE = 2;
export const OPT_SOURCE = 3;
export const OPT_START_TIME = 4;

/** @internal The tagged form of every start option except attributes. */
export class SpanOption {
  constructor(
    readonly kind: number,
    readonly value: unknown,
  ) {
    Object.freeze(this);
  }
}

declare const attributesBrand: unique symbol;
/** Attributes passed as a start option (the object itself; see `withAttributes`). */
export type AttributesOption = Attributes & { readonly [attributesBrand]?: true };
export type StartOption = SpanOption | AttributesOption;

const surfaceOptions = new Map<string, SpanOption>(
  SURFACES.map((s) => [s, new SpanOption(OPT_SURFACE, SURFACES.indexOf(s))]),
);
const laneOptions = new Map<string, SpanOption>(LANES.map((l) => [l, new SpanOption(OPT_LANE, LANES.indexOf(l))]));

function oneOf(fn: string, what: string, allowed: readonly string[], value: unknown): never {
  throw new TypeError(`${fn}: unknown ${what} ${JSON.stringify(value)}; expected one of ${allowed.join(', ')}`);
}

/** Where the span ran: `backend` (default), `frontend` or `worker`. */
export function withSurface(surface: Surface): SpanOption {
  return surfaceOptions.get(surface) ?? oneOf('withSurface', 'surface', SURFACES, surface);
}

/** Which part of request handling the span covers (default `user`). */
export function withLane(lane: Lane): SpanOption {
  return laneOptions.get(lane) ?? oneOf('withLane', 'lane', LANES, lane);
}

/**
 * Span attributes. The span keeps the object you pass (no copy is made at start; limits are applied when
 * the span is snapshotted), so hand over a fresh object and do not mutate it afterwards.
 */
export function withAttributes(attributes: Attributes): AttributesOption {
  if (attributes === null || typeof attributes !== 'object') {
    throw new TypeError('withAttributes: attributes must be an object or a Map');
  }
  if (Array.isArray(attributes))
    throw new TypeError('withAttributes: attributes must be an object or a Map, not an array');
  return attributes as AttributesOption;
}

/** The source location the span describes (file path or `file:` URL, 1-based line and column). */
export function withSource(source: SourceLocation): SpanOption {
  if (source === null || typeof source !== 'object' || typeof source.file !== 'string') {
    throw new TypeError('withSource: source must be an object with a string "file"');
  }
  for (const field of ['line', 'column'] as const) {
    const v = source[field];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0)) {
      throw new TypeError(`withSource: source.${field} must be a non-negative integer`);
    }
  }
  return new SpanOption(OPT_SOURCE, {
    file: source.file,
    line: source.line ?? 0,
    column: source.column ?? 0,
    ownerKind: String(source.ownerKind ?? ''),
    ownerId: String(source.ownerId ?? ''),
  });
}

/** An explicit start time (epoch milliseconds or a Date) instead of now. */
export function withStartTime(time: number | Date): SpanOption {
  const ms = time instanceof Date ? time.getTime() : time;
  if (typeof ms !== 'number' || !Number.isFinite(ms))
    throw new TypeError('withStartTime: time must be a finite epoch millisecond value or a valid Date');
  return new SpanOption(OPT_START_TIME, ms);
}
