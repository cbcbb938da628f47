// The generated app over real HTTP: the fixture site built once with `kit build --app --bin`, every
// row of the request behaviour run against the single executable (started from an empty directory
// with an empty PATH) and against `node <app>/server.js`.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { builtApp, rawGet, rawRequest, SECRET, startApp, type RunningApp } from './built-app.js';
import { csrfSession, NO_STORE, ROWS, runRow, type Session } from './http-rows.js';
import { repoRoot } from '#test/helpers/repo.js';
import { waitFor } from '#test/helpers/wait.js';

describe('generated app over HTTP', function () {
  this.timeout(240000);

  before(async () => {
    await builtApp();
  });

  it('kit build --app writes a readable app directory and the executable', async () => {
    const app = await builtApp();
    for (const f of [
      'server.js',
      'routes.js',
      'package.json',
      'kit-app.json',
      'handlers/handlers.js',
      'handlers/docs/handlers.js',
      'handlers/kit.config.js',
      'node_modules/@kit-lang/kit/shared/app/index.js',
      'static/index.html',
    ]) {
      assert.ok(existsSync(join(app.appDir, f)), `${f} exists`);
    }
    const server = readFileSync(join(app.appDir, 'server.js'), 'utf8');
    assert.match(server, /import\("\.\/handlers\/kit\.config\.js"\)/);
    assert.match(server, /"handlers\.ts": m\d/);
    const routes = readFileSync(join(app.appDir, 'routes.js'), 'utf8');
    assert.match(routes, /"route": "\/docs\/\{path\.\.\.\}"/);
    assert.ok(!routes.includes(app.root), 'no machine path in the route table');
    assert.ok(!existsSync(join(app.appDir, 'static', 'kit-routes.json')), 'build metadata is not copied');
    assert.ok(
      !readFileSync(join(app.appDir, 'handlers', 'handlers.js'), 'utf8').includes(repoRoot),
      'no machine path in compiled handlers',
    );
    assert.ok(!readFileSync(app.binFile).includes(app.root), 'no machine path in the executable');
    const size = statSync(app.binFile).size;
    const node = statSync(process.execPath).size;
    assert.ok(Math.abs(size - node) < 5 * 1024 * 1024, `binary ${size} B within 5 MB of node ${node} B`);
    assert.match(app.buildStdout, /single executable → /);
  });

  for (const kind of ['bin', 'node'] as const) {
    describe(kind === 'bin' ? 'single executable (empty PATH, empty cwd)' : 'node <app>/server.js', () => {
      let app: RunningApp;
      let session: Session;
      before(async () => {
        app = await startApp(kind);
        session = await csrfSession(app.url);
      });
      after(async () => {
        await app?.stop();
      });

      it('prints one listening line with the real port', () => {
        assert.match(app.stdout(), /^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
        assert.ok(app.port > 0);
      });

      for (const row of ROWS) it(row.name, () => runRow(app.url, session, row));

      it('the CSRF page is no-store, reuses a valid cookie and skips off-site forms', async () => {
        const r = await fetch(app.url + '/contact', { headers: { cookie: session.cookie } });
        assert.equal(r.headers.get('cache-control'), NO_STORE);
        assert.equal(r.headers.get('set-cookie'), null, 'a valid cookie is reused, not replaced');
        const html = await r.text();
        assert.equal(
          html.split(`name="_kit_csrf" value="${session.token}"`).length - 1,
          2,
          'two same-origin POST forms get the field',
        );
        assert.match(
          html,
          /<form method="post" action="https:\/\/elsewhere\.example\/x"><button/,
          'the off-site form gets no token',
        );
      });

      it('an invalid cookie is replaced on the next page view', async () => {
        const r = await fetch(app.url + '/contact', { headers: { cookie: 'kit-csrf=' + 'A'.repeat(86) } });
        assert.match(
          r.headers.get('set-cookie') ?? '',
          /^kit-csrf=[A-Za-z0-9_-]{86}; Path=\/; HttpOnly; SameSite=Lax$/,
        );
      });

      it('a forged token (valid shape, wrong signature) in cookie and field → 403', async () => {
        const forged = Buffer.alloc(64, 7).toString('base64url');
        const r = await fetch(app.url + '/contact', {
          method: 'POST',
          headers: { cookie: `kit-csrf=${forged}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: `name=a&email=b&_kit_csrf=${forged}`,
        });
        assert.equal(r.status, 403);
        assert.equal(await r.text(), 'invalid csrf token\n');
      });

      it('HTTPS requests (X-Forwarded-Proto) get the __Host- cookie', async () => {
        const r = await fetch(app.url + '/contact', { headers: { 'x-forwarded-proto': 'https' } });
        assert.match(
          r.headers.get('set-cookie') ?? '',
          /^__Host-kit-csrf=[A-Za-z0-9_-]{86}; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
        );
      });

      it('a body over 1 MiB → 413', async () => {
        const big = 'x=' + 'a'.repeat(1024 * 1024 + 10);
        const r = await fetch(app.url + '/contact', {
          method: 'POST',
          headers: {
            cookie: session.cookie,
            'x-kit-csrf': session.token,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: big,
        });
        assert.equal(r.status, 413);
        assert.equal(await r.text(), 'request body too large\n');
        assert.equal(r.headers.get('x-kit-error-code'), 'request_body_too_large');
      });

      it('multipart forms decode too', async () => {
        const fd = new FormData();
        fd.append('name', 'Multi');
        fd.append('email', 'm@x');
        fd.append('_kit_csrf', session.token);
        const r = await fetch(app.url + '/contact', { method: 'POST', headers: { cookie: session.cookie }, body: fd });
        assert.equal(r.status, 200);
        assert.match(await r.text(), /Thanks Multi \(m@x\)/);
      });

      it('raw targets: open-redirect shapes never redirect', async () => {
        for (const target of ['//evil.example/', '/\\evil.example/', '/%2f%2fevil.example/', '/%5cevil.example/']) {
          const r = await rawGet(app.port, target);
          assert.ok(r.status === 400 || r.status === 404, `${target} → ${r.status}`);
          assert.equal(r.headers.location, undefined, `${target} must not redirect`);
        }
      });

      it('handler and guard errors are logged on stderr, not sent', () => {
        assert.match(app.stderr(), /database password is hunter2/);
        assert.match(app.stderr(), /guard "vault\.unknown" is not registered/);
        assert.match(app.stderr(), /kit: api status\.Sym: handler returned a symbol, expected a Response/);
        assert.match(app.stderr(), /kit: api status\.Fn: handler returned a function, expected a Response/);
      });

      it('a fault left behind by a handler is logged once with its .ts line, and the app serves on', async () => {
        for (const path of ['/api/leak', '/api/late']) {
          const r = await fetch(app.url + path);
          assert.equal(r.status, 200);
          assert.equal(await r.text(), 'ok');
        }
        await waitFor(() => /late timer detail/.test(app.stderr()), { what: 'the late fault to be logged' });
        const health = await fetch(app.url + '/_kit/health');
        assert.equal(health.status, 200);
        const log = app.stderr();
        assert.match(log, /kit: unhandled promise rejection during GET \/api\/leak: Error: leaked rejection detail/);
        assert.match(log, /kit: uncaught exception during GET \/api\/late: Error: late timer detail/);
        assert.equal(log.split('leaked rejection detail').length - 1, 1, 'logged once');
        // The readable app maps stacks to the sources; the single executable keeps the bundle's lines.
        if (kind === 'node')
          assert.match(log, /leaked rejection detail\n\s+at Leak \([^)]*handlers\.ts:\d+:\d+\)/, 'names handlers.ts');
      });

      it('absolute-form request targets (RFC 9112) are accepted', async () => {
        const r = await rawGet(app.port, `http://127.0.0.1:${app.port}/about`);
        assert.equal(r.status, 200);
        assert.match(r.body, />About<\/h1>/);
      });
    });
  }

  it("two instances sharing KIT_CSRF_SECRET accept each other's tokens; rotation keeps old tokens valid", async () => {
    const a = await startApp('bin');
    const b = await startApp('node');
    const rotated = await startApp('node', {
      env: { KIT_CSRF_SECRET: `new-secret-abcdefghijklmnopqrstuvwxyz-0123,${SECRET}` },
    });
    const other = await startApp('node', { env: { KIT_CSRF_SECRET: 'another-secret-abcdefghijklmnopqrstuvwxyz' } });
    try {
      const s = await csrfSession(a.url);
      const post = (base: string) =>
        fetch(base + '/contact', {
          method: 'POST',
          headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: `name=Two&email=t@x&_kit_csrf=${s.token}`,
        });
      const onB = await post(b.url);
      assert.equal(onB.status, 200, "instance B accepts instance A's token");
      assert.match(await onB.text(), /Thanks Two/);
      assert.equal((await post(rotated.url)).status, 200, 'a verification-only secret still accepts the token');
      const view = await fetch(rotated.url + '/contact', { headers: { cookie: s.cookie } });
      assert.match(
        view.headers.get('set-cookie') ?? '',
        /kit-csrf=/,
        'a token signed by an old secret is replaced on the next page view',
      );
      assert.equal((await post(other.url)).status, 403, 'another secret rejects it');
    } finally {
      await Promise.all([a.stop(), b.stop(), rotated.stop(), other.stop()]);
    }
  });

  it('configuration errors are one line and exit 2; without a secret a warning is printed', async () => {
    const app = await builtApp();
    const { spawnSync } = await import('node:child_process');
    const short = spawnSync(app.binFile, ['--addr', '127.0.0.1:0'], {
      cwd: app.emptyDir,
      env: { PATH: '', KIT_CSRF_SECRET: 'short' },
      encoding: 'utf8',
    });
    assert.equal(short.status, 2);
    assert.equal(short.stderr, 'kit: KIT_CSRF_SECRET: secret 1 of 1 has 5 bytes; each secret needs at least 32\n');
    const badAddr = spawnSync(process.execPath, [join(app.appDir, 'server.js'), '--addr', 'nonsense'], {
      env: { KIT_CSRF_SECRET: SECRET },
      encoding: 'utf8',
    });
    assert.equal(badAddr.status, 2);
    assert.match(badAddr.stderr, /^kit: --addr: expected host:port/);
    const noSecret = await startApp('node', { env: { KIT_CSRF_SECRET: '' } });
    try {
      assert.match(noSecret.stderr(), /KIT_CSRF_SECRET is not set; using a random per-process secret/);
    } finally {
      await noSecret.stop();
    }
  });

  it('PORT picks the port when --addr is absent', async () => {
    const app = await startApp('node', { args: [], env: { PORT: '0' } });
    try {
      assert.match(app.stdout(), /^listening on http:\/\/127\.0\.0\.1:\d+/);
      assert.equal((await fetch(app.url + '/')).status, 200);
    } finally {
      await app.stop();
    }
  });

  it('SIGTERM lets an in-flight request finish, then exits 0', async () => {
    const app = await startApp('bin');
    const { connect } = await import('node:net');
    // A request whose body arrives slowly is in flight when the signal comes. It asks for a
    // `100 Continue`, which the server sends as it starts handling the request.
    const socket = connect(app.port, '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    const body = 'text=slow';
    socket.write(
      `POST /notes/save HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    let received = '';
    socket.on('data', (d) => (received += d));
    const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
    const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';
    await waitFor(() => received.startsWith(CONTINUE), { what: 'the app to start handling the request' });
    const exited = app.stop();
    await waitFor(() => /SIGTERM received/.test(app.stderr()), { what: 'the app to receive SIGTERM' });
    socket.write(body);
    const text = (await answer).slice(CONTINUE.length);
    assert.match(text, /^HTTP\/1\.1 403 /, 'the in-flight request was answered (403: no CSRF token)');
    assert.equal(await exited, 0);
    assert.match(app.stderr(), /SIGTERM received; finishing 1 in-flight request/);
  });
});

describe('generated app: tracing (KIT_TRACE=1)', function () {
  this.timeout(240000);
  let app: RunningApp;
  before(async () => {
    app = await startApp('bin', { env: { KIT_TRACE: '1' } });
  });
  after(async () => {
    await app?.stop();
  });

  it('one span per request with route, method, status and lane; collector and viewer on loopback only', async () => {
    assert.match(app.stdout(), /tracing on: spans at http:\/\/127\.0\.0\.1:\d+\/_kit\/traces/);
    assert.equal((await fetch(app.url + '/docs/x/y')).status, 200);
    assert.equal((await fetch(app.url + '/patients/abc')).status, 400);
    let spans: { name: string; lane: string; attributes: { key: string; value: unknown }[] }[] = [];
    await waitFor(
      async () => {
        const r = await fetch(app.url + '/_kit/traces');
        assert.equal(r.status, 200);
        spans = ((await r.json()) as { spans: typeof spans }).spans;
        return spans.some((s) => s.name === 'GET /patients/{id:int}');
      },
      { what: 'the span of GET /patients/abc' },
    );
    const attr = (s: (typeof spans)[number], k: string) => s.attributes.find((a) => a.key === k)?.value;
    const docs = spans.find((s) => attr(s, 'http.route') === '/docs/{path...}');
    assert.ok(docs, `a span for the docs route in ${JSON.stringify(spans.map((s) => s.name))}`);
    assert.equal(docs.lane, 'ssr');
    assert.equal(attr(docs, 'http.request.method'), 'GET');
    assert.equal(attr(docs, 'http.response.status_code'), 200);
    const patient = spans.find((s) => s.name === 'GET /patients/{id:int}');
    assert.ok(patient);
    assert.equal(attr(patient, 'http.response.status_code'), 400);
    const viewer = await fetch(app.url + '/_kit/traces/viewer');
    assert.equal(viewer.status, 200);
    assert.match(viewer.headers.get('content-type') ?? '', /text\/html/);
    const proxied = await fetch(app.url + '/_kit/traces', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(proxied.status, 404, 'a proxied request is not loopback');
  });

  it('browser span ingest needs a same-origin Origin; the collector answers loopback host names only', async () => {
    const port = Number(new URL(app.url).port);
    const span = JSON.stringify({
      traceId: 'abcdef0123456789abcdef0123456789',
      spanId: '0123456789abcdef',
      name: 'navigation /',
      surface: 'frontend',
      lane: 'nav',
      startTime: new Date().toISOString(),
      endTime: new Date().toISOString(),
    });
    const post = (headers: Record<string, string>) =>
      rawRequest(
        port,
        `POST /_kit/traces/browser HTTP/1.1\r\n${Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(span)}\r\n` +
          `Connection: close\r\n\r\n${span}`,
      );
    const host = `127.0.0.1:${port}`;
    const none = await post({ Host: host });
    const cross = await post({ Host: host, Origin: 'http://evil.example' });
    assert.equal(none.status, 403);
    assert.equal(cross.status, 403);
    assert.equal(none.body, cross.body);
    assert.equal((await post({ Host: host, Origin: `http://${host}` })).status, 204);
    const rebound = `attacker.example:${port}`;
    assert.equal((await post({ Host: rebound, Origin: `http://${rebound}` })).status, 421);
    const read = await rawGet(port, '/_kit/traces', 'GET', {});
    assert.equal(read.status, 200);
    const evil = await rawRequest(port, `GET /_kit/traces HTTP/1.1\r\nHost: ${rebound}\r\nConnection: close\r\n\r\n`);
    assert.equal(evil.status, 421);
    assert.doesNotMatch(evil.body, /spans/);
  });
});
