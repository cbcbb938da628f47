// Endpoint answers (actions, APIs, fragments, contracts) in the order the checks must run:
// default deny, typed params, Fetch Metadata, the capped body, guards, form parsing (multipart
// uploads streamed to temporary files, removed whatever happens) and CSRF, an unbound handler's
// 501, partial targets, constraint validation, then decoding and the call. A failed check or a
// `fail()` / `showPage()` answer re-renders the action's page (`form-answer.ts`). CORS preflights too.
import type { IncomingMessage } from 'node:http';
import type { RequestPathResult } from '../route/index.js';
import { renderTemplate } from '../render/index.js';
import { AttrEndpointKind, type Context, LaneGuard, LaneHandler } from '../trace/index.js';
import { BodyAbortedError, BodyTooLargeError, isFormContentType, parseFormBody, readBody } from './body.js';
import { isSecureRequest, requestContext } from './context.js';
import { corsResponseHeaders, originAllowed, preflight } from './cors.js';
import { CSRF_FIELD, CSRF_HEADER, cookieName, readCookie, validSubmission } from './csrf.js';
import { type ErrorCode, NO_STORE, thrownStatus } from './errors.js';
import { checkConstraints, hasErrors } from './constraints.js';
import { answerWithPage, type FormAnswer } from './form-answer.js';
import { ActionFailure, PageAnswer } from './form-state.js';
import { FormDecodeError, formFromData } from './form.js';
import { isPublic } from './guards.js';
import { callHandler, handlerArgument, takesInput } from './invoke.js';
import { MultipartError, parseMultipart, UploadLimitError, UploadScope } from './multipart.js';
import type { Reply } from './reply.js';
import { headerValue, isPartial } from './request-kind.js';
import {
  contractResponse,
  FRAGMENT_SWAP,
  FRAGMENT_TARGET,
  InvalidResultError,
  isLocalPath,
  toResponse,
} from './responses.js';
import type { EndpointRuntime } from './routes.js';
import type { AppServices } from './services.js';
import { laneOf } from './request-kind.js';
import { denied, deniedWithoutGuard, markHandler, stageContext, stageFailed, startStage } from './stage-spans.js';
import { decodeParams, logFault, passGuards, requestState } from './steps.js';

const HTML_TYPE = 'text/html; charset=utf-8';
const UNSAFE_METHODS_EXEMPT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export function corsPreflight(app: AppServices, req: IncomingMessage, reply: Reply, segments: string[]): void {
  const method = String(req.headers['access-control-request-method']).toUpperCase();
  const ep = app.routes.endpoints.lookup(method, segments);
  if (ep === undefined || ep.value.cors === undefined) {
    reply.json = ep?.value.json ?? false;
    if (ep === undefined && app.routes.endpoints.allowedMethods(segments).length === 0) app.notFound(reply);
    else reply.error(403, 'cors_preflight_denied', 'cors preflight denied');
    return;
  }
  reply.json = ep.value.json;
  const headers = preflight(ep.value.cors, ep.value.entry.method, req);
  if (headers === undefined) {
    reply.error(403, 'cors_preflight_denied', 'cors preflight denied');
    return;
  }
  reply.res.writeHead(204, { ...headers, 'Cache-Control': NO_STORE, 'Content-Length': 0 });
  reply.res.end();
}

