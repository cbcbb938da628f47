// The three stages every executor runs once the request is admitted: decoding the handler's argument
// (its own span when the signature takes one), calling the handler (a span on the handler lane; a
// thrown value becomes its status), and sending what it returned (a redirect must stay on the site;
// a result no answer can be made of is a logged 500). Executors choose how a result becomes a
// Response and which headers go with it.
import { AttrEndpointKind, LaneHandler, type Span } from '../trace/index.js';
import type { EndpointRequest } from './endpoint-request.js';
import { thrownStatus } from './errors.js';
import { FormDecodeError } from './form.js';
import { callHandler, handlerArgument, takesInput } from './invoke.js';
import { laneOf } from './request-kind.js';
import { InvalidResultError, isLocalPath } from './responses.js';
import type { BoundHandler } from './routes.js';
import { markHandler, stageContext, stageFailed, startStage } from './stage-spans.js';
import { logFault } from './steps.js';

/** The decode stage's span, when the signature takes an argument (the no-op span when not traced). */
export function startDecode(x: EndpointRequest, h: BoundHandler): Span | undefined {
  return takesInput(h.signature)
    ? startStage(x.app, x.ctx, 'decode', laneOf(x.ep.entry.kind), x.ep.sources.decl)
    : undefined;
}

/**
 * The handler's argument, or the decoding error that names the bad field (the span says which).
 * Uploaded files are removed when decoding fails: the handler will not run.
 */
export async function decodeArgument(
  x: EndpointRequest,
  h: BoundHandler,
  decode: Span | undefined,
): Promise<{ arg: unknown } | { error: FormDecodeError }> {
  try {
    const arg = handlerArgument(h.signature, h.fields, x.form, x.target.query, x.req, x.body, x.state);
    decode?.setStatus('ok');
    decode?.end();
    return { arg };
  } catch (thrown) {
    await x.uploads?.cleanup();
    if (!(thrown instanceof FormDecodeError)) throw thrown;
    decode?.setStatus('error', thrown.message);
    decode?.end();
    return { error: thrown };
  }
}

/** What a handler returned, and the span of its call (ended). */
export interface Called {
  result: unknown;
  span: Span;
}

/**
 * Calls the handler in its span. A thrown value is answered (a 4xx `HttpError` with its message, a
 * logged 500 otherwise) and gives undefined; so does an answer the handler already sent itself.
 * Uploaded files are removed once it returns: they were its own while it ran.
 */
export async function invokeHandler(x: EndpointRequest, h: BoundHandler, arg: unknown): Promise<Called | undefined> {
  const { app, ep, ctx } = x;
  const e = ep.entry;
  const span = startStage(app, ctx, `handler ${e.handler.export}`, LaneHandler, ep.sources.handler);
  if (app.tracer !== undefined) {
    markHandler(span, e.handler.export);
    span.set(AttrEndpointKind, e.kind);
  }
  let result: unknown;
  try {
    result = await callHandler(h.fn, stageContext(span, ctx), arg);
  } catch (thrown) {
    const { status, message } = thrownStatus(thrown);
    if (status >= 500) {
      logFault(app, x.reply, `${x.name} failed`, thrown);
      stageFailed(ctx, span, thrown, `${e.kind} ${e.pageId}.${e.symbol}`);
    }
    span.end();
    x.fail(status, 'request_failed', message);
    return undefined;
  } finally {
    await x.uploads?.cleanup();
  }
  span.setStatus('ok');
  span.end();
  return x.reply.res.headersSent ? undefined : { result, span };
}

/**
 * Sends the Response `respond` makes of the handler's result, `no-store`, with `headers` (and those
 * `more` adds once the Response is known). A result no answer can be made of, or a redirect off
 * the site, is a logged 500.
 */
export async function sendResult(
  x: EndpointRequest,
  called: Called,
  respond: (result: unknown) => Response,
  headers: Record<string, string>,
  more?: (response: Response, headers: Record<string, string>) => void,
): Promise<void> {
  let response: Response;
  try {
    response = respond(called.result);
  } catch (invalid) {
    if (!(invalid instanceof InvalidResultError)) throw invalid;
    x.app.log(`kit: ${x.name}: ${invalid.message}`);
    stageFailed(x.ctx, called.span, invalid, x.name);
    return x.fail(500, 'request_failed', 'internal server error');
  }
  more?.(response, headers);
  const location = response.headers.get('location');
  if (location !== null && response.status >= 300 && response.status < 400 && !isLocalPath(location)) {
    x.app.log(`kit: ${x.name} answered a redirect to a non-local location; sent 500 instead`);
    return x.fail(500, 'request_failed', 'internal server error');
  }
  await x.reply.write(response, { noStore: true, extraHeaders: headers });
}
