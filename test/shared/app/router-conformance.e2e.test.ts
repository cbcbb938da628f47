// The shared router conformance table (test/fixtures/route/router-conformance.json) replayed over
// raw HTTP against the app runtime's real request pipeline. GET routes become SSR pages, other
// methods API endpoints; both answer with the matched pattern and raw params. Several routes of the
// table are deliberately ambiguous (kit check would refuse them), so the route table is written
// directly instead of being built from `.kit` sources. Registration order must not matter: the
// table runs as given and reversed.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { decodeTypedParams, parseRoutePattern } from '#shared/route/index.js';
import { app as kitApp, createApp, createHttpServer, dirSource, type AppManifest } from '#shared/app/index.js';
import { fixture } from '../../helpers/repo.js';
import { rawGet } from '../../server/core/app/built-app.js';

interface Case {
  method: string;
  path: string;
  expect: { pattern: string; params: Record<string, string> } | null;
  status?: number;
  redirect?: string;
  allow?: string[];
  note: string;
}
const table = JSON.parse(readFileSync(fixture('route', 'router-conformance.json'), 'utf8')) as {
  routes: { method: string; pattern: string }[];
  cases: Case[];
};

function manifestFor(routes: { method: string; pattern: string }[]): AppManifest {
  const m: AppManifest = { version: 1, app: 'conformance', pages: [], endpoints: [], static: {}, templates: {} };
  m.templates.echo = {
    v: 1,
    locals: 0,
    nodes: [{ t: 'text', e: { k: 'data', p: ['pattern'] } }, '|', { t: 'text', e: { k: 'data', p: ['params'] } }],
  };
  routes.forEach((r, i) => {
    if (r.method === 'GET') {
      m.pages.push({
        pageId: `p${i}`,
        package: 't',
        route: r.pattern,
        render: 'ssr',
        guards: ['public'],
        layouts: [],
        files: {},
        template: 'echo',
        serverFields: ['pattern'],
        load: { status: 'bound', module: 'm', export: 'Load', signature: 'load' },
      });
    } else {
      m.endpoints.push({
        kind: 'api',
        endpointSource: 'kit',
        method: r.method,
        route: r.pattern,
        pageId: `e${i}`,
        package: 't',
        symbol: 'Echo',
        guards: ['public'],
        csrf: false,
        handler: { status: 'bound', module: 'm', export: 'Echo', signature: 'api' },
      });
    }
  });
  return m;
}

const handlers = {
  Load: (ctx: unknown) => ({ pattern: kitApp.route(ctx).path, params: JSON.stringify(kitApp.params(ctx)) }),
  Echo: (ctx: unknown) => Response.json({ pattern: kitApp.route(ctx).path, params: kitApp.params(ctx) }),
};

function unescape(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function expectedAllow(allow: string[]): string {
  const set = new Set(allow);
  if (set.has('GET')) set.add('HEAD');
  const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  return [...set].sort((a, b) => order.indexOf(a) - order.indexOf(b)).join(', ');
}

for (const order of ['as given', 'reversed'] as const) {
  describe(`router conformance over HTTP (routes ${order})`, () => {
    let port = 0;
    let close: () => Promise<void>;
    before(async () => {
      const routes = order === 'reversed' ? [...table.routes].reverse() : table.routes;
      const kit = createApp({
        manifest: manifestFor(routes),
        modules: { m: handlers },
        static: dirSource('/nonexistent-static-root'),
        csrfSecret: 'x'.repeat(32),
        log: () => undefined,
      });
      const { server } = createHttpServer(kit);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      port = (server.address() as AddressInfo).port;
      close = () => new Promise<void>((r) => server.close(() => r()));
    });
    after(() => close());

    for (const c of table.cases) {
      it(`${c.method} ${JSON.stringify(c.path)} — ${c.note}`, async () => {
        const r = await rawGet(port, c.path, c.method);
        if (c.status !== undefined) {
          assert.equal(r.status, c.status);
          return;
        }
        if (c.redirect !== undefined) {
          assert.equal(r.status, 308);
          assert.equal(r.headers.location, c.redirect);
          return;
        }
        if (c.expect === null) {
          if (c.method === 'HEAD' && c.allow?.includes('GET')) {
            assert.equal(r.status, 200, 'the server answers HEAD like GET for pages');
            assert.equal(r.body, '');
          } else if (c.allow && c.allow.length > 0 && c.method !== 'GET') {
            assert.equal(r.status, 405);
            assert.equal(r.headers.allow, expectedAllow(c.allow));
          } else {
            assert.equal(r.status, 404);
          }
          return;
        }
        if (c.method === 'GET') {
          const typed = decodeTypedParams(parseRoutePattern(c.expect.pattern), c.expect.params);
          if (!typed.ok) {
            assert.equal(
              r.status,
              400,
              'the typed binding answers 400 for a matched route whose param does not decode',
            );
            assert.equal(r.body, `invalid route parameter ${typed.param}\n`);
            return;
          }
          assert.equal(r.status, 200);
          const [pattern, params] = unescape(r.body).split('|');
          assert.equal(pattern, c.expect.pattern);
          assert.deepEqual(JSON.parse(params), c.expect.params);
        } else {
          const typed = decodeTypedParams(parseRoutePattern(c.expect.pattern), c.expect.params);
          if (!typed.ok) {
            assert.equal(r.status, 400);
            return;
          }
          assert.equal(r.status, 200);
          assert.deepEqual(JSON.parse(r.body), c.expect);
        }
      });
    }
  });
}