export async function serveEndpoint(
  app: AppServices,
  req: IncomingMessage,
  reply: Reply,
  ep: EndpointRuntime,
  params: Record<string, string>,
  target: Extract<RequestPathResult, { ok: true }>,
  parent: Context,
): Promise<void> {
  const e = ep.entry;
  const method = req.method ?? 'GET';
  let corsHeaders: Record<string, string> | undefined;
  const err = (status: number, code: ErrorCode, message: string): void =>
    reply.error(status, code, message, corsHeaders);
  const origin = headerValue(req, 'origin');
  if (ep.cors !== undefined && originAllowed(ep.cors, origin)) corsHeaders = corsResponseHeaders(ep.cors, origin!);

  // 1. Default deny: no guard at all.
  if (e.guards.length === 0) {
    deniedWithoutGuard(app, parent, ep.sources.decl);
    return err(403, 'forbidden', '403 forbidden');
  }
  // 2. Typed params, before guards and hooks.
  const typed = decodeParams(ep, params, reply);
  if (typed === undefined) return;
  const unsafe = !UNSAFE_METHODS_EXEMPT.has(method);
  // 3. Fetch Metadata: a browser says the request comes from another site (defence in depth for
  //    CSRF; an API's declared CORS origins are the exception).
  if (
    unsafe &&
    e.csrf &&
    headerValue(req, 'sec-fetch-site')?.toLowerCase() === 'cross-site' &&
    corsHeaders === undefined
  ) {
    req.resume();
    if (app.tracer !== undefined) denied(parent, 'csrf check failed', 'a cross-site request (Sec-Fetch-Site)', {});
    return err(403, 'invalid_csrf_token', 'invalid csrf token');
  }
  // 4. The body, capped (1 MiB): 413 without reading further. A multipart form to an action or a
  //    command is streamed at step 6 instead, under the upload limits.
  const contentType = headerValue(req, 'content-type');
  const wantsForm = e.kind === 'action' || e.kind === 'command';
  const streamed = unsafe && wantsForm && isMultipart(contentType);
  let body: Buffer | undefined;
  if (unsafe && !streamed) {
    try {
      body = await readBody(req, app.bodyLimit);
    } catch (e2) {
      if (e2 instanceof BodyTooLargeError) {
        reply.res.setHeader('Connection', 'close');
        return reply.error(413, 'request_body_too_large', 'request body too large', {
          ...corsHeaders,
          Connection: 'close',
        });
      }
      if (e2 instanceof BodyAbortedError) {
        reply.res.destroy();
        return;
      }
      throw e2;
    }
  }
  const state = requestState(req, reply.res, ep, params);
  state.typedParams = typed;
  const done = app.deadlines.add(state, reply);
  const uploads = streamed ? new UploadScope() : undefined;
  try {
    const ctx = requestContext(state, parent);
    // 5. Guards.
    if (!isPublic(e.guards) && !(await passGuards(app, ep, ctx, reply))) return;
    // 6. Form parsing (actions, commands, form posts to APIs), then CSRF before any decoding,
    //    handler, or the 501 of an unbound handler. A streamed upload checks CSRF before it writes
    //    its first file, from the fields before it (kit puts the CSRF field first in every form).
    const submittedToken = (data: FormData | undefined): string | undefined => {
      const fieldValue = data?.get(CSRF_FIELD);
      return headerValue(req, CSRF_HEADER) ?? (typeof fieldValue === 'string' ? fieldValue : undefined);
    };
    const csrfOk = (data: FormData | undefined): boolean =>
      !e.csrf ||
      validSubmission(app.csrf, readCookie(req.headers.cookie, cookieName(isSecureRequest(req))), submittedToken(data));
    let formData: FormData | undefined;
    if (uploads !== undefined) {
      try {
        formData = await parseMultipart(req, contentType!, {
          limits: app.uploads,
          textLimit: app.bodyLimit,
          scope: uploads,
          beforeFile: (fields) => {
            if (!csrfOk(fields)) throw new CsrfBeforeFileError();
          },
        });
      } catch (e2) {
        await uploads.cleanup();
        return uploadFailed(req, reply, e2, corsHeaders);
      }
    } else if (body !== undefined && (wantsForm || (e.csrf && isFormContentType(contentType)))) {
      try {
        formData = await parseFormBody(body, contentType);
      } catch {
        return err(400, 'invalid_form', 'invalid form');
      }
    }
    if (e.csrf) {
      // What the upload parser already checked is checked again: cheap, and it makes the span.
      const span = startStage(app, ctx, 'csrf', LaneGuard, ep.sources.decl);
      const cookie = readCookie(req.headers.cookie, cookieName(isSecureRequest(req)));
      const submitted = submittedToken(formData);
      const valid = csrfOk(formData);
      if (valid) span.setStatus('ok');
      else if (app.tracer !== undefined) denied(ctx, 'csrf check failed', csrfProblem(cookie, submitted), {}, span);
      span.end();
      if (!valid) return err(403, 'invalid_csrf_token', 'invalid csrf token');
    }
    // 7. Unbound or unsupported → 501. A fragment without a hook serves its static body.
    if (!ep.handler.ok) {
      if (e.kind === 'fragment' && e.handler.status === 'missing') {
        await reply.write(fragmentBody(ep, params), {
          noStore: true,
          extraHeaders: { ...corsHeaders, ...fragmentHeaders(ep) },
        });
        return;
      }
      return err(501, 'handler_not_implemented', ep.handler.message);
    }
    const h = ep.handler.handler;
    // 8. Partial submissions may only name a target the page declared for this action.
    const partial = e.kind === 'action' && isPartial(req);
    const partialTarget = partial ? headerValue(req, 'x-kit-target') : undefined;
    if (
      partial &&
      (partialTarget === undefined || (ep.partialTargets !== undefined && !ep.partialTargets.has(partialTarget)))
    ) {
      return err(400, 'fragment_not_found', 'partial fragment not found');
    }
    // 9. Constraints of the form's inputs, then decode and call.
    const submitted =
      e.kind === 'action' && h.signature !== 'action0' ? formFromData(formData ?? new FormData()) : undefined;
    const answerForm = (answer: FormAnswer): Promise<boolean> =>
      answerWithPage(
        app,
        {
          req,
          reply,
          ep,
          ctx,
          params,
          paths: [target.rawPath, target.path],
          form: submitted!.form,
          partialTarget,
          swap: headerValue(req, 'x-kit-swap') === 'outerHTML' ? 'outerHTML' : 'innerHTML',
        },
        answer,
      );
    const decode = takesInput(h.signature)
      ? startStage(app, ctx, 'decode', laneOf(e.kind), ep.sources.decl)
      : undefined;
    if (submitted !== undefined && ep.constraints !== undefined) {
      const errors = checkConstraints(submitted.form, ep.constraints);
      if (hasErrors(errors)) {
        decode?.setStatus('error', 'constraint validation failed');
        decode?.end();
        await uploads?.cleanup();
        await answerForm({ status: 422, data: {}, errors });
        return;
      }
    }
    let arg: unknown;
    try {
      arg = handlerArgument(h.signature, h.fields, formData, target.query, req, body, state);
    } catch (thrown) {
      await uploads?.cleanup();
      if (!(thrown instanceof FormDecodeError)) throw thrown;
      decode?.setStatus('error', thrown.message);
      decode?.end();
      // A field the page's form has, wrongly filled: the form again, the message beside it.
      const errors = { [thrown.field]: thrown.display ?? '' };
      const shown =
        submitted !== undefined &&
        thrown.display !== undefined &&
        (await answerForm({ status: 422, data: {}, errors, requireField: thrown.field }));
      if (!shown) err(400, 'invalid_form', thrown.message);
      return;
    }
    decode?.setStatus('ok');
    decode?.end();
    let result: unknown;
    const call = startStage(app, ctx, `handler ${e.handler.export}`, LaneHandler, ep.sources.handler);
    if (app.tracer !== undefined) {
      markHandler(call, e.handler.export);
      call.set(AttrEndpointKind, e.kind);
    }
    try {
      result = await callHandler(h.fn, stageContext(call, ctx), arg);
    } catch (thrown) {
      const { status, message } = thrownStatus(thrown);
      if (status >= 500) {
        logFault(app, reply, `${e.kind} ${e.pageId}.${e.symbol} failed`, thrown);
        stageFailed(ctx, call, thrown, `${e.kind} ${e.pageId}.${e.symbol}`);
      }
      call.end();
      return err(status, 'request_failed', message);
    } finally {
      // The files were the handler's while it ran: gone before the answer goes out.
      await uploads?.cleanup();
    }
    call.setStatus('ok');
    call.end();
    if (reply.res.headersSent) return;
    if (submitted !== undefined && (result instanceof ActionFailure || result instanceof PageAnswer)) {
      await answerForm({ status: result.status, data: result.data });
      return;
    }
    let response: Response;
    try {
      if (e.kind === 'fragment') {
        response = result === undefined && h.signature === 'fragment' ? fragmentBody(ep, params) : toResponse(result);
      } else if (e.kind === 'command' || e.kind === 'query') {
        response = contractResponse(result);
      } else response = toResponse(result);
    } catch (invalid) {
      if (!(invalid instanceof InvalidResultError)) throw invalid;
      app.log(`kit: ${e.kind} ${e.pageId}.${e.symbol}: ${invalid.message}`);
      stageFailed(ctx, call, invalid, `${e.kind} ${e.pageId}.${e.symbol}`);
      return err(500, 'request_failed', 'internal server error');
    }
    const extra: Record<string, string> = { ...corsHeaders };
    if (e.kind === 'fragment') Object.assign(extra, fragmentHeaders(ep));
    if (
      partial &&
      partialTarget !== undefined &&
      response.status >= 200 &&
      response.status < 300 &&
      (response.headers.get('content-type') ?? '').startsWith('text/html')
    ) {
      extra[FRAGMENT_TARGET] = partialTarget;
      extra[FRAGMENT_SWAP] = headerValue(req, 'x-kit-swap') === 'outerHTML' ? 'outerHTML' : 'innerHTML';
    }
    const location = response.headers.get('location');
    if (location !== null && response.status >= 300 && response.status < 400 && !isLocalPath(location)) {
      app.log(`kit: ${e.kind} ${e.pageId}.${e.symbol} answered a redirect to a non-local location; sent 500 instead`);
      return err(500, 'request_failed', 'internal server error');
    }
    await reply.write(response, { noStore: true, extraHeaders: extra });
  } finally {
    done();
    await uploads?.cleanup();
  }
}

