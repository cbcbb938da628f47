// `kit preview` serves a built app as production runs it, answers only the host names it was
// started for (421 to the names a DNS-rebinding page sends), and stops cleanly on SIGTERM.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attach, builtApp } from '../core/app/built-app.js';
import { CLI_MAIN, runInProcess } from './cli-harness.js';

/** GET `path` from 127.0.0.1:`port` with the `Host` given; the status and body. */
function getAs(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('kit preview', function () {
  this.timeout(60_000);

  it('serves the app directory kit build --app wrote, and exits 0 on SIGTERM', async () => {
    const built = await builtApp();
    const app = await attach(
      spawn(process.execPath, [CLI_MAIN, 'preview', '--port', '0', built.appDir], {
        env: { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: 'x'.repeat(32) },
      }),
    );
    const res = await fetch(`${app.url}/`);
    assert.equal(res.status, 200);
    const health = await fetch(`${app.url}/_kit/health`);
    assert.equal(health.status, 200);
    assert.equal(await app.stop(), 0);
  });

  it('answers 421 to a Host a rebinding page sends; --allowed-hosts adds names', async () => {
    const built = await builtApp();
    const start = (...args: string[]) =>
      attach(
        spawn(process.execPath, [CLI_MAIN, 'preview', '--port', '0', ...args, built.appDir], {
          env: { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: 'x'.repeat(32) },
        }),
      );
    const app = await start();
    try {
      const port = app.port;
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`])
        for (const path of ['/', '/_kit/health', '/api/health'])
          assert.equal((await getAs(port, path, host)).status, 200, `${host} ${path}`);
      const shapes = [
        'evil.com',
        `evil.com:${port}`,
        `localhost.evil.com:${port}`,
        `127.1:${port}`,
        `0x7f000001:${port}`,
        `127.0.0.1:${port + 1}`,
      ];
      for (const host of shapes)
        for (const path of ['/', '/_kit/health', '/api/health']) {
          const r = await getAs(port, path, host);
          assert.equal(r.status, 421, `${host} ${path}`);
          assert.match(r.body, /^misdirected request: .*KIT_ALLOWED_HOSTS/);
        }
    } finally {
      assert.equal(await app.stop(), 0);
    }
    const named = await start('--allowed-hosts', 'preview.test');
    try {
      assert.equal((await getAs(named.port, '/', 'preview.test')).status, 200);
      assert.equal((await getAs(named.port, '/', 'evil.com')).status, 421);
    } finally {
      await named.stop();
    }
  });

  it('says how to build an app when the directory holds none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-preview-'));
    try {
      const r = await runInProcess(['preview', 'nothing-here'], { cwd: dir });
      assert.equal(r.code, 2);
      assert.match(
        r.stderr,
        /kit preview: nothing-here holds no built app \(no kit-app\.json\); build one with kit build --out dist\/site --app nothing-here <sources>/,
      );
      const port = await runInProcess(['preview', '--port', 'http'], { cwd: dir });
      assert.equal(port.code, 2);
      assert.match(port.stderr, /kit preview: --port must be a number from 0 to 65535, not "http"/);
      const hosts = await runInProcess(['preview', '--allowed-hosts', 'a b'], { cwd: dir });
      assert.equal(hosts.code, 2);
      assert.match(hosts.stderr, /kit preview: --allowed-hosts: "a b" is not a host name/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
