// Installing kit's packed tarball into a project without the network. `npm install --offline`
// would need the registry's metadata, which `npm ci` never caches; a lock file does not: it names
// every package with its integrity, and npm takes those from its cache. The project's lock is
// kit's own lock, without the development packages, plus the tarball.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { repoRoot } from '../helpers/repo.js';
import { attach, type RunningApp } from '../server/core/app/built-app.js';

export function run(
  cmd: string,
  args: string[],
  cwd: string,
): { stdout: string; stderr: string; status: number | null } {
  const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' };
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** Packs kit into `dir` (without compiling again: the test run just did) and returns the tarball's path. */
export function packKit(dir: string): string {
  const packed = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], repoRoot);
  assert.equal(packed.status, 0, packed.stderr);
  return join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0].filename);
}

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  link?: boolean;
  [k: string]: unknown;
}

/**
 * Installs the tarball into `project` (whose package.json is read and completed with the
 * dependency) with `npm ci --offline`. `extra`: more of kit's locked packages the project needs
 * (its development packages, e.g. `postject`), by name.
 */
export function installOffline(project: string, tarball: string, devDependencies: Record<string, string> = {}): void {
  const name = basename(tarball);
  copyFileSync(tarball, join(project, name));
  const kitPkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
  const pkgPath = join(project, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as Record<string, Record<string, string> | string>;
  const dependencies = { ...(pkg.dependencies as Record<string, string>), '@kit-lang/kit': `file:${name}` };
  pkg.dependencies = dependencies;
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  const repoLock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  const packages: Record<string, unknown> = {
    '': { name: pkg.name, dependencies, devDependencies },
    'node_modules/@kit-lang/kit': {
      version: kitPkg.version,
      resolved: `file:${name}`,
      integrity,
      license: kitPkg.license,
      dependencies: kitPkg.dependencies,
      peerDependencies: kitPkg.peerDependencies,
      peerDependenciesMeta: kitPkg.peerDependenciesMeta,
      bin: kitPkg.bin,
      engines: kitPkg.engines,
    },
  };
  for (const [path, entry] of Object.entries(repoLock.packages)) {
    if (!path.startsWith('node_modules/') || entry.link) continue;
    const wanted = Object.keys(devDependencies).some((d) => path === `node_modules/${d}`);
    if ((entry.dev || entry.devOptional) && !wanted) continue;
    const { dev: _dev, devOptional: _devOptional, ...rest } = entry;
    packages[path] = wanted ? { ...rest, dev: true } : rest;
  }
  writeFileSync(
    join(project, 'package-lock.json'),
    `${JSON.stringify({ name: pkg.name, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
  const installed = run('npm', ['ci', '--offline', '--no-audit', '--ignore-scripts'], project);
  assert.equal(installed.status, 0, `offline install failed:\n${installed.stderr}`);
}

/** Starts the app a project built into `dist/app`, on a free loopback port. */
export function startBuiltApp(project: string): Promise<RunningApp> {
  return attach(
    spawn(process.execPath, [join(project, 'dist', 'app', 'server.js'), '--addr', '127.0.0.1:0'], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: 'x'.repeat(32) },
    }),
  );
}
