// One request's answer. Whether the request is a HEAD is decided once, at the edge: every answer
// then goes out with the headers of the GET and no body. The error format (text, or the JSON
// envelope of APIs and contracts) travels with it too.
import type { ServerResponse } from 'node:http';
import type { ErrorPageRenderer } from './error-pages.js';
import { type ErrorCode, sendError } from './errors.js';
import { writeResponse, type WriteOptions } from './responses.js';

export class Reply {
  /** Errors answer the JSON envelope (APIs, contracts) instead of text. */
  json = false;
  /** An HTML request's error page (set once its page, or the path's closest page, is known). */
  errorPage: ErrorPageRenderer | undefined;

  constructor(
    readonly res: ServerResponse,
    readonly head: boolean,
  ) {}

  error(status: number, code: ErrorCode, message: string, headers?: Record<string, string>): void {
    const html = this.json ? undefined : this.errorPage?.(status);
    sendError(this.res, status, code, message, { head: this.head, json: this.json, html, headers });
  }

  /** Status and headers, then the body unless this is a HEAD. */
  send(status: number, headers: Record<string, string | number> | (string | number)[], body?: string | Buffer): void {
    this.res.writeHead(status, headers as Record<string, string | number>);
    this.res.end(this.head ? undefined : body);
  }

  /** A WHATWG Response, streamed (or its headers alone for a HEAD). */
  write(response: Response, opts: Omit<WriteOptions, 'head'> = {}): Promise<void> {
    return writeResponse(this.res, response, { ...opts, head: this.head });
  }
}
