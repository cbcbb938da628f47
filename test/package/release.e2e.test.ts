// The release as `npm run pack` writes it: the kit and create tarballs and the .vsix, named with
// the version; the kit tarball's package.json without development scripts or devDependencies; its
// files (the bundle, the compiled output, schemas, browser scripts; no tests, fixtures or benches).
// Installing it is test/package/init.e2e.test.ts's (from the tarball, as a newcomer does); the .vsix's
// contents are test/client/extension.e2e.test.ts's.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type Release, release } from '../helpers/release.js';
import { repoRoot } from '../helpers/repo.js';

const MB = 1024 * 1024;

/** A file of a package tarball. */
function fromTarball(tarball: string, path: string): string {
  const r = spawnSync('tar', ['-xzOf', tarball, `package/${path}`], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${basename(tarball)}: ${path}: ${r.stderr}`);
  return r.stdout;
}

describe('package: npm run pack', function () {
  this.timeout(240_000);
  let rel: Release;
  before(async () => {
    rel = await release();
  });

  it('writes the kit and create tarballs and the .vsix, named with the version', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    assert.equal(pkg.scripts.pack, 'npm run build && node scripts/pack.mjs', 'the tests run what npm run pack runs');
    const v = rel.version;
    assert.deepEqual(
      rel.stdout
        .trim()
        .split('\n')
        .map((p) => basename(p)),
      [`kit-lang-kit-${v}.tgz`, `kit-lang-create-${v}.tgz`, `kit-vscode-${v}.vsix`],
    );
    for (const f of [rel.kit, rel.create, rel.vsix]) assert.ok(existsSync(f), f);
    const create = JSON.parse(fromTarball(rel.create, 'package.json'));
    assert.equal(create.version, v);
    assert.deepEqual(create.bin, { 'create-kit-lang': 'index.js' });
    assert.ok(readFileSync(join(repoRoot, '.gitignore'), 'utf8').split('\n').includes('/release/'));
  });

  it('ships a package.json without development scripts, devDependencies or overrides', () => {
    const shipped = JSON.parse(fromTarball(rel.kit, 'package.json'));
    const repo = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    assert.equal(shipped.scripts, undefined, 'no scripts: an installed kit runs none');
    assert.equal(shipped.devDependencies, undefined);
    assert.equal(shipped.overrides, undefined);
    for (const field of ['name', 'version', 'bin', 'exports', 'types', 'dependencies', 'peerDependencies', 'engines'])
      assert.deepEqual(shipped[field], repo[field], field);
    assert.ok(repo.scripts.prepare, 'the checkout keeps its own scripts (npm ci there builds)');
  });

  it("ships its own #imports resolved to compiled files it holds, without the sources' condition", () => {
    const shipped = JSON.parse(fromTarball(rel.kit, 'package.json')).imports as Record<string, string>;
    const repo = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).imports as Record<
      string,
      { default: string }
    >;
    const expected = Object.entries(repo).filter(([key]) => key !== '#test/*');
    assert.deepEqual(shipped, Object.fromEntries(expected.map(([key, t]) => [key, t.default])));
    const listed = spawnSync('tar', ['-tzf', rel.kit], { encoding: 'utf8' }).stdout.split('\n');
    for (const target of Object.values(shipped)) {
      const dir = `package/${target.replace(/^\.\//, '').replace(/\*$/, '')}`;
      assert.ok(
        listed.some((p) => p.startsWith(dir) && p.endsWith('.js')),
        `${target} ships`,
      );
    }
  });

  it('ships the bundle, the compiled output, schemas and browser scripts, and no tests, fixtures or benches', () => {
    const listed = spawnSync('tar', ['-tvzf', rel.kit], { encoding: 'utf8' });
    assert.equal(listed.status, 0, listed.stderr);
    const lines = listed.stdout.trim().split('\n');
    const paths = lines.map((l) => l.slice(l.indexOf('package/') + 'package/'.length));
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
      'templates/starter/package.json',
      'README.md',
      'LICENSE',
    ])
      assert.ok(paths.includes(p), `${p} is in the package`);
    assert.match(lines[paths.indexOf('bin/kit.js')], /^-rwxr-xr-x /, 'the command is executable');
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

  it('stays within 5 MB packed', () => {
    const packed = statSync(rel.kit).size;
    console.log(`      package: ${(packed / MB).toFixed(2)} MB packed`);
    assert.ok(packed <= 5 * MB, `packed ${packed} bytes`);
  });
});
