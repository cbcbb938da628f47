// A package registry on 127.0.0.1 for the install tests, so they run the commands a user types
// (`npx -p <tgz> kit init`, `npm install`, `npm create @kit-lang`) without the network. It serves
// kit's dependencies as kit's own lock file pins them: their metadata from package-lock.json (each
// entry has a version's dependencies, bin, engines, os and cpu, and its integrity), their tarballs
// from npm's cache, where `npm ci` put them by integrity. It serves no `@kit-lang/*` package unless
// told to publish a tarball, so without that, kit can come from its tarballs only.
// The npm commands run with a cache and a user config of their own (`npmEnv`): npx's install tree
// and the registry's metadata go there, not into the user's npm cache. The registry answers from
// this process's event loop: run npm asynchronously (offline-install.ts's `run`), never spawnSync.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/repo.js';

interface LockEntry {
  name?: string;
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  [field: string]: unknown;
}

/** Fields of a lock entry that a registry's version document also has. */
const MANIFEST_FIELDS = [
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'engines',
  'os',
  'cpu',
  'libc',
  'license',
  'deprecated',
  'hasInstallScript',
];

type Tarball = { file: string } | { integrity: string };

export interface LocalRegistry {
  url: string;
  /** The path of every request, in order. */
  requests: string[];
  stop(): Promise<void>;
}

let npmCacheDir: string | undefined;

/** Where npm's cache holds a tarball of this integrity (cacache's content-addressed layout). */
function cachedTarball(integrity: string): string {
  npmCacheDir ??= spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  const [algorithm, digest] = integrity.split(/\s+/)[0].split('-', 2);
  const hex = Buffer.from(digest, 'base64').toString('hex');
  return join(npmCacheDir, '_cacache', 'content-v2', algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
}

function integrityOf(file: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/** Starts the registry; `publish`: package tarballs it serves besides kit's dependencies. */
export async function startLocalRegistry(publish: string[] = []): Promise<LocalRegistry> {
  const packuments = new Map<string, { name: string; versions: Record<string, Record<string, unknown>> }>();
  const tarballs = new Map<string, Tarball>();
  const server: Server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const add = (manifest: Record<string, unknown>, tarball: Tarball, integrity: string): void => {
    const name = manifest.name as string;
    const version = manifest.version as string;
    const path = `/${name}/-/${name.replace(/^@[^/]+\//, '')}-${version}.tgz`;
    tarballs.set(path, tarball);
    const doc = packuments.get(name) ?? { name, versions: {} };
    doc.versions[version] = { ...manifest, name, version, dist: { tarball: url + path, integrity } };
    packuments.set(name, doc);
  };

  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.includes('node_modules/') || entry.link || !entry.version || !entry.integrity) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (name.startsWith('@kit-lang/')) continue;
    const fields = Object.fromEntries(MANIFEST_FIELDS.filter((f) => f in entry).map((f) => [f, entry[f]]));
    add({ name, version: entry.version, ...fields }, { integrity: entry.integrity }, entry.integrity);
  }
  for (const file of publish) {
    const manifest = spawnSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' });
    assert.equal(manifest.status, 0, `${file}: ${manifest.stderr}`);
    add(JSON.parse(manifest.stdout) as Record<string, unknown>, { file }, integrityOf(file));
  }

  const requests: string[] = [];
  server.on('request', (req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    requests.push(path);
    const tarball = tarballs.get(path);
    const file = tarball && ('file' in tarball ? tarball.file : cachedTarball(tarball.integrity));
    if (file && existsSync(file)) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(file));
      return;
    }
    const doc = packuments.get(path.slice(1));
    if (doc) {
      const latest = Object.keys(doc.versions)
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
        .pop();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ...doc, 'dist-tags': { latest } }));
      return;
    }
    // A tarball missing from npm's cache is answered 404 like an unknown package: npm then names it.
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
  });
  return {
    url,
    requests,
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

let home: string | undefined;

/**
 * The environment for npm, npx and the scripts they run, against `registry`: an npm cache and an
 * empty user config of their own (one per test run, removed at exit), no audit, fund or update
 * notices.
 */
export function npmEnv(registry: LocalRegistry): NodeJS.ProcessEnv {
  if (!home) {
    const dir = mkdtempSync(join(tmpdir(), 'kit-npm-'));
    home = dir;
    writeFileSync(join(dir, 'npmrc'), '');
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return {
    ...env,
    npm_config_registry: `${registry.url}/`,
    npm_config_cache: join(home, 'cache'),
    npm_config_userconfig: join(home, 'npmrc'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
  };
}
