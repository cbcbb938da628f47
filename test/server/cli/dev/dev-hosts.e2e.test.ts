// `kit dev` answers only the host names it was started for: every surface (pages, APIs, the event
// stream, the client script, the overlay of a failed request, the trace collector) gets 421 for a
// `Host` a DNS-rebinding page would send, and a state-changing request from another site's page
// (`Origin`) gets 403 unless the endpoint's `cors` declares that origin. `--allowed-hosts` lists
// more names; `--host` on another interface answers every IP address.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, copyFixture, startDev, type DevProcess } from './dev-harness.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to 127.0.0.1:`port` with the `Host` (and other headers) given, as a rebinding page's. */
function send(
  port: number,
  path: string,
  host: string,
  opts: { method?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<Answer>((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        headers: {
          host,
          ...(opts.method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        // An event stream never ends: its first bytes are enough.
        const stream = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
        res.on('data', (d: string) => {
          body += d;
          if (stream) res.destroy();
        });
        const done = () => ok({ status: res.statusCode ?? 0, headers: res.headers, body });
        res.on('end', done);
        res.on('close', done);
      },
    );
    req.on('error', fail);
    req.end(opts.method === 'POST' ? 'x=1' : undefined);
  });
}

const SURFACES = ['/', '/api/health', '/_kit/dev/events?path=/', '/_kit/dev/client.js', '/_kit/traces'];

describe('kit dev: Host and Origin', function () {
  this.timeout(60000);
  let dev: DevProcess;
  let port: number;
  before(async () => {
    dev = await startDev(copyFixture('app', 'site'), ['--ssr']);
    port = Number(new URL(dev.url).port);
  });
  after(async () => {
    await dev?.stop();
  });

  it('answers localhost and the address it listens on, with its port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `app.localhost:${port}`, `LOCALHOST:${port}`])
      for (const path of SURFACES) {
        const r = await send(port, path, host);
        assert.equal(r.status, 200, `${host} ${path}: ${r.body}`);
      }
  });

  it('answers 421 on every surface to the names a rebinding page sends', async () => {
    const shapes = [
      'evil.com',
      `evil.com:${port}`,
      `localhost.evil.com:${port}`,
      `127.1:${port}`,
      `0x7f000001:${port}`,
      `2130706433:${port}`,
      `127.0.0.2:${port}`,
      `[::1]:${port}`,
      `127.0.0.1:${port + 1}`,
      `localhost:${port + 1}`,
      '127.0.0.1',
      'localhost',
    ];
    for (const host of shapes)
      for (const path of SURFACES) {
        const r = await send(port, path, host, { headers: { accept: 'text/html' } });
        assert.equal(r.status, 421, `${host} ${path}: ${r.status} ${r.body.slice(0, 200)}`);
        assert.equal(r.headers['x-kit-error-code'], 'misdirected_request');
        assert.match(r.body, /^misdirected request: .*--allowed-hosts/);
        assert.doesNotMatch(r.body, /<html|kit-dev-overlay|EventSource/);
      }
  });

  it('the overlay of a failed request, with its stack, goes to the right host only', async () => {
    const good = await send(port, '/explode', `localhost:${port}`, { headers: { accept: 'text/html' } });
    assert.equal(good.status, 500);
    assert.match(good.body, /id="kit-dev-overlay"[\s\S]*secret-load-detail/);
    const evil = await send(port, '/explode', `evil.com:${port}`, { headers: { accept: 'text/html' } });
    assert.equal(evil.status, 421);
    assert.doesNotMatch(evil.body, /secret-load-detail|handlers\.ts/);
  });

  it('refuses a state-changing request from another origin, takes its own and a declared cors origin', async () => {
    const host = `127.0.0.1:${port}`;
    for (const origin of ['https://evil.example', 'null', `http://localhost:${port}`, `http://127.0.0.1:${port + 1}`]) {
      const r = await send(port, '/contact', host, { method: 'POST', headers: { origin } });
      assert.equal(r.status, 403, origin);
      assert.equal(r.headers['x-kit-error-code'], 'forbidden_origin', origin);
    }
    // Its own origin (and no Origin at all) reach the app, which asks for the CSRF token as always.
    for (const headers of [{ origin: `http://${host}` }, {} as Record<string, string>]) {
      const r = await send(port, '/contact', host, { method: 'POST', headers });
      assert.equal(r.status, 403);
      assert.equal(r.headers['x-kit-error-code'], 'invalid_csrf_token');
    }
    // The API's cors declares https://app.example: the app answers it (CSRF first, as in the build).
    const declared = await send(port, '/api/echo', host, {
      method: 'POST',
      headers: { origin: 'https://app.example' },
    });
    assert.equal(declared.headers['x-kit-error-code'], 'invalid_csrf_token');
    const other = await send(port, '/api/echo', host, { method: 'POST', headers: { origin: 'https://evil.example' } });
    assert.equal(other.headers['x-kit-error-code'], 'forbidden_origin');
    // Reading is not changing: a cross-origin GET is the app's to answer (CORS keeps the body from the page).
    assert.equal((await send(port, '/api/health', host, { headers: { origin: 'https://evil.example' } })).status, 200);
  });
});