/** How much of a refused upload's declared body is read (and dropped) so that its sender sees the 413. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/** Thrown from the upload parser when a file comes before a valid CSRF token. */
class CsrfBeforeFileError extends Error {}

function isMultipart(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*multipart\/form-data\s*(;|$)/i.test(contentType);
}

/** The answer to an upload that stopped: 413 naming the limit, 403, 400, or a cut connection. */
function uploadFailed(
  req: IncomingMessage,
  reply: Reply,
  thrown: unknown,
  cors: Record<string, string> | undefined,
): void {
  if (thrown instanceof UploadLimitError) {
    // A client that sends its whole body before reading the answer (most do) sees a connection
    // closed under it, not the 413, unless the rest is read: up to a bound, it is read and dropped.
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared <= DRAIN_LIMIT && !req.complete) {
      req.resume();
      return reply.error(413, 'upload_limit_exceeded', thrown.message, cors);
    }
    reply.res.setHeader('Connection', 'close');
    return reply.error(413, 'upload_limit_exceeded', thrown.message, { ...cors, Connection: 'close' });
  }
  if (thrown instanceof CsrfBeforeFileError) return reply.error(403, 'invalid_csrf_token', 'invalid csrf token', cors);
  if (thrown instanceof MultipartError) return reply.error(400, 'invalid_form', thrown.message, cors);
  if (thrown instanceof BodyAbortedError) {
    reply.res.destroy();
    return;
  }
  throw thrown;
}

/** Why a CSRF submission failed, for the trace (never for the answer). */
function csrfProblem(cookie: string | undefined, submitted: string | undefined): string {
  if (cookie === undefined) return 'no CSRF cookie';
  if (submitted === undefined) return 'no CSRF token in the form field or header';
  return 'the submitted token does not match the cookie';
}

function fragmentHeaders(ep: EndpointRuntime): Record<string, string> {
  const f = ep.entry.fragment;
  return f ? { [FRAGMENT_TARGET]: f.target, [FRAGMENT_SWAP]: f.swap } : {};
}

function fragmentBody(ep: EndpointRuntime, params: Record<string, string>): Response {
  const body = ep.fragmentTemplate ? renderTemplate(ep.fragmentTemplate, undefined, params) : '';
  return new Response(body, { status: 200, headers: { 'content-type': HTML_TYPE } });
}
