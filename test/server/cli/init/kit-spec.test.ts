// How `kit init` tells the way kit was installed, from the npm lock files of trees laid out as npm
// lays them out: a project's, npx's (in npm's cache), a nested one, a global install (no lock), a
// checkout. test/package/init.e2e.test.ts runs the real installs end to end.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { givenKitSpec, installedKitSpec } from '#cli/init/kit-spec.js';

const NAME = '@kit-lang/kit';

describe('kit init: the dependency spec for kit', () => {
  let root: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'kit-spec-')));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** A tree at `tree` with kit at `node_modules/<key>`; its locks hold `entry` (null: no lock). */
  function tree(name: string, key: string, entry: object | null, where: 'hidden' | 'lock' = 'hidden'): string {
    const treeRoot = join(root, name);
    const kit = join(treeRoot, ...key.split('/'));
    mkdirSync(kit, { recursive: true });
    if (entry) {
      const lock = JSON.stringify({ lockfileVersion: 3, packages: { [key]: entry } });
      writeFileSync(
        where === 'hidden' ? join(treeRoot, 'node_modules', '.package-lock.json') : join(treeRoot, 'package-lock.json'),
        lock,
      );
    }
    return kit;
  }

  it('a registry install: ^<version>, whatever the registry, its scope escaped or not', () => {
    for (const [i, resolved] of [
      'https://registry.example.org/@kit-lang/kit/-/kit-1.2.3.tgz',
      'http://127.0.0.1:4873/@kit-lang%2fkit/-/kit-1.2.3.tgz',
    ].entries()) {
      const kit = tree(`registry-${i}`, 'node_modules/@kit-lang/kit', { version: '1.2.3', resolved });
      assert.deepEqual(installedKitSpec(kit, NAME, '1.2.3'), { spec: '^1.2.3', origin: 'registry' });
    }
  });

  it('npx -p <tarball>, or a project that installed the tarball: file: and its absolute path', () => {
    const kit = tree('npx-hash', 'node_modules/@kit-lang/kit', {
      version: '1.2.3',
      resolved: 'file:../../elsewhere/kit-lang-kit-1.2.3.tgz',
    });
    const tarball = join(root, '..', 'elsewhere', 'kit-lang-kit-1.2.3.tgz');
    assert.deepEqual(installedKitSpec(kit, NAME, '1.2.3'), {
      spec: `file:${tarball}`,
      origin: 'tarball',
      path: tarball,
    });
    // Only package-lock.json (npm wrote no hidden lock): read too.
    const locked = tree('project', 'node_modules/@kit-lang/kit', { resolved: 'file:vendor/kit.tgz' }, 'lock');
    assert.equal(installedKitSpec(locked, NAME, '1.2.3').spec, `file:${join(root, 'project', 'vendor', 'kit.tgz')}`);
  });

  it('kit nested under another package: the entry of its whole path in the top tree', () => {
    const kit = tree('nested', 'node_modules/@kit-lang/create/node_modules/@kit-lang/kit', {
      resolved: 'file:kit-lang-kit-1.2.3.tgz',
    });
    assert.equal(installedKitSpec(kit, NAME, '1.2.3').spec, `file:${join(root, 'nested', 'kit-lang-kit-1.2.3.tgz')}`);
  });

  it('a remote tarball or git: what npm resolved, as it is', () => {
    const git = 'git+ssh://git@example.com/kit-lang/kit.git#0123456789abcdef0123456789abcdef01234567';
    const kit = tree('git', 'node_modules/@kit-lang/kit', { resolved: git });
    assert.deepEqual(installedKitSpec(kit, NAME, '1.2.3'), { spec: git, origin: 'resolved' });
    const remote = 'https://example.com/downloads/kit-lang-kit-1.2.3.tgz';
    const other = tree('remote', 'node_modules/@kit-lang/kit', { resolved: remote });
    assert.deepEqual(installedKitSpec(other, NAME, '1.2.3'), { spec: remote, origin: 'resolved' });
  });

  it('no lock says (a global install, another package manager, a broken lock): the registry', () => {
    const kit = tree('global/lib', 'node_modules/@kit-lang/kit', null);
    assert.deepEqual(installedKitSpec(kit, NAME, '1.2.3'), { spec: '^1.2.3', origin: 'unknown' });
    const broken = tree('broken', 'node_modules/@kit-lang/kit', null);
    writeFileSync(join(root, 'broken', 'node_modules', '.package-lock.json'), '{"packages": {');
    assert.equal(installedKitSpec(broken, NAME, '1.2.3').origin, 'unknown');
  });

  it('outside every node_modules (a checkout): file: the directory', () => {
    const kit = join(root, 'checkout');
    mkdirSync(kit);
    assert.deepEqual(installedKitSpec(kit, NAME, '1.2.3'), { spec: `file:${kit}`, origin: 'checkout', path: kit });
  });

  it('--kit: paths made absolute from the working directory, other specs as given, a missing path an error', () => {
    writeFileSync(join(root, 'kit-lang-kit-1.2.3.tgz'), '');
    const abs = `file:${join(root, 'kit-lang-kit-1.2.3.tgz')}`;
    for (const given of ['./kit-lang-kit-1.2.3.tgz', 'kit-lang-kit-1.2.3.tgz', 'file:kit-lang-kit-1.2.3.tgz'])
      assert.equal((givenKitSpec(given, root) as { spec: string }).spec, abs, given);
    for (const given of ['^1.2.3', 'latest', 'https://example.com/kit.tgz', 'github:kit-lang/kit', 'npm:@a/kit@1'])
      assert.deepEqual(givenKitSpec(given, root), { spec: given, origin: 'given' }, given);
    assert.equal(
      givenKitSpec('../gone', root),
      `--kit ../gone: no such file or directory (${join(root, '..', 'gone')})`,
    );
  });
});
