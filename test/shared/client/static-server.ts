// A tiny static file server for browser tests: serves a `kit build --out` directory on 127.0.0.1
// with a free port, the way a plain host would (`/x` → `x/index.html`), and logs each request.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface LoggedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface StaticServer {
  url: string;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json',
};

const NOT_FOUND =
  '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1></body></html>\n';

export async function serveStatic(root: string): Promise<StaticServer> {
  const requests: LoggedRequest[] = [];
  const server = createServer((req, res) => {
    const raw = (req.url ?? '/').split('?')[0];
    requests.push({ method: req.method ?? 'GET', path: raw, headers: req.headers });
    const segments = raw.split('/').slice(1);
    // Output directories are named by the encoded segments, so the raw path is looked up as is.
    if (segments.some((s) => s === '..' || s === '.' || s.includes('\\') || /%2e|%2f|%5c/i.test(s))) {
      res.writeHead(404, { 'content-type': TYPES.html }).end(NOT_FOUND);
      return;
    }
    const last = segments[segments.length - 1] ?? '';
    const file =
      raw === '/' ? 'index.html' : /\.[a-z]+$/.test(last) ? segments.join('/') : `${segments.join('/')}/index.html`;
    readFile(join(root, file)).then(
      (body) => {
        const ext = file.slice(file.lastIndexOf('.') + 1);
        res
          .writeHead(200, { 'content-type': TYPES[ext] ?? 'application/octet-stream', 'cache-control': 'no-cache' })
          .end(body);
      },
      () => res.writeHead(404, { 'content-type': TYPES.html }).end(NOT_FOUND),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
