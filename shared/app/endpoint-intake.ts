// The steps every endpoint request takes before its executor, in the order they must run: Fetch
// Metadata, the capped body, the submitted form (a multipart upload streamed into temporary files)
// and the CSRF check. Each step answers the request itself when it stops it and returns false.
import { LaneGuard } from '../trace/index.js';
import { BodyAbortedError, BodyTooLargeError, isFormContentType, parseFormBody, readBody } from './body.js';
import { isSecureRequest } from './context.js';
import { CSRF_FIELD, CSRF_HEADER, cookieName, readCookie, validSubmission } from './csrf.js';
import type { EndpointRequest } from './endpoint-request.js';
import type { ErrorCode } from './errors.js';
import { MultipartError, parseMultipart, UploadLimitError, UploadScope } from './multipart.js';
import { headerValue } from './request-kind.js';
import { denied, startStage } from './stage-spans.js';

/** How much of a refused upload's declared body is read (and dropped) so that its sender sees the 413. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/** Thrown from the upload parser when a file comes before a valid CSRF token. */
class CsrfBeforeFileError extends Error {}

function isMultipart(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*multipart\/form-data\s*(;|$)/i.test(contentType);
}

/** Actions and commands take forms; a multipart one is streamed under the upload limits. */
function takesForm(x: EndpointRequest): boolean {
  const kind = x.ep.entry.kind;
  return kind === 'action' || kind === 'command';
}

/**
 * Fetch Metadata: a browser says the request comes from another site (defence in depth for CSRF;
 * an API's declared CORS origins are the exception). False, answered 403, when it does.
 */
export function sameSiteOrAllowed(x: EndpointRequest): boolean {
  const { req, app } = x;
  if (!x.unsafe || !x.ep.entry.csrf || x.cors !== undefined) return true;
  if (headerValue(req, 'sec-fetch-site')?.toLowerCase() !== 'cross-site') return true;
  req.resume();
  if (app.tracer !== undefined) denied(x.parent, 'csrf check failed', 'a cross-site request (Sec-Fetch-Site)', {});
  x.fail(403, 'invalid_csrf_token', 'invalid csrf token');
  return false;
}

/**
 * The body, capped: 413 without reading further. A multipart form to an action or a command is
 * left for `readSubmittedForm`, which streams it under the upload limits.
 */
export async function readEndpointBody(x: EndpointRequest): Promise<boolean> {
  if (!x.unsafe) return true;
  if (takesForm(x) && isMultipart(x.contentType)) {
    x.uploads = new UploadScope();
    return true;
  }
  try {
    x.body = await readBody(x.req, x.app.bodyLimit);
    return true;
  } catch (e) {
    if (e instanceof BodyTooLargeError) {
      refuseBody(x, 'request_body_too_large', 'request body too large');
      return false;
    }
    if (e instanceof BodyAbortedError) {
      x.reply.res.destroy();
      return false;
    }
    throw e;
  }
}

/** The token the request submits: the `X-Kit-CSRF` header, else the form's field. */
function submittedToken(x: EndpointRequest, data: FormData | undefined): string | undefined {
  const fieldValue = data?.get(CSRF_FIELD);
  return headerValue(x.req, CSRF_HEADER) ?? (typeof fieldValue === 'string' ? fieldValue : undefined);
}

function csrfCookie(x: EndpointRequest): string | undefined {
  return readCookie(x.req.headers.cookie, cookieName(isSecureRequest(x.req)));
}

function csrfValid(x: EndpointRequest, data: FormData | undefined): boolean {
  return !x.ep.entry.csrf || validSubmission(x.app.csrf, csrfCookie(x), submittedToken(x, data));
}

/**
 * The submitted form (actions, commands, form posts to CSRF-checked endpoints), then the CSRF
 * check before any decoding, handler, or the 501 of an unbound handler. A streamed upload checks
 * CSRF before it writes its first file, from the fields before it (kit puts the CSRF field first
 * in every form).
 */
export async function readSubmittedForm(x: EndpointRequest): Promise<boolean> {
  const { contentType } = x;
  if (x.uploads !== undefined) {
    try {
      x.form = await parseMultipart(x.req, contentType!, {
        limits: x.app.uploads,
        textLimit: x.app.bodyLimit,
        scope: x.uploads,
        beforeFile: (fields) => {
          if (!csrfValid(x, fields)) throw new CsrfBeforeFileError();
        },
      });
    } catch (e) {
      await x.uploads.cleanup();
      uploadFailed(x, e);
      return false;
    }
  } else if (x.body !== undefined && (takesForm(x) || (x.ep.entry.csrf && isFormContentType(contentType)))) {
    try {
      x.form = await parseFormBody(x.body, contentType);
    } catch {
      x.fail(400, 'invalid_form', 'invalid form');
      return false;
    }
  }
  return checkCsrf(x);
}

/** The CSRF check, in its own span (what the upload parser checked is checked again: cheap, and it makes the span). */
function checkCsrf(x: EndpointRequest): boolean {
  if (!x.ep.entry.csrf) return true;
  const { app, ctx } = x;
  const span = startStage(app, ctx, 'csrf', LaneGuard, x.ep.sources.decl);
  const valid = csrfValid(x, x.form);
  if (valid) span.setStatus('ok');
  else if (app.tracer !== undefined)
    denied(ctx, 'csrf check failed', csrfProblem(csrfCookie(x), submittedToken(x, x.form)), {}, span);
  span.end();
  if (!valid) x.fail(403, 'invalid_csrf_token', 'invalid csrf token');
  return valid;
}

/** Why a CSRF submission failed, for the trace (never for the answer). */
function csrfProblem(cookie: string | undefined, submitted: string | undefined): string {
  if (cookie === undefined) return 'no CSRF cookie';
  if (submitted === undefined) return 'no CSRF token in the form field or header';
  return 'the submitted token does not match the cookie';
}

/**
 * The 413 of a body over a limit. A client that sends its whole body before reading the answer
 * (most do) sees a connection closed under it (EPIPE), not the 413, unless the rest is read: up to
 * a bound, the rest is read and dropped and the connection stays usable; past it, it is closed.
 */
function refuseBody(x: EndpointRequest, code: ErrorCode, message: string): void {
  const { req, reply, cors } = x;
  const declared = Number(req.headers['content-length']);
  if (!req.complete && (req.headers['content-length'] === undefined || declared > DRAIN_LIMIT)) {
    reply.res.setHeader('Connection', 'close');
    return reply.error(413, code, message, { ...cors, Connection: 'close' });
  }
  req.resume();
  return reply.error(413, code, message, cors);
}

/** The answer to an upload that stopped: 413 naming the limit, 403, 400, or a cut connection. */
function uploadFailed(x: EndpointRequest, thrown: unknown): void {
  const { reply, cors } = x;
  if (thrown instanceof UploadLimitError) return refuseBody(x, 'upload_limit_exceeded', thrown.message);
  if (thrown instanceof CsrfBeforeFileError) return reply.error(403, 'invalid_csrf_token', 'invalid csrf token', cors);
  if (thrown instanceof MultipartError) return reply.error(400, 'invalid_form', thrown.message, cors);
  if (thrown instanceof BodyAbortedError) {
    reply.res.destroy();
    return;
  }
  throw thrown;
}
