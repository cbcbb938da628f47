// `kit init` as a newcomer runs it, from an empty directory holding only the release's tarballs and
// no registry copy of kit (kit's dependencies come from npm's cache through local-registry.ts):
// `npx -p ./kit-lang-kit-<v>.tgz kit init my-site`, then the starter's own scripts: `npm install`,
// `npm run check`, `npm run dev` (one edit of a page, served changed), `npm run build`, and the
// built app answering the pages, the guard, the API and the form action's validation error. Also
// `create-kit-lang` from the create tarball, and `npm create @kit-lang` from a registry that has
// both packages (the site then depends on `^<version>`). And the package's size budget: at most
// 43 MB installed with its dependencies (40 MB before the bundled CLI: out/bundle adds its 0.7 MB
// of code, which repeats the compiled modules the package exports, and 0.7 MB of source maps; the
// editor's URL features, the build cache and the language facts took it past 42 MB, to 42.2 MB).
import { strict as assert } from 'node:assert';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type Release, release } from '../helpers/release.js';
import { repoRoot } from '../helpers/repo.js';
import { waitFor } from '../helpers/wait.js';
import { runInProcess } from '../server/cli/cli-harness.js';
import { type LocalRegistry, npmEnv, startLocalRegistry } from './local-registry.js';
import { installScriptWarnings, type RunResult, run, startBuiltApp, startNpmScript } from './offline-install.js';

const MB = 1024 * 1024;

/**
 * Bytes of the files under `path`, each counted once: links are not followed, and a file linked
 * twice (esbuild's install script hard-links its binary into `esbuild/bin/`) is counted once.
 */
function sizeOf(path: string, seen = new Set<string>()): number {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return 0;
  if (!st.isDirectory()) {
    const id = `${st.dev}:${st.ino}`;
    if (seen.has(id)) return 0;
    seen.add(id);
    return st.size;
  }
  let total = 0;
  for (const name of readdirSync(path)) total += sizeOf(join(path, name), seen);
  return total;
}

/** GETs `url` until its body matches `re` (kit dev rebuilds after an edit); answers that body. */
async function waitForBody(url: string, re: RegExp, timeoutMs = 30_000): Promise<string> {
  return waitFor(
    async () => {
      const res = await fetch(url);
      const body = await res.text();
      assert.ok(res.status === 200 && re.test(body), `last answer (${res.status}):\n${body}`);
      return body;
    },
    { what: `${url} to answer ${re}`, timeout: timeoutMs, every: 50 },
  );
}

