// Built files answered from the table of whole answers the app prepares at start-up (exact raw
// target → headers and body) must be byte for byte what the full request pipeline answers, and
// everything the pipeline decides per request (guards, CSRF tokens, endpoints sharing the path,
// other spellings of the path, tracing) must keep going through it.
import { strict as assert } from 'node:assert';
import type { AddressInfo } from 'node:net';
import { createApp, createHttpServer, type AppManifest, type StaticSource } from '#shared/app/index.js';
import { newCollector, newTracer, withSink } from '#shared/trace/index.js';
import { rawGet, type RawResponse } from '../../server/core/app/built-app.js';
import { waitFor } from '../../helpers/wait.js';

const FILES: Record<string, string> = {
  'index.html': '<!doctype html><h1>home</h1>',
  'about/index.html': '<!doctype html><h1>about &amp; more</h1>',
  'form/index.html': '<!doctype html><form method="post" action="/form"><input name="x"></form>',
  'private/index.html': '<!doctype html><h1>members</h1>',
  'denied/index.html': '<!doctype html><h1>denied</h1>',
  'shared/index.html': '<!doctype html><h1>page at an endpoint path</h1>',
  'orphan.html': '<!doctype html><h1>no page owns this</h1>',
  'assets/app.css': 'body{color:red}',
  'caf\u00e9/index.html': '<!doctype html><h1>caf\u00e9</h1>',
};

