// A built app running user modules that use kit/app and kit/trace the way a project would: a
// handler answering with the `html` tag (a user-supplied `<script>` arrives escaped), and a
// kit.config that exports a tracer whose exporter posts spans to a collector over HTTP.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attach, runKit, SECRET, tempDir, type RunningApp } from './built-app.js';

const PAGE = `package demo

page home
route "/"
guard public
title "Home"

api Greet GET "/api/greet"
api Card GET "/api/card"
api Legacy GET "/api/legacy"

view {
  <main><h1>Home</h1></main>
}
`;

const HANDLERS = `import { html, htmlResponse } from '@kit-lang/kit/app';

export function Greet(ctx: unknown, request: Request) {
  void ctx;
  const name = new URL(request.url).searchParams.get('name');
  return html\`<p title="\${name}">Hello, \${name}!</p>\`;
}

export function Card(ctx: unknown, request: Request) {
  void ctx;
  const tags = new URL(request.url).searchParams.getAll('tag');
  const body = html\`<ul>\${tags.map((t) => html\`<li>\${t}</li>\`)}</ul>\`;
  return htmlResponse(body, { status: 201, headers: { 'x-card': '1' } });
}

export function Legacy(ctx: unknown, request: Request) {
  void ctx;
  void request;
  return html('<p>trusted markup</p>', { status: 202 });
}
`;

const CONFIG = `import { exporterSink, newTracer, withSink } from '@kit-lang/kit/trace';

export const tracer = newTracer(
  withSink(
    exporterSink({
      async exportSpans(spans) {
        await fetch(process.env.COLLECTOR_URL!, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(spans),
        });
      },
    }),
  ),
);
`;

describe('built app: user modules using kit/app and kit/trace', function () {
  this.timeout(60000);
  let app: RunningApp;
  let collector: Server;
  const received: { name: string; attributes: { key: string; value: unknown }[] }[] = [];

  before(async () => {
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        received.push(...JSON.parse(body));
        res.end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const dir = tempDir('kit-user-modules-');
    const src = join(dir, 'src');
    mkdirSync(src);
    writeFileSync(join(src, 'home.kit'), PAGE);
    writeFileSync(join(src, 'handlers.ts'), HANDLERS);
    writeFileSync(join(src, 'kit.config.ts'), CONFIG);
    const r = runKit(['build', '--strict-bindings', '--out', join(dir, 'dist'), '--app', join(dir, 'app'), src]);
    assert.equal(r.status, 0, r.stderr + r.stdout);
    const port = (collector.address() as AddressInfo).port;
    const proc = spawn(process.execPath, [join(dir, 'app', 'server.js'), '--addr', '127.0.0.1:0'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: SECRET, COLLECTOR_URL: `http://127.0.0.1:${port}/v1` },
    });
    app = await attach(proc);
  });

  after(async () => {
    await app?.stop();
    collector?.close();
  });

  it('a handler returning html`...` answers text/html with the user-supplied value escaped', async () => {
    const payload = '<script>alert("x")</script>';
    const res = await fetch(`${app.url}/api/greet?name=${encodeURIComponent(payload)}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    const body = await res.text();
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;';
    assert.equal(body, `<p title="${escaped}">Hello, ${escaped}!</p>`);
    assert.ok(!body.includes('<script'));
  });

  it('htmlResponse carries status and headers; nested html in arrays is escaped once', async () => {
    const res = await fetch(`${app.url}/api/card?tag=a%26b&tag=%3Ci%3E`);
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('x-card'), '1');
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await res.text(), '<ul><li>a&amp;b</li><li>&lt;i&gt;</li></ul>');
  });

  it('html(body, init) called as a function answers as it did before the tag', async () => {
    const res = await fetch(`${app.url}/api/legacy`);
    assert.equal(res.status, 202);
    assert.equal(await res.text(), '<p>trusted markup</p>');
  });

  it('request spans go to the tracer kit.config exports, and are flushed when the app stops', async () => {
    assert.match(app.stdout(), /tracing on: spans go to the tracer of the app config/);
    assert.equal((await fetch(`${app.url}/api/greet?name=span`)).status, 200);
    assert.equal(await app.stop(), 0);
    const names = received.map((s) => s.name);
    assert.ok(
      names.some((n) => n.includes('/api/greet')),
      `a span for /api/greet among ${JSON.stringify(names)}`,
    );
  });
});
