// Child spans of a traced request, one per stage the pipeline runs: the route match, each guard, the
// CSRF check, input decoding, `Load<PageID>`, the handler call, rendering and static files. Each sits
// on its lane and names the declaration that caused it (the `.kit` line of the route, the guard, the
// `act`/`api`/`fragment`, or the handler's `.ts` line). With tracing off nothing here allocates: the
// callers pass constant names and read `app.tracer` first; the source options are built at start-up.
import {
  AttrGuard,
  AttrGuardDecision,
  AttrGuardReason,
  AttrHandler,
  Context,
  type Lane,
  LevelWarn,
  NOOP_SPAN,
  recordException,
  describeException,
  type Span,
  type SpanOption,
  type Tracer,
  spanFromContext,
  withLane,
} from '../trace/index.js';
import type { GuardWatch } from './guards.js';
import type { AppServices } from './services.js';

/** Starts a stage span under `ctx`; the shared no-op span when tracing is off. */
export function startStage(
  app: AppServices,
  ctx: Context,
  name: string,
  lane: Lane,
  source: SpanOption | undefined,
): Span {
  const tracer = app.tracer;
  if (tracer === undefined) return NOOP_SPAN;
  return begin(tracer, ctx, name, lane, source);
}

function begin(tracer: Tracer, ctx: Context, name: string, lane: Lane, source: SpanOption | undefined): Span {
  const started =
    source === undefined ? tracer.start(ctx, name, withLane(lane)) : tracer.start(ctx, name, withLane(lane), source);
  return started[1];
}

/** The context code inside a stage runs in: the stage's span when it records, else `ctx`. */
export function stageContext(span: Span, ctx: Context): Context {
  return span instanceof Context ? span : ctx;
}

/** The route-match span: the lookup already ran, so it marks which declaration answered. */
export function recordMatch(app: AppServices, ctx: Context, route: string, source: SpanOption | undefined): void {
  if (app.tracer === undefined) return;
  // No `http.route` attribute: that marks the request span, which route figures and readers look for.
  const span = begin(app.tracer, ctx, `match ${route}`, 'route', source);
  span.setStatus('ok');
  span.end();
}

/** Watches the guards of a traced request: one span per guard, ended with its decision. */
export function guardWatch(app: AppServices, ctx: Context, source: SpanOption | undefined): GuardWatch | undefined {
  const tracer = app.tracer;
  if (tracer === undefined) return undefined;
  return (id) => {
    const span = begin(tracer, ctx, `guard ${id}`, 'guard', source);
    span.set(AttrGuard, id);
    return (outcome) => {
      span.set(AttrGuardDecision, outcome.kind);
      switch (outcome.kind) {
        case 'allow':
          span.setStatus('ok');
          break;
        case 'deny':
          denied(ctx, `guard ${id} denied the request`, outcome.message, { [AttrGuard]: id }, span);
          break;
        case 'redirect':
          denied(ctx, `guard ${id} redirected to ${outcome.location}`, undefined, { [AttrGuard]: id }, span);
          break;
        case 'unknown':
          denied(ctx, `guard ${id} is not registered in the app config`, 'denied', { [AttrGuard]: id }, span);
          break;
        case 'error':
          stageFailed(ctx, span, outcome.error, `guard ${id}`);
          break;
      }
      span.end();
    };
  };
}

/**
 * A route that declares no guard is denied before anything runs (default deny): recorded as a
 * guard's denial is, a `guard` span with decision `deny` and reason `missing_guard`, and a warning
 * on the request span, so the trace of the 403 says why.
 */
export function deniedWithoutGuard(app: AppServices, ctx: Context, source: SpanOption | undefined): void {
  if (app.tracer === undefined) return;
  const span = begin(app.tracer, ctx, 'guard (none declared)', 'guard', source);
  span.set(AttrGuardDecision, 'deny');
  span.set(AttrGuardReason, 'missing_guard');
  denied(ctx, 'no guard is declared: denied by default', 'missing_guard', { [AttrGuardReason]: 'missing_guard' }, span);
  span.end();
}

/**
 * Records on the request span (and on `stage`, when given) why the request was refused: a guard's
 * denial or redirect, a failed CSRF check.
 */
export function denied(
  ctx: Context,
  what: string,
  why: string | undefined,
  attrs: Record<string, unknown>,
  stage?: Span,
): void {
  const message = why === undefined || why === '' ? what : `${what} (${why})`;
  spanFromContext(ctx).event(LevelWarn, message, attrs);
  stage?.event(LevelWarn, message, attrs);
}

/**
 * A stage threw: the `exception` event goes on the stage's span (or on the request span when the
 * stage has none), and the request span's status says which stage failed and why.
 */
export function stageFailed(ctx: Context, stage: Span, err: unknown, what: string): void {
  const request = spanFromContext(ctx);
  if (!request.isRecording()) return;
  const target = stage.isRecording() ? stage : request;
  recordException(target, err);
  const d = describeException(err);
  request.setStatus('error', `${what} failed: ${d.message === '' ? d.type : `${d.type}: ${d.message}`}`);
}

/** Names the called function on a handler or load span. */
export function markHandler(span: Span, name: string): void {
  span.set(AttrHandler, name);
}
