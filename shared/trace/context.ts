// The trace context: an immutable value passed from caller to callee (like Go's context.Context) that carries
// the active span or an extracted remote parent, plus optional request-scoped values.
import { hex128, hex64 } from './ids.js';
import type { StatusCode } from './constants.js';
import type { Attributes, Span } from './types.js';

/**
 * @internal Identity of the span a new span would be a child of. IDs are held as 32-bit words (high first);
 * `traceId`/`spanId` give them as hex.
 */
export interface SpanIdentity {
  readonly _t0: number;
  readonly _t1: number;
  readonly _t2: number;
  readonly _t3: number;
  readonly _s0: number;
  readonly _s1: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
  /** Validated W3C tracestate to pass on, or ''. */
  readonly traceState: string;
  /** True when the identity came from another process (`extract`). */
  readonly remote: boolean;
}

/** The public view of the identity active in a context. */
export interface TraceIdentity {
  traceId: string;
  spanId: string;
  sampled: boolean;
  traceState: string;
  remote: boolean;
}

/** What `tracer.start` returns: the child context and the span. */
export type StartResult = readonly [Context, Span];

/** The one span object handed out when a span is not sampled: every method is a no-op. */
class NoopSpan implements Span {
  get traceId(): string {
    return '';
  }
  get spanId(): string {
    return '';
  }
  event(_level: string, _message: string, _attributes?: Attributes): void {}
  setStatus(): void {}
  set(): void {}
  end(): void {}
  isRecording(): boolean {
    return false;
  }
  statusCode(): StatusCode {
    return 'unset';
  }
}

export const NOOP_SPAN: Span = Object.freeze(new NoopSpan());

export abstract class Context {
  /** @internal The active span or remote parent, or null. */
  abstract _identity(): SpanIdentity | null;
  /** @internal */
  abstract _lookup(key: unknown): unknown;
  /** @internal `[this, NOOP_SPAN]`, allocated once per context so unsampled starts allocate nothing. */
  abstract _noopPair(): StartResult;

  /** The value stored under `key` by `withValue` on this context or an ancestor. */
  value(key: unknown): unknown {
    return this._lookup(key);
  }
}

/**
 * @internal The cached `[ctx, NOOP_SPAN]` pair. It is a plain array, not a frozen one: V8 (11.x) does not take
 * its allocation-free destructuring path for frozen arrays. A caller that overwrote an element gets a new pair.
 */
export function noopPair(ctx: Context, cached: StartResult | null): StartResult {
  if (cached !== null && cached[0] === ctx && cached[1] === NOOP_SPAN) return cached;
  return [ctx, NOOP_SPAN];
}

class RootContext extends Context {
  private pair: StartResult | null = null;
  _identity(): null {
    return null;
  }
  _lookup(): undefined {
    return undefined;
  }
  _noopPair(): StartResult {
    const pair = this.pair;
    if (pair !== null && pair[0] === this && pair[1] === NOOP_SPAN) return pair;
    return (this.pair = noopPair(this, null));
  }
}

const BACKGROUND: Context = new RootContext();
BACKGROUND._noopPair();

/** The empty root context (Go's `context.Background()`). */
export function background(): Context {
  return BACKGROUND;
}

class ValueContext extends Context {
  private pair: StartResult | null = null;
  private readonly id: SpanIdentity | null;
  constructor(
    private readonly up: Context,
    private readonly key: unknown,
    private readonly val: unknown,
  ) {
    super();
    this.id = up._identity();
  }
  _identity(): SpanIdentity | null {
    return this.id;
  }
  _lookup(key: unknown): unknown {
    return key === this.key ? this.val : this.up._lookup(key);
  }
  _noopPair(): StartResult {
    const pair = this.pair;
    if (pair !== null && pair[0] === this && pair[1] === NOOP_SPAN) return pair;
    return (this.pair = noopPair(this, null));
  }
}

/** A child of `ctx` that also carries `value` under `key` (keys compare by identity; use a symbol). */
export function withValue(ctx: Context, key: unknown, value: unknown): Context {
  return new ValueContext(ctx, key, value);
}

const SAMPLED = 1;
const REMOTE = 2;

/**
 * @internal A span identity without a local recording span: an extracted remote parent, or an unsampled span.
 * An extracted identity keeps the received traceparent text: its IDs are sliced from it on demand, and a
 * version-00 header with plain flags is passed on unchanged by `inject`.
 */
export class IdentityContext extends Context implements SpanIdentity {
  private pair: StartResult | null = null;
  private traceHex = '';
  private spanHex = '';
  private readonly flags: number;
  constructor(
    private readonly up: Context,
    readonly _t0: number,
    readonly _t1: number,
    readonly _t2: number,
    readonly _t3: number,
    readonly _s0: number,
    readonly _s1: number,
    sampled: boolean,
    readonly traceState: string,
    remote: boolean,
    /** The validated traceparent this identity was read from, or ''. */
    readonly _header: string,
  ) {
    super();
    this.flags = (sampled ? SAMPLED : 0) | (remote ? REMOTE : 0);
  }
  get sampled(): boolean {
    return (this.flags & SAMPLED) !== 0;
  }
  get remote(): boolean {
    return (this.flags & REMOTE) !== 0;
  }
  get traceId(): string {
    if (this.traceHex === '')
      this.traceHex = this._header !== '' ? this._header.slice(3, 35) : hex128(this._t0, this._t1, this._t2, this._t3);
    return this.traceHex;
  }
  get spanId(): string {
    if (this.spanHex === '')
      this.spanHex = this._header !== '' ? this._header.slice(36, 52) : hex64(this._s0, this._s1);
    return this.spanHex;
  }
  _identity(): SpanIdentity {
    return this;
  }
  _lookup(key: unknown): unknown {
    return this.up._lookup(key);
  }
  _noopPair(): StartResult {
    const pair = this.pair;
    if (pair !== null && pair[0] === this && pair[1] === NOOP_SPAN) return pair;
    return (this.pair = noopPair(this, null));
  }
}

/** The identity (trace ID, span ID, sampled flag, tracestate) active in `ctx`, or null. */
export function spanIdentity(ctx: Context): TraceIdentity | null {
  const id = ctx._identity();
  return id === null
    ? null
    : { traceId: id.traceId, spanId: id.spanId, sampled: id.sampled, traceState: id.traceState, remote: id.remote };
}
