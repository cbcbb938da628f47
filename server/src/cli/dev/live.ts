// The browser side of the dev loop: the client script (`/_kit/dev/client.js`) and its event stream
// (`/_kit/dev/events?path=/x`). Each open tab says which path it shows; after a change only the tabs
// whose page changed hear about it: `reload`, or `css` for a stylesheet-only change. The overlay
// state is sent to every tab on connect and whenever it changes. The stream answers GET only and
// at most `MAX_EVENT_STREAMS` at once: every open one holds a socket and gets every overlay.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientSourceDir } from '#core/build/index.js';

export const DEV_PREFIX = '/_kit/dev/';
export const CLIENT_PATH = '/_kit/dev/client.js';
export const EVENTS_PATH = '/_kit/dev/events';
export const CLIENT_TAG = `<script type="module" src="${CLIENT_PATH}"></script>`;
/**
 * Event streams open at once (one per open tab) before a new one gets 503: far more tabs than a
 * person keeps open on one dev server, few enough that a script opening streams in a loop cannot
 * hold thousands of sockets.
 */
export const MAX_EVENT_STREAMS = 100;

function refuse(req: IncomingMessage, res: ServerResponse, status: number, text: string, headers = {}): void {
  req.resume();
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

interface Tab {
  res: ServerResponse;
  path: string;
  /** The page the path showed when last told (undefined: none). */
  page: string | undefined;
}

/** What a change asks of open tabs (see `ChangeReport`). */
export interface TabNews {
  reloadAll: boolean;
  reload: ReadonlySet<string>;
  css: ReadonlyMap<string, [string, string][]>;
}

export class LiveReload {
  private readonly tabs = new Set<Tab>();
  private overlay: string | undefined;
  private readonly client: string;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly pageOf: (path: string) => string | undefined) {
    this.client = readFileSync(join(clientSourceDir(), 'kit-dev.js'), 'utf8');
    // Proxies and browsers drop a silent stream; a comment every 15 s keeps it open.
    this.heartbeat = setInterval(() => {
      for (const t of this.tabs) t.res.write(':\n\n');
    }, 15_000);
    this.heartbeat.unref();
  }

  get openTabs(): number {
    return this.tabs.size;
  }

  /** Answers `/_kit/dev/*`; false for other paths. */
  handle(req: IncomingMessage, res: ServerResponse, path: string, query: string): boolean {
    if (path === CLIENT_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        refuse(req, res, 405, '405 method not allowed\n', { Allow: 'GET, HEAD' });
      else this.sendClient(req, res);
      return true;
    }
    if (path === EVENTS_PATH) {
      if (req.method !== 'GET') refuse(req, res, 405, '405 method not allowed\n', { Allow: 'GET' });
      else if (this.tabs.size >= MAX_EVENT_STREAMS)
        refuse(req, res, 503, `503 too many open event streams (at most ${MAX_EVENT_STREAMS})\n`, {
          'Retry-After': '5',
        });
      else this.openStream(res, query);
      return true;
    }
    return false;
  }

  private sendClient(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Content-Length': Buffer.byteLength(this.client),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : this.client);
  }

  private openStream(res: ServerResponse, query: string): void {
    const tabPath = new URLSearchParams(query).get('path') ?? '/';
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    const tab: Tab = { res, path: tabPath, page: this.pageOf(tabPath) };
    this.tabs.add(tab);
    res.on('close', () => this.tabs.delete(tab));
    res.write(this.overlay === undefined ? event('clear', '') : event('overlay', JSON.stringify(this.overlay)));
  }

  /** Shows (a string) or clears (undefined) the overlay in every tab. */
  setOverlay(html: string | undefined): void {
    if (html === this.overlay) return;
    this.overlay = html;
    const msg = html === undefined ? event('clear', '') : event('overlay', JSON.stringify(html));
    for (const t of this.tabs) t.res.write(msg);
  }

  /** Tells the tabs whose page changed; returns how many were told to reload. */
  notify(news: TabNews): number {
    let reloaded = 0;
    for (const t of this.tabs) {
      const page = this.pageOf(t.path);
      const moved = page !== t.page;
      t.page = page;
      if (news.reloadAll || moved || (page !== undefined && news.reload.has(page))) {
        t.res.write(event('reload', ''));
        reloaded++;
      } else if (page !== undefined && news.css.has(page))
        t.res.write(event('css', JSON.stringify(news.css.get(page))));
    }
    return reloaded;
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const t of this.tabs) t.res.end();
    this.tabs.clear();
  }
}

function event(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}
