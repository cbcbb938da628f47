// kit as somebody else's project gets it: `npm pack`, installed into a fresh project without the
// network (from npm's cache, which `npm ci` filled), then the installed `kit` checks and builds a
// site and the generated server answers. Also the package's size budget: at most 5 MB packed and
// 42 MB installed with its dependencies (40 MB before the bundled CLI: out/bundle adds its 0.7 MB of
// code, which repeats the compiled modules the package exports, and 0.7 MB of source maps).
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/repo.js';
import { installOffline, packKit, run, startBuiltApp } from './offline-install.js';

const MB = 1024 * 1024;

function sizeOf(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  let total = 0;
  for (const name of readdirSync(path)) total += sizeOf(join(path, name));
  return total;
}

describe('package: npm pack, offline install, kit from node_modules', function () {
  this.timeout(120_000);
  let work: string;
  let project: string;
  let tarball: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'kit-pack-'));
    tarball = packKit(work);
    project = join(work, 'project');
    cpSync(join(repoRoot, 'examples', 'site'), join(project, 'site'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "name": "my-site", "private": true, "type": "module" }\n');
    installOffline(project, tarball);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('ships the bundle, the compiled output, schemas and browser scripts, and no tests, fixtures or benches', () => {
    const files = JSON.parse(run('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], repoRoot).stdout) as {
      files: { path: string }[];
    }[];
    const paths = files[0].files.map((f) => f.path);
    for (const p of [
      'bin/kit.js',
      'bin/package.json',
      'out/bundle/kit.cjs',
      'out/bundle/kit.cjs.map',
      'out/bundle/start.cjs',
      'out/server/src/cli/main.js',
      'out/shared/app/index.js',
      'out/shared/app/index.d.ts',
      'schemas/routes.schema.json',
      'shared/client/kit-nav.js',
      'README.md',
      'LICENSE',
    ])
      assert.ok(paths.includes(p), `${p} is in the package`);
    // Source maps ship for the bundle only (its stack traces under KIT_DEBUG); the compiled tree's
    // maps would point at sources the package does not hold.
    // The code cache kit writes beside the bundle is this machine's.
    const stray = paths.filter(
      (p) =>
        /(^|\/)(test|bench|fixtures)\//.test(p) ||
        (p.endsWith('.map') && !p.startsWith('out/bundle/')) ||
        p.endsWith('.v8'),
    );
    assert.deepEqual(stray, []);
  });

  it('stays within 5 MB packed and 42 MB installed', () => {
    const packed = statSync(tarball).size;
    const installed = sizeOf(join(project, 'node_modules'));
    console.log(
      `      package: ${(packed / MB).toFixed(2)} MB packed, ${(installed / MB).toFixed(1)} MB installed with dependencies`,
    );
    assert.ok(packed <= 5 * MB, `packed ${packed} bytes`);
    assert.ok(installed <= 42 * MB, `installed ${installed} bytes`);
  });

  it('runs kit --version, kit check and kit build --app from node_modules, and the app answers', async () => {
    const kit = join(project, 'node_modules', '.bin', 'kit');
    const version = run(kit, ['--version'], project);
    assert.equal(version.status, 0, version.stderr);
    assert.match(version.stdout, /^kit \d+\.\d+\.\d+/);
    const check = run(kit, ['check', '--ssr', 'site'], project);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /checked/);
    const cache = join(project, 'node_modules', '@kit-lang', 'kit', 'out', 'bundle', '.cache');
    assert.equal(readdirSync(cache).filter((f) => f.endsWith('.v8')).length, 1, 'the code cache beside the bundle');
    const build = run(kit, ['build', '--ssr', '--out', 'dist/site', '--app', 'dist/app', 'site'], project);
    assert.equal(build.status, 0, build.stdout + build.stderr);
    const app = await startBuiltApp(project);
    try {
      const res = await fetch(`${app.url}/`);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /<html/);
    } finally {
      await app.stop();
    }
  });
});