function manifest(): AppManifest {
  const page = (
    pageId: string,
    route: string,
    file: string,
    guards: string[],
    cache?: string,
  ): AppManifest['pages'][number] => ({
    pageId,
    package: 't',
    route,
    render: 'spa',
    guards,
    cache,
    layouts: [],
    files: { [route]: file },
    serverFields: [],
  });
  const m: AppManifest = {
    version: 1,
    app: 'prebuilt',
    pages: [
      page('home', '/', 'index.html', ['public'], 'public, max-age=60'),
      page('about', '/about', 'about/index.html', ['public']),
      page('form', '/form', 'form/index.html', ['public']),
      page('private', '/private', 'private/index.html', ['member']),
      page('denied', '/denied', 'denied/index.html', []),
      page('shared', '/shared', 'shared/index.html', ['public']),
      page('cafe', '/caf\u00e9', 'caf\u00e9/index.html', ['public']),
    ],
    endpoints: [
      {
        kind: 'api',
        endpointSource: 'kit',
        method: 'GET',
        route: '/shared',
        pageId: 'shared',
        package: 't',
        symbol: 'Api',
        guards: ['public'],
        csrf: false,
        handler: { status: 'bound', module: 'm', export: 'Api', signature: 'api' },
      },
    ],
    static: {},
    // The form page's template writes its built file (and, per request, the file's CSRF field).
    templates: {
      'page:form': {
        v: 1,
        locals: 0,
        nodes: [
          '<!doctype html>',
          {
            t: 'el',
            n: 'form',
            a: [
              ['method', [' method="post"']],
              ['action', [' action="/form"']],
            ],
            b: [{ t: 'el', n: 'input', a: [['name', [' name="x"']]] }],
          },
        ],
      },
    },
  };
  m.pages.find((p) => p.pageId === 'form')!.template = 'page:form';
  for (const file of Object.keys(FILES)) {
    m.static[file] = {
      file,
      type: file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/html; charset=utf-8',
      cache: file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
  }
  return m;
}

const source: StaticSource = {
  kind: 'dir',
  read(file: string): Buffer {
    const text = FILES[file];
    if (text === undefined) throw new Error(`no file ${file}`);
    return Buffer.from(text);
  },
};

const modules = { m: { Api: () => Response.json({ from: 'api' }) } };

async function serve(tracing: boolean): Promise<{ port: number; close: () => Promise<void> }> {
  const options: Parameters<typeof createApp>[0] = {
    manifest: manifest(),
    modules,
    static: source,
    csrfSecret: 'x'.repeat(32),
    log: () => undefined,
  };
  if (tracing) {
    const collector = newCollector(64);
    options.collector = collector;
    options.tracer = newTracer(withSink(collector));
  }
  const { server } = createHttpServer(createApp(options));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** What must not differ between two answers to the same page. */
function shape(r: RawResponse): Record<string, unknown> {
  const h = r.headers;
  return {
    status: r.status,
    type: h['content-type'],
    length: h['content-length'],
    cache: h['cache-control'],
    nosniff: h['x-content-type-options'],
    cookie: h['set-cookie'] === undefined ? undefined : 'set',
    body: r.body.replace(/value="[^"]+"/g, 'value="TOKEN"'),
  };
}

describe('app: prebuilt answers for built files', () => {
  let app: { port: number; close: () => Promise<void> };
  before(async () => {
    app = await serve(false);
  });
  after(() => app.close());

  // The exact target may be served from the table; the same path with a query, a trailing
  // slash's redirect aside, or percent-encoded takes the full pipeline: the answers must agree.
  const samePage: [string, string, string][] = [
    ['/', '/?x=1', 'public, max-age=60'],
    ['/about', '/about?x=1', 'no-cache'],
    ['/about', '/%61bout', 'no-cache'],
    ['/index.html', '/index.html?x=1', 'public, max-age=60'],
    ['/about/index.html', '/about/index.html?x', 'no-cache'],
    ['/assets/app.css', '/assets/app.css?v=2', 'public, max-age=31536000, immutable'],
    ['/caf%C3%A9', '/caf%c3%a9', 'no-cache'],
  ];
  for (const [exact, other, cache] of samePage) {
    it(`GET ${exact} answers exactly as GET ${other}`, async () => {
      const a = await rawGet(app.port, exact);
      const b = await rawGet(app.port, other);
      assert.equal(a.status, 200);
      assert.equal(a.headers['cache-control'], cache);
      assert.equal(a.headers['x-content-type-options'], 'nosniff');
      assert.deepEqual(shape(a), shape(b));
    });
    it(`HEAD ${exact}: the GET headers, no body`, async () => {
      const get = await rawGet(app.port, exact);
      const head = await rawGet(app.port, exact, 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.body, '');
      assert.deepEqual({ ...shape(head), body: undefined }, { ...shape(get), body: undefined });
    });
  }

  it('a page with a same-origin POST form still gets a fresh CSRF field, cookie and no-store, every time', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await rawGet(app.port, '/form');
      assert.equal(r.status, 200);
      assert.equal(r.headers['cache-control'], 'no-store');
      assert.ok(r.headers['set-cookie'], 'a CSRF cookie');
      assert.match(r.body, /name="_kit_csrf" value="[A-Za-z0-9_-]{86}"/);
    }
  });

  it('guards still decide: an unregistered guard and a page without guards answer 403', async () => {
    assert.equal((await rawGet(app.port, '/private')).status, 403);
    assert.equal((await rawGet(app.port, '/private', 'HEAD')).status, 403);
    assert.equal((await rawGet(app.port, '/denied')).status, 403);
  });

  it('an endpoint at the same path keeps answering GET', async () => {
    const r = await rawGet(app.port, '/shared');
    assert.equal(r.status, 200);
    assert.deepEqual(JSON.parse(r.body), { from: 'api' });
  });

  it('HTML no page owns is not served', async () => {
    assert.equal((await rawGet(app.port, '/orphan.html')).status, 404);
  });

  it('other methods, trailing slashes and unsafe spellings take the full pipeline', async () => {
    assert.equal((await rawGet(app.port, '/about', 'POST')).status, 405);
    const slash = await rawGet(app.port, '/about/');
    assert.equal(slash.status, 308);
    assert.equal(slash.headers.location, '/about');
    assert.equal((await rawGet(app.port, '/assets/../about')).status, 404);
    assert.equal((await rawGet(app.port, '/about%2f')).status, 404);
  });
});

describe('app: tracing on, built files still go through the traced pipeline', () => {
  let app: { port: number; close: () => Promise<void> };
  before(async () => {
    app = await serve(true);
  });
  after(() => app.close());

  it('a GET of a public built page is answered and recorded as a span', async () => {
    const r = await rawGet(app.port, '/about');
    assert.equal(r.status, 200);
    assert.equal(r.headers['cache-control'], 'no-cache');
    await waitFor(
      async () => {
        const t = await rawGet(app.port, '/_kit/traces');
        const names = (JSON.parse(t.body) as { spans: { name: string }[] }).spans.map((s) => s.name);
        assert.ok(names.includes('GET /about'), `spans: ${JSON.stringify(names)}`);
        return true;
      },
      { what: 'the span of GET /about' },
    );
  });
});
