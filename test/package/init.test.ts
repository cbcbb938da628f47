// `kit init` as a newcomer runs it: a starter site in an empty directory, kit installed from its
// packed tarball (offline), then `kit check`, `tsc --noEmit` (strict) and `kit build` pass, and the
// built app serves the pages, the guard, the API and the form action's validation error.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../server/cli/cli-harness.js';
import { repoRoot } from '../helpers/repo.js';
import { installOffline, packKit, run, startBuiltApp } from './offline-install.js';

describe('kit init', function () {
  this.timeout(120_000);
  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'kit-init-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('refuses a directory that is not empty unless told, and names what is there', async () => {
    const dir = join(work, 'taken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const r = await runInProcess(['init', 'taken'], { cwd: work });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /kit init: taken is not empty \(notes\.txt\); choose an empty directory or pass --force/);
    assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'mine');
    const forced = await runInProcess(['init', '--force', 'taken'], { cwd: work });
    assert.equal(forced.code, 0, forced.stderr);
    assert.ok(existsSync(join(dir, 'kit.config.ts')));
    assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'mine', 'files of the user stay');
  });

  it('writes a site that installs, checks, type-checks strictly, builds and serves', async () => {
    const r = await runInProcess(['init', 'my-site'], { cwd: work });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /next: cd my-site && npm install && npm run check && npm run dev/);
    const project = join(work, 'my-site');
    for (const f of ['.gitignore', '.vscode/extensions.json', '.github/workflows/ci.yml', 'tsconfig.json'])
      assert.ok(existsSync(join(project, f)), `${f} is written`);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    assert.equal(pkg.name, 'my-site');
    assert.deepEqual(Object.keys(pkg.scripts), ['dev', 'check', 'build', 'start']);

    installOffline(project, packKit(work));
    const check = run('npm', ['run', 'check'], project);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /ok: checked 8 files, no problems/);
    assert.ok(existsSync(join(project, '.kit-types', 'site', '$kit.d.ts')), 'kit check wrote the page types');
    const build = run('npm', ['run', 'build'], project);
    assert.equal(build.status, 0, build.stdout + build.stderr);

    const app = await startBuiltApp(project);
    try {
      for (const path of ['/', '/blog', '/blog/hello', '/contact', '/status']) {
        const res = await fetch(app.url + path);
        assert.equal(res.status, 200, path);
      }
      const missing = await fetch(`${app.url}/no-such-page`, { headers: { accept: 'text/html' } });
      assert.equal(missing.status, 404);
      assert.match(await missing.text(), /<h1>404<\/h1>\s*<p>Sorry: page not found\.<\/p>/, "the starter's error page");
      const health = await fetch(`${app.url}/api/health`);
      assert.deepEqual(await health.json(), { ok: true, route: '/api/health', method: 'GET' });
      const account = await fetch(`${app.url}/account`, { redirect: 'manual' });
      assert.equal(account.status, 303, 'the guard sends visitors without a session home');
      const signedIn = await fetch(`${app.url}/account`, { headers: { cookie: 'session=ann' } });
      assert.equal(signedIn.status, 200);
      assert.match(await signedIn.text(), /Signed in as ann\./, 'the typed load feeds the page');

      // The form action: a token from the page, then a bad email → 422, the form again with the message.
      const page = await fetch(`${app.url}/contact`);
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
      const token = /name="_kit_csrf" value="([^"]+)"/.exec(await page.text())?.[1];
      assert.ok(token, 'the form carries a CSRF token');
      const body = new URLSearchParams({ _kit_csrf: token, name: 'Ann', email: 'nope' });
      const sent = await fetch(`${app.url}/contact`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
        body,
      });
      assert.equal(sent.status, 422);
      const again = await sent.text();
      assert.match(again, /<p class="error" data-kit-error="email">Please enter an email address\.<\/p>/);
      assert.match(again, /<input name="email" type="email" required value="nope" aria-invalid="true">/);
    } finally {
      await app.stop();
    }
  });

  it('npm create @kit-lang runs the same starter (the create package, installed beside kit)', () => {
    const project = join(work, 'creator');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "creator", "private": true }\n');
    installOffline(project, packKit(work));
    const packed = run('npm', ['pack', '--json', '--pack-destination', work], join(repoRoot, 'create'));
    assert.equal(packed.status, 0, packed.stderr);
    const tarball = join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0].filename);
    const into = join(project, 'node_modules', '@kit-lang', 'create');
    mkdirSync(into, { recursive: true });
    assert.equal(run('tar', ['-xzf', tarball, '-C', into, '--strip-components=1'], project).status, 0);
    const created = run(process.execPath, [join(into, 'index.js'), 'new-site'], project);
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stdout, /created 17 files in new-site/);
    assert.ok(existsSync(join(project, 'new-site', 'site', 'handlers.ts')));
    const again = run(process.execPath, [join(into, 'index.js'), 'new-site'], project);
    assert.equal(again.status, 2);
    assert.match(again.stderr, /^kit init: new-site is not empty/);
  });
});
