// Generated error answers: plain text with a trailing newline, `nosniff`,
// `no-store` and the machine-readable `X-Kit-Error-Code`; APIs and contracts answer the JSON
// envelope `{"ok":false,"error":{"code","message"}}` instead. Messages are fixed strings or name
// a param or field; they never carry request data or a handler's error message.
import type { ServerResponse } from 'node:http';

export type ErrorCode =
  | 'invalid_csrf_token'
  | 'request_body_too_large'
  | 'invalid_form'
  | 'fragment_not_found'
  | 'invalid_route_parameter'
  | 'method_not_allowed'
  | 'handler_not_implemented'
  | 'forbidden'
  | 'guard_forbidden'
  | 'request_failed'
  | 'not_found'
  | 'bad_request'
  | 'request_timeout'
  | 'cors_preflight_denied'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'upload_limit_exceeded';

export const NO_STORE = 'no-store';

export interface ErrorOptions {
  /** Extra headers such as `Allow`. */
  headers?: Record<string, string>;
  /** Answer the JSON envelope instead of text. */
  json?: boolean;
  /** Answer this HTML document instead (an error page). */
  html?: string;
  head?: boolean;
}

/** Writes an error answer unless headers already went out (then the connection is cut). */
export function sendError(
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
  opts: ErrorOptions = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = opts.json ? JSON.stringify({ ok: false, error: { code, message } }) : (opts.html ?? message + '\n');
  const headers: Record<string, string | number> = {
    'Content-Type': opts.json
      ? 'application/json; charset=utf-8'
      : opts.html !== undefined
        ? 'text/html; charset=utf-8'
        : 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': NO_STORE,
    'X-Content-Type-Options': 'nosniff',
    'X-Kit-Error-Code': code,
  };
  if (opts.headers) Object.assign(headers, opts.headers);
  // Headers a handler may have set before failing (cookies, caching) must not survive.
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.writeHead(status, headers);
  res.end(opts.head ? undefined : body);
}

/** An error a handler, load or guard may throw to choose the status; 4xx messages are shown, 5xx never. */
export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message?: string) {
    if (!Number.isInteger(status) || status < 400 || status > 599)
      throw new RangeError(`HttpError: status must be 400..599, got ${String(status)}`);
    super(message ?? STATUS_TEXT[status] ?? 'request failed');
    this.name = 'HttpError';
    this.status = status;
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized',
  403: '403 forbidden',
  404: '404 page not found',
  409: 'conflict',
  422: 'validation failed',
  429: 'too many requests',
  500: 'internal server error',
  503: 'service unavailable',
};

/** Status text for a generated error answer. */
export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status >= 500 ? 'internal server error' : 'request failed');
}

/** The answer for a thrown value: HttpError 4xx shows its message; everything else is a generic 500. */
export function thrownStatus(err: unknown): { status: number; message: string } {
  if (err instanceof HttpError) {
    return { status: err.status, message: err.status < 500 ? err.message : statusText(err.status) };
  }
  return { status: 500, message: 'internal server error' };
}
