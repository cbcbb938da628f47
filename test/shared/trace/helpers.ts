// Shared helpers of the trace tests: a collecting sink, HTTP requests and a small server-sent-events client.
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FinishedSpan, Sink } from '#shared/trace/index.js';

/** A sink that keeps every span it receives. */
export function collectingSink(): Sink & { spans: FinishedSpan[] } {
  const spans: FinishedSpan[] = [];
  return { spans, write: (s) => void spans.push(s) };
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One HTTP request with raw control over headers (fetch would add Origin and forbid some headers). */
export function http(
  url: string,
  options: { method?: string; headers?: Record<string, string | string[]>; body?: string | Buffer } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    let responded = false;
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      responded = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    // A server may answer (and close) before it has read the whole body; the answer is what counts.
    req.on('error', (err) => {
      if (!responded) reject(err);
    });
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export interface SseEvent {
  event: string;
  data: string;
}

/** A server-sent-events client over node:http that parses the stream per the HTML specification's rules. */
export class SseClient {
  readonly events: SseEvent[] = [];
  status = 0;
  headers: IncomingHttpHeaders = {};
  private waiters: { count: number; resolve: () => void }[] = [];
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private req: ReturnType<typeof request> | null = null;

  static open(url: string, headers: Record<string, string> = { accept: 'text/event-stream' }): Promise<SseClient> {
    const c = new SseClient();
    return new Promise((resolve, reject) => {
      const req = request(url, { headers, agent: false }, (res) => {
        c.status = res.statusCode ?? 0;
        c.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => c.feed(chunk));
        res.on('error', () => {});
        resolve(c);
      });
      c.req = req;
      req.on('error', reject);
      req.end();
    });
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + (this.buffer.startsWith('\r\n', nl) ? 2 : 1));
      if (line === '') {
        if (this.data.length > 0) this.events.push({ event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
    }
    this.waiters = this.waiters.filter((w) => {
      if (this.events.length >= w.count) {
        w.resolve();
        return false;
      }
      return true;
    });
  }

  /** Resolves once `count` events have arrived (fails after `ms`). */
  waitFor(count: number, ms = 5000): Promise<void> {
    if (this.events.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`SSE: expected ${count} events, got ${this.events.length}`)), ms);
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  close(): void {
    this.req?.destroy();
  }
}

export { launchChromium } from '../../helpers/chromium.js';
