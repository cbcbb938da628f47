import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '#cli/run.js';
import type { CliIO } from '#cli/io.js';
import { kitRuntimeSource } from '#core/build/index.js';
import { repoRoot } from '../../helpers/repo.js';
import { buildFixture, EXAMPLE_SITE, listFiles, readTree, removeDir, tempDir } from '../core/build/helpers.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function kit(...argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    cwd: repoRoot,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

describe('kit build', function () {
  this.timeout(60000);
  let tmp: string;
  beforeEach(() => {
    tmp = tempDir('cli');
  });
  afterEach(() => removeDir(tmp));

  it('writes every SPA page, the assets and both manifests, and prints a summary', async () => {
    const out = join(tmp, 'dist');
    const r = await kit('build', '--ssr', '--out', out, EXAMPLE_SITE);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^built 6 pages in \d+\.\d+ s → .*dist\/ \(\d+ rendered, \d+ from the cache\)\n$/);
    assert.match(
      r.stderr,
      /^info: spa_disabled: docs uses request-time page behavior; generated SPA\/static page output is disabled$/m,
    );
    const files = listFiles(out);
    for (const f of [
      'index.html',
      'blog/index.html',
      'blog/hello-kit/index.html',
      'blog/routing-rules/index.html',
      'contact/index.html',
      'status/index.html',
      'assets/kit/kit.js',
      'kit-routes.json',
      'kit-assets.json',
    ]) {
      assert.ok(files.includes(f), `${f} written`);
    }
    assert.ok(!files.some((f) => f.startsWith('docs/')), 'the SSR page gets no static file');
    assert.equal(readFileSync(join(out, 'assets/kit/kit.js'), 'utf8'), kitRuntimeSource());

    const routes = JSON.parse(readFileSync(join(out, 'kit-routes.json'), 'utf8'));
    assert.equal(routes.version, 1);
    assert.deepEqual(
      routes.routes.map((r: { path: string; file: string; page: string }) => `${r.path} ${r.file} ${r.page}`),
      [
        '/ index.html home',
        '/blog blog/index.html blog.index',
        '/blog/hello-kit blog/hello-kit/index.html blog.post',
        '/blog/routing-rules blog/routing-rules/index.html blog.post',
        '/contact contact/index.html contact',
        '/status status/index.html status',
      ],
    );
    assert.deepEqual(
      routes.endpoints
        .map((e: { kind: string; method: string; route: string }) => `${e.kind} ${e.method} ${e.route}`)
        .sort(),
      ['action POST /contact', 'api GET /api/health', 'api POST /api/echo'],
    );

    const assets = JSON.parse(readFileSync(join(out, 'kit-assets.json'), 'utf8'));
    assert.equal(assets.version, 1);
    assert.deepEqual(
      assets.files,
      files.filter((f) => f !== 'kit-assets.json'),
    );
    for (const f of assets.files) {
      const bytes = readFileSync(join(out, f));
      assert.equal(assets.hashes[f], 'sha256-' + createHash('sha256').update(bytes).digest('hex'), `hash of ${f}`);
      assert.equal(assets.sizes[f], bytes.length, `size of ${f}`);
    }
    assert.equal(assets.cache['index.html'], 'public, max-age=300, stale-while-revalidate=3600');
    assert.equal(assets.cache['blog/hello-kit/index.html'], 'public, max-age=600');
    assert.equal(assets.cache['contact/index.html'], undefined, 'no cache declared, no policy');
    for (const f of assets.files.filter((x: string) => x.startsWith('assets/css/')))
      assert.equal(assets.cache[f], 'public, max-age=31536000, immutable');
  });

  it('is deterministic: two builds, whatever the argument order, give identical bytes', async () => {
    const a = join(tmp, 'a');
    const b = join(tmp, 'b');
    assert.equal((await kit('build', '--ssr', '--out', a, EXAMPLE_SITE, buildFixture('components'))).code, 0);
    assert.equal((await kit('build', '--ssr', '--out', b, buildFixture('components'), EXAMPLE_SITE)).code, 0);
    assert.deepEqual(readTree(a), readTree(b));
  });

  it('replaces the output as a whole: stale files do not survive', async () => {
    const out = join(tmp, 'dist');
    assert.equal((await kit('build', '--ssr', '--out', out, EXAMPLE_SITE)).code, 0);
    writeFileSync(join(out, 'stale.txt'), 'old');
    mkdirSync(join(out, 'blog', 'removed-post'), { recursive: true });
    writeFileSync(join(out, 'blog', 'removed-post', 'index.html'), 'old');
    assert.equal((await kit('build', '--ssr', '--out', out, EXAMPLE_SITE)).code, 0);
    assert.ok(!existsSync(join(out, 'stale.txt')));
    assert.ok(!existsSync(join(out, 'blog', 'removed-post')));
    assert.deepEqual(readdirSync(tmp), ['dist'], 'no temporary directories are left beside --out');
  });

  it('a failed build leaves the previous output intact and no temporary files', async () => {
    const out = join(tmp, 'dist');
    assert.equal((await kit('build', '--ssr', '--out', out, EXAMPLE_SITE)).code, 0);
    const before = readTree(out);
    // The second paths record of this fixture is a 300-character segment: writing it fails midway.
    const r = await kit('build', '--out', out, buildFixture('atomic'));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^kit build: cannot write z\/x{300}\/index.html: ENAMETOOLONG\n$/);
    assert.equal(r.stdout, '');
    assert.deepEqual(readTree(out), before);
    assert.deepEqual(readdirSync(tmp), ['dist']);
  });

  it('refuses to write anything when the sources have errors, and prints them like kit check', async () => {
    const out = join(tmp, 'dist');
    const r = await kit('build', '--out', out, buildFixture('errors'));
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /^test\/fixtures\/build\/errors\/bad\.kit:8:10: error unknown_component: bad: unknown component <Missing>/m,
    );
    assert.match(r.stderr, /^checked 1 file: 1 error, 0 warnings$/m);
    assert.ok(!existsSync(out));
    assert.deepEqual(readdirSync(tmp), []);
  });

  it('refuses SSR pages without --ssr, missing asset files, and unbound handlers with --strict-bindings', async () => {
    const out = join(tmp, 'dist');
    const noSsr = await kit('build', '--out', out, EXAMPLE_SITE);
    assert.equal(noSsr.code, 1);
    assert.match(noSsr.stderr, /error missing_ssr_addon/);
    const missing = await kit('build', '--out', out, buildFixture('missing-asset'));
    assert.equal(missing.code, 1);
    assert.match(
      missing.stderr,
      /^test\/fixtures\/build\/missing-asset\/page\.kit:6:1: error missing_asset_file: missing: js module "\.\/nope\.js" cannot be read \(no such file\)$/m,
    );
    const strict = await kit('build', '--strict-bindings', '--out', out, buildFixture('forms'));
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /error backend_binding_required/);
    assert.ok(!existsSync(out));
  });

  describe('usage and I/O errors exit 2 with one line', () => {
    const cases: [string, string[], RegExp][] = [
      ['no --out', [EXAMPLE_SITE], /^kit build: --out <dir> is required with paths \(without them, kit\.config gives/],
      [
        'no inputs',
        ['--out', 'OUT'],
        /^kit build: no sources: name the directory of the \.kit files \(kit build site\)/,
      ],
      [
        'unknown flag',
        ['--out', 'OUT', '--nope', EXAMPLE_SITE],
        /^kit build: unknown flag --nope \(see kit build --help\)\n$/,
      ],
      ['a missing input', ['--out', 'OUT', 'no/such/dir'], /^kit build: no such file or directory: no\/such\/dir\n$/],
    ];
    for (const [name, args, want] of cases) {
      it(name, async () => {
        const r = await kit('build', ...args.map((a) => (a === 'OUT' ? join(tmp, 'dist') : a)));
        assert.equal(r.code, 2);
        assert.match(r.stderr, want);
        assert.ok(!existsSync(join(tmp, 'dist')));
      });
    }

    it('an --out that is a file, or a non-empty directory that is not a kit build', async () => {
      const file = join(tmp, 'file');
      writeFileSync(file, 'x');
      const r1 = await kit('build', '--ssr', '--out', file, EXAMPLE_SITE);
      assert.equal(r1.code, 2);
      assert.match(r1.stderr, /^kit build: --out .*file exists and is not a directory\n$/);
      const dir = join(tmp, 'mine');
      mkdirSync(dir);
      writeFileSync(join(dir, 'notes.txt'), 'keep me');
      const r2 = await kit('build', '--ssr', '--out', dir, EXAMPLE_SITE);
      assert.equal(r2.code, 2);
      assert.match(
        r2.stderr,
        /is not empty and holds no kit-assets\.json from an earlier kit build; remove it or choose another directory\n$/,
      );
      assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'keep me');
    });
  });

  it('refuses an --out that holds the sources it would replace', async () => {
    mkdirSync(join(tmp, 'src'));
    writeFileSync(
      join(tmp, 'src', 'p.kit'),
      'package p\n\npage p\nroute "/p"\nguard public\n\nview {\n  <p>p</p>\n}\n',
    );
    const r = await kit('build', '--out', tmp, join(tmp, 'src'));
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^kit build: --out .* contains the source .*p\.kit; choose an output directory outside the sources\n$/,
    );
    assert.ok(existsSync(join(tmp, 'src', 'p.kit')));
  });

  it('prints help', async () => {
    const r = await kit('build', '--help');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: kit build \[--ssr\] \[--out <dir>\] \[--app <dir>\] \[--strict-bindings\]/);
  });
});
