// Error pages against the real built app: 403, 404 and 500 answers to HTML requests render the
// site's error page inside its layout (a page's own `error` document first), with the generic
// message of the status and nothing a handler said; JSON and API requests keep their answers;
// `kit build --out` writes 404.html for static hosts.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, repoRoot } from '#test/helpers/repo.js';
import { attach, runKit, SECRET, tempDir, type RunningApp } from './built-app.js';

const HTML = { accept: 'text/html,application/xhtml+xml;q=0.9' };

describe('app error pages', function () {
  this.timeout(60000);
  let app: RunningApp;
  let out: string;

  before(async () => {
    const root = tempDir('kit-error-pages-');
    out = join(root, 'dist');
    const appDir = join(root, 'app');
    const r = runKit(['build', '--ssr', '--out', out, '--app', appDir, fixture('app', 'errors')], repoRoot);
    assert.equal(r.status, 0, r.stderr);
    const env = { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: SECRET };
    app = await attach(spawn(process.execPath, [join(appDir, 'server.js'), '--addr', '127.0.0.1:0'], { env }));
  });
  after(async () => {
    await app?.stop();
  });

  const cases = [
    { path: '/vault', status: 403, code: 'guard_forbidden', text: 'Error 403', message: 'forbidden' },
    { path: '/crash', status: 500, code: 'request_failed', text: 'Error 500', message: 'internal server error' },
    { path: '/no-such-page', status: 404, code: 'not_found', text: 'Error 404', message: 'page not found' },
  ];
  for (const c of cases) {
    it(`${c.status}: renders the layout's error page for an HTML request (${c.path})`, async () => {
      const res = await fetch(app.url + c.path, { headers: HTML });
      const body = await res.text();
      assert.equal(res.status, c.status);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('x-kit-error-code'), c.code);
      assert.match(body, /<header>SITE-HEADER<\/header><main class="error"><h1>/, 'inside the layout');
      assert.match(body, new RegExp(`<h1>${c.text}</h1><p>Sorry: ${c.message}\\.</p>`));
      assert.match(body, /<title>Error site<\/title>/);
      assert.doesNotMatch(body, /hunter2|Error: |at .*\.js:\d+/, 'no handler message or stack');
    });
  }

  it("a page's own error document wins, and a path under it uses it too", async () => {
    const res = await fetch(app.url + '/manual/missing', { headers: HTML });
    assert.equal(res.status, 404);
    assert.match(await res.text(), /<p>MANUAL-ERROR 404<\/p>/);
  });

  it('JSON and API requests keep their answers', async () => {
    const json = await fetch(app.url + '/vault', { headers: { accept: 'application/json' } });
    assert.equal(json.status, 403);
    assert.equal(await json.text(), '403 forbidden\n');
    const api = await fetch(app.url + '/api/boom', { headers: HTML });
    assert.equal(api.status, 500);
    assert.deepEqual(await api.json(), {
      ok: false,
      error: { code: 'request_failed', message: 'internal server error' },
    });
  });

  it('HEAD answers the error page headers without a body', async () => {
    const res = await fetch(app.url + '/vault', { method: 'HEAD', headers: HTML });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await res.text(), '');
  });

  it('kit build --out writes 404.html from the site error page', () => {
    const html = readFileSync(join(out, '404.html'), 'utf8');
    assert.match(
      html,
      /<header>SITE-HEADER<\/header><main class="error"><h1>Error 404<\/h1><p>Sorry: page not found\.<\/p>/,
    );
  });

  it('error documents are copied under content-hashed names and listed in kit-assets.json', () => {
    const assets = JSON.parse(readFileSync(join(out, 'kit-assets.json'), 'utf8')) as {
      files: string[];
      hashes: Record<string, string>;
    };
    const copies = assets.files.filter((f) => /^assets\/files\/error\.[0-9a-f]{10}\.html$/.test(f));
    assert.equal(copies.length, 1, assets.files.join(', '));
    const source = readFileSync(join(fixture('app', 'errors'), 'error.html'));
    assert.deepEqual(readFileSync(join(out, copies[0])), source, 'the bytes as written');
    assert.equal(assets.hashes[copies[0]], `sha256-${createHash('sha256').update(source).digest('hex')}`);
  });
});