describe('kit dev: --allowed-hosts and --host', function () {
  this.timeout(60000);

  it('--allowed-hosts adds names (with any port), .name adds the names under it', async () => {
    const dev = await startDev(copyFixture('dev', 'site'), ['--allowed-hosts', 'dev.test, .example.test']);
    try {
      const port = Number(new URL(dev.url).port);
      for (const host of ['dev.test', 'dev.test:8443', 'example.test', 'a.b.example.test:80', `localhost:${port}`])
        assert.equal((await send(port, '/', host)).status, 200, host);
      for (const host of ['evil.com', 'notexample.test', 'dev.test.evil.com', `[::1]:${port}`])
        assert.equal((await send(port, '/', host)).status, 421, host);
    } finally {
      await dev.stop();
    }
  });

  it('--host on every interface answers IP addresses with its port, still no foreign name', async () => {
    const dev = await startDev(copyFixture('dev', 'site'), ['--host', '0.0.0.0']);
    try {
      const port = Number(new URL(dev.url).port);
      for (const host of [`192.168.1.20:${port}`, `127.0.0.1:${port}`, `[fe80::1]:${port}`, `localhost:${port}`])
        assert.equal((await send(port, '/', host)).status, 200, host);
      for (const host of [`evil.com:${port}`, `192.168.1.20:${port + 1}`, `127.1:${port}`])
        assert.equal((await send(port, '/', host)).status, 421, host);
    } finally {
      await dev.stop();
    }
  });

  it('allowedHosts in kit.config adds names as --allowed-hosts does, and the flag wins', async () => {
    const site = copyFixture('dev', 'site');
    writeFileSync(join(site, 'kit.config.ts'), "export const allowedHosts = ['dev.test', '.example.test'];\n");
    const dev = await startDev(site);
    try {
      const port = Number(new URL(dev.url).port);
      for (const host of ['dev.test', 'a.example.test:80', `localhost:${port}`])
        assert.equal((await send(port, '/', host)).status, 200, host);
      assert.equal((await send(port, '/', 'evil.com')).status, 421);
    } finally {
      await dev.stop();
    }
    const flagged = await startDev(site, ['--allowed-hosts', 'other.test']);
    try {
      const port = Number(new URL(flagged.url).port);
      assert.equal((await send(port, '/', 'other.test')).status, 200);
      assert.equal((await send(port, '/', 'dev.test')).status, 421, 'the flag replaces the config');
    } finally {
      await flagged.stop();
    }
  });

  it('an allowedHosts kit cannot read, or a name that is no host name, is one clear line and exit 2', () => {
    const site = copyFixture('dev', 'site');
    writeFileSync(join(site, 'kit.config.ts'), "export const allowedHosts = ['ok.test', 'http://x/'];\n");
    let r = spawnSync(process.execPath, [CLI, 'dev', '.'], { cwd: site, encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /kit dev: allowedHosts of kit.config: "http:\/\/x\/" is not a host name/);
    writeFileSync(join(site, 'kit.config.ts'), 'export const allowedHosts = process.env.HOSTS;\n');
    r = spawnSync(process.execPath, [CLI, 'check', '.'], { cwd: site, encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(
      r.stdout,
      /kit\.config\.ts:1:29: error config_not_literal: allowedHosts in kit\.config\.ts must be an array/,
    );
  });

  it('a name that is no host name is one clear line and exit 2', () => {
    const r = spawnSync(process.execPath, [CLI, 'dev', '--allowed-hosts', 'ok.test,http://x/', '.'], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /kit dev: --allowed-hosts: "http:\/\/x\/" is not a host name/);
  });
});
