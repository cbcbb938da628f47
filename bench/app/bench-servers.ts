// Baseline servers of the app benchmarks, each run as its own process:
//   node bench-servers.js bare-static <file>         node:http answering the file's bytes
//   node bench-servers.js fastify-static <file>      Fastify answering the same bytes
//   node bench-servers.js bare-ssr <appdir> <shell>  node:http doing the SSR page's work by hand:
//                                                    the same load function, the same HTML, escaped
// Each prints `listening on http://127.0.0.1:<port>`.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';

const [mode, arg, arg2] = process.argv.slice(2);
const HTML = 'text/html; charset=utf-8';

function listening(port: number): void {
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function esc(s: string): string {
  return /[&<>"']/.test(s) ? s.replace(/[&<>"']/g, (c) => ESC[c]) : s;
}

interface Item {
  id: number;
  name: string;
  price: string;
}

if (mode === 'bare-static') {
  const body = readFileSync(arg);
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': HTML, 'Content-Length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => listening((server.address() as AddressInfo).port));
} else if (mode === 'fastify-static') {
  const body = readFileSync(arg);
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/', (_req, reply) => {
    void reply.type(HTML).send(body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  listening((app.server.address() as AddressInfo).port);
} else if (mode === 'bare-ssr') {
  const mod = (await import(pathToFileURL(join(arg, 'handlers', 'handlers.js')).href)) as {
    LoadReport: (ctx: unknown) => Promise<{ title: string; items: Item[] }>;
  };
  const shell = JSON.parse(readFileSync(arg2, 'utf8')) as { head: string; tail: string };
  const server = createServer((req, res) => {
    void (async () => {
      const data = await mod.LoadReport(null);
      let html = shell.head + `<main>\n<h1>${esc(data.title)}</h1>\n<ul>\n`;
      for (const item of data.items) {
        html += `<li><a href="/items/${esc(encodeURIComponent(String(item.id)))}">${esc(item.name)}</a> <span>${esc(item.price)}</span></li>`;
      }
      html += '\n</ul>\n</main>' + shell.tail;
      res.writeHead(200, {
        'Content-Type': HTML,
        'Content-Length': Buffer.byteLength(html),
        'Cache-Control': 'no-store',
      });
      res.end(html);
    })();
  });
  server.listen(0, '127.0.0.1', () => listening((server.address() as AddressInfo).port));
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