describe('kit init', function () {
  this.timeout(300_000);
  let work: string;
  let rel: Release;
  let registry: LocalRegistry;
  let env: NodeJS.ProcessEnv;
  /** The create runs' registries: kit's dependencies only (from the tarballs), and kit published too. */
  let forCreate: LocalRegistry;
  let published: LocalRegistry;
  let withKit: NodeJS.ProcessEnv;
  let createArgs: string[];
  let fromTarballs: Promise<RunResult>;
  let fromRegistry: Promise<{ created: RunResult; install?: RunResult }>;
  before(async () => {
    work = realpathSync(mkdtempSync(join(tmpdir(), 'kit-init-')));
    rel = await release();
    registry = await startLocalRegistry();
    env = npmEnv(registry);
    forCreate = await startLocalRegistry();
    published = await startLocalRegistry([rel.kit, rel.create]);
    withKit = { ...npmEnv(published), npm_config_yes: 'true' };
    // The directory a user was given the release in.
    for (const f of [rel.kit, rel.create]) copyFileSync(f, join(work, basename(f)));
    // The two create runs install kit again, each into an npx tree of its own: started here, they
    // install while the site of the newcomer's test is checked, run and built; their tests read
    // what came out.
    createArgs = ['--yes', '-p', `./${basename(rel.kit)}`, '-p', `./${basename(rel.create)}`, 'create-kit-lang'];
    fromTarballs = run('npx', [...createArgs, 'new-site'], work, npmEnv(forCreate));
    fromRegistry = run('npm', ['create', '@kit-lang', 'registry-site'], work, withKit).then(async (created) => ({
      created,
      install: created.status === 0 ? await run('npm', ['install'], join(work, 'registry-site'), withKit) : undefined,
    }));
  });
  after(async () => {
    await Promise.allSettled([fromTarballs, fromRegistry]);
    for (const r of [registry, forCreate, published]) await r?.stop();
    rmSync(work, { recursive: true, force: true });
  });

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

  it('run from a checkout, depends on the checkout; --kit chooses the spec, a path made absolute', async () => {
    const dependency = (dir: string) =>
      JSON.parse(readFileSync(join(work, dir, 'package.json'), 'utf8')).dependencies['@kit-lang/kit'];
    const checkout = await runInProcess(['init', 'from-checkout'], { cwd: work });
    assert.equal(checkout.code, 0, checkout.stderr);
    assert.equal(dependency('from-checkout'), `file:${realpathSync(repoRoot)}`);
    assert.match(checkout.stdout, /@kit-lang\/kit: file:\S+ \(kit runs from this directory, not from an installed/);

    const tgz = `./kit-lang-kit-${rel.version}.tgz`;
    const given = await runInProcess(['init', '--kit', tgz, 'given-tarball'], { cwd: work });
    assert.equal(given.code, 0, given.stderr);
    assert.equal(dependency('given-tarball'), `file:${join(work, basename(rel.kit))}`);
    const range = await runInProcess(['init', '--kit', '^1.2.0', 'given-range'], { cwd: work });
    assert.equal(range.code, 0, range.stderr);
    assert.equal(dependency('given-range'), '^1.2.0');
    const missing = await runInProcess(['init', '--kit', './nope.tgz', 'given-missing'], { cwd: work });
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, `kit init: --kit ./nope.tgz: no such file or directory (${join(work, 'nope.tgz')})\n`);
    assert.ok(!existsSync(join(work, 'given-missing')), 'nothing is written');
  });

  it('npx -p ./kit-lang-kit-<v>.tgz kit init: the site installs, checks, runs under kit dev, builds and serves', async () => {
    const tgz = `./kit-lang-kit-${rel.version}.tgz`;
    const init = await run('npx', ['--yes', '-p', tgz, 'kit', 'init', 'my-site'], work, env);
    assert.equal(init.status, 0, init.stdout + init.stderr);
    const tarball = join(work, basename(rel.kit));
    assert.ok(
      init.stdout.includes(`\n@kit-lang/kit: file:${tarball} (the tarball this kit was installed from)\n`),
      init.stdout,
    );
    assert.match(init.stdout, /\nnext: cd my-site && npm install && npm run check && npm run dev\n$/);
    const project = join(work, 'my-site');
    for (const f of ['.gitignore', '.vscode/extensions.json', '.github/workflows/ci.yml', 'tsconfig.json'])
      assert.ok(existsSync(join(project, f)), `${f} is written`);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    assert.equal(pkg.name, 'my-site');
    assert.deepEqual(pkg.dependencies, { '@kit-lang/kit': `file:${tarball}` });
    assert.deepEqual(Object.keys(pkg.scripts), ['dev', 'check', 'build', 'start']);

    // The "next:" line, as printed.
    const install = await run('npm', ['install'], project, env);
    assert.equal(install.status, 0, install.stdout + install.stderr);
    assert.deepEqual(installScriptWarnings(install.stderr), []);
    assert.deepEqual(
      registry.requests.filter((p) => p.includes('@kit-lang')),
      [],
      'kit came from its tarball, not from a registry',
    );
    const installed = sizeOf(join(project, 'node_modules'));
    console.log(`      package: ${(installed / MB).toFixed(1)} MB installed with dependencies`);
    assert.ok(installed <= 43 * MB, `installed ${installed} bytes`);
    const version = await run(join(project, 'node_modules', '.bin', 'kit'), ['--version'], project);
    assert.equal(version.stdout, `kit ${rel.version}\n`, version.stderr);

    const check = await run('npm', ['run', 'check'], project, env);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /no problems/);
    assert.ok(existsSync(join(project, '.kit-types', 'site', '$kit.d.ts')), 'kit check wrote the page types');
    const cache = join(project, 'node_modules', '@kit-lang', 'kit', 'out', 'bundle', '.cache');
    assert.equal(readdirSync(cache).filter((f) => f.endsWith('.v8')).length, 1, 'the code cache beside the bundle');

    const dev = await startNpmScript(project, env, 'dev', ['--port', '0'], /Ctrl-C to stop/);
    try {
      await waitForBody(`${dev.url}/`, /<h1>Welcome<\/h1>/);
      const home = join(project, 'site', 'home.kit');
      writeFileSync(home, readFileSync(home, 'utf8').replace('<h1>Welcome</h1>', '<h1>Welcome, edited</h1>'));
      await waitForBody(`${dev.url}/`, /<h1>Welcome, edited<\/h1>/);
    } finally {
      await dev.stop();
    }

    const build = await run('npm', ['run', 'build'], project, env);
    assert.equal(build.status, 0, build.stdout + build.stderr);
    assert.equal(pkg.scripts.start, 'node dist/app/server.js', 'the app starts as npm start starts it');
    const app = await startBuiltApp(project);
    try {
      const home = await fetch(`${app.url}/`);
      assert.equal(home.status, 200);
      assert.match(await home.text(), /<h1>Welcome, edited<\/h1>/, 'the build has the edit');
      for (const path of ['/blog', '/blog/hello', '/contact', '/status']) {
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

  it('npx -p <kit tgz> -p <create tgz> create-kit-lang: the create package writes the same starter', async () => {
    const created = await fromTarballs;
    assert.equal(created.status, 0, created.stdout + created.stderr);
    assert.match(created.stdout, /created 17 files in new-site/);
    assert.ok(existsSync(join(work, 'new-site', 'site', 'handlers.ts')));
    const pkg = JSON.parse(readFileSync(join(work, 'new-site', 'package.json'), 'utf8'));
    assert.equal(pkg.dependencies['@kit-lang/kit'], `file:${join(work, basename(rel.kit))}`);
    // npm looks the create package's dependency on kit up in the registry, and takes the 404: the
    // kit of the other tarball satisfies it. No kit tarball comes from a registry.
    assert.deepEqual(
      forCreate.requests.filter((p) => p.includes('@kit-lang') && p.includes('/-/')),
      [],
      'kit came from its tarball',
    );
    const again = await run('npx', [...createArgs, 'new-site'], work, npmEnv(forCreate));
    assert.equal(again.status, 2);
    assert.match(again.stderr, /^kit init: new-site is not empty/m);
  });

  it('npm create @kit-lang from a registry that has kit: the site depends on ^<version> and installs', async () => {
    const { created, install } = await fromRegistry;
    assert.equal(created.status, 0, created.stdout + created.stderr);
    assert.ok(created.stdout.includes(`\n@kit-lang/kit: ^${rel.version} (from the registry, as this kit was`));
    const project = join(work, 'registry-site');
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    assert.deepEqual(pkg.dependencies, { '@kit-lang/kit': `^${rel.version}` });
    assert.equal(install?.status, 0, (install?.stdout ?? '') + (install?.stderr ?? ''));
    const version = await run(join(project, 'node_modules', '.bin', 'kit'), ['--version'], project);
    assert.equal(version.stdout.trim(), `kit ${rel.version}`);
  });
});
