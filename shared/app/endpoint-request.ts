// One endpoint request on its way through the runtime: what the shared first part of `serveEndpoint`
// learns (the CORS headers of its answers, the body, the submitted form, the request context) and
// what the executor of its kind then reads. Made once per request, so each header is read once and
// no step has to be handed seven values.
import type { IncomingMessage } from 'node:http';
import { SAFE_METHODS } from '../language/facts.js';
import type { RequestPathResult } from '../route/index.js';
import type { Context } from '../trace/index.js';
import type { RequestState } from './context.js';
import { corsResponseHeaders, originAllowed } from './cors.js';
import type { ErrorCode } from './errors.js';
import type { UploadScope } from './multipart.js';
import type { Reply } from './reply.js';
import { headerValue } from './request-kind.js';
import type { EndpointRuntime } from './routes.js';
import type { AppServices } from './services.js';

/** The checked request target (`checkRequestTarget`): the path as sent and decoded, the query. */
export type RequestTarget = Extract<RequestPathResult, { ok: true }>;

export class EndpointRequest {
  /** The CORS headers of every answer, when the endpoint allows the request's `Origin`. */
  readonly cors: Record<string, string> | undefined;
  /** A method other than GET, HEAD, OPTIONS and TRACE: it may carry a body, and CSRF applies. */
  readonly unsafe: boolean;
  readonly contentType: string | undefined;
  /** The body read whole (capped), unless it is an upload streamed into `form`. */
  body: Buffer | undefined;
  /** The submitted form (actions, commands, form posts to CSRF-checked endpoints). */
  form: FormData | undefined;
  /** The temporary files of a streamed upload, removed before the answer goes out. */
  uploads: UploadScope | undefined;
  /** Set once the request passed the steps before guards. */
  state!: RequestState;
  /** The request context guards, decoding and the handler run in. */
  ctx!: Context;

  constructor(
    readonly app: AppServices,
    readonly req: IncomingMessage,
    readonly reply: Reply,
    readonly ep: EndpointRuntime,
    readonly params: Record<string, string>,
    readonly target: RequestTarget,
    /** The request span's context. */
    readonly parent: Context,
  ) {
    const origin = headerValue(req, 'origin');
    if (ep.cors !== undefined && originAllowed(ep.cors, origin)) this.cors = corsResponseHeaders(ep.cors, origin!);
    this.unsafe = !SAFE_METHODS.has(req.method ?? 'GET');
    this.contentType = headerValue(req, 'content-type');
  }

  /** An error answer, with the CORS headers. */
  fail(status: number, code: ErrorCode, message: string): void {
    this.reply.error(status, code, message, this.cors);
  }

  /** `kind Page.Symbol`: how logs and spans name the endpoint. */
  get name(): string {
    const e = this.ep.entry;
    return `${e.kind} ${e.pageId}.${e.symbol}`;
  }
}
