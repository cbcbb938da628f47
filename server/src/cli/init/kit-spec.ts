// The dependency spec `kit init` writes for `@kit-lang/kit`: the way the running kit was installed,
// so `npm install` in the new site gets the same kit wherever it came from. npm (7 and later) records
// every package of a tree in the tree's hidden lock file, `node_modules/.package-lock.json` (and in
// `package-lock.json` beside it), keyed by the package's path in the tree, with where it came from
// (`resolved`): the registry's tarball URL, or `file:` and the tarball's path relative to the tree's
// root. `npx -p ./kit-lang-kit-<v>.tgz kit` installs into such a tree too (in npm's cache, `_npx/`),
// so its lock names the tarball. npm writes no lock for a global install, and other package
// managers keep theirs elsewhere: then kit cannot tell, and assumes the registry.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export type KitOrigin =
  /** The registry: `^<version>`. */
  | 'registry'
  /** A tarball on this machine: `file:` and its absolute path. */
  | 'tarball'
  /** Anything else npm resolved (a remote tarball, git, a copied directory): what npm recorded. */
  | 'resolved'
  /** Not inside any node_modules: a checkout (or a linked one), depended on by its directory. */
  | 'checkout'
  /** Inside node_modules with no npm lock entry (a global install, another package manager). */
  | 'unknown'
  /** `--kit <spec>`. */
  | 'given';

export interface KitSpec {
  spec: string;
  origin: KitOrigin;
  /** The tarball or directory a `file:` spec names. */
  path?: string;
}

/** The root of the running kit's package, found from this module's place (`out/server/src/cli/init/`). */
export function kitPackageRoot(): string {
  return realpathSync(fileURLToPath(new URL('../../../../../', import.meta.url)));
}

interface LockEntry {
  resolved?: string;
  link?: boolean;
}

function lockEntry(lockFile: string, key: string): LockEntry | undefined {
  if (!existsSync(lockFile)) return undefined;
  try {
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages?: Record<string, LockEntry> };
    return lock.packages?.[key];
  } catch {
    // A lock file npm is halfway through writing, or hand-edited: as if there were none.
    return undefined;
  }
}

/** The spec for an entry npm resolved from `resolved`, relative to the tree's root `treeRoot`. */
function fromResolved(resolved: string, treeRoot: string, name: string, version: string): KitSpec {
  if (resolved.startsWith('file:')) {
    const path = resolve(treeRoot, resolved.slice('file:'.length));
    return { spec: `file:${path}`, origin: /\.(tgz|tar\.gz|tar)$/.test(path) ? 'tarball' : 'resolved', path };
  }
  // A registry's tarball URL ends in `<name>/-/<unscoped name>-<version>.tgz`, the scope's slash escaped
  // or not, whichever registry it is.
  const unscoped = name.replace(/^@[^/]+\//, '');
  const tail = `/-/${unscoped}-${version}.tgz`;
  if (/^https?:/.test(resolved)) {
    const path = decodeURIComponent(new URL(resolved).pathname);
    if (path.endsWith(`/${name}${tail}`)) return { spec: `^${version}`, origin: 'registry' };
  }
  return { spec: resolved, origin: 'resolved' };
}

/** How the kit package at `kitRoot` (named `name`, at `version`) was installed: the spec a new site should use. */
export function installedKitSpec(kitRoot: string, name: string, version: string): KitSpec {
  let inNodeModules = false;
  for (let dir = kitRoot; dirname(dir) !== dir; dir = dirname(dir)) {
    const parent = dirname(dir);
    if (basename(parent) !== 'node_modules') continue;
    inNodeModules = true;
    const treeRoot = dirname(parent);
    const key = relative(treeRoot, kitRoot).split(sep).join('/');
    for (const lock of [join(parent, '.package-lock.json'), join(treeRoot, 'package-lock.json')]) {
      const entry = lockEntry(lock, key);
      if (entry?.resolved) return fromResolved(entry.resolved, treeRoot, name, version);
    }
  }
  return inNodeModules
    ? { spec: `^${version}`, origin: 'unknown' }
    : { spec: `file:${kitRoot}`, origin: 'checkout', path: kitRoot };
}

/**
 * `--kit <spec>` as the user gave it: a path (`./kit.tgz`, `../kit`, `file:...`) is made absolute
 * from `cwd`, since the site's package.json is read from another directory; anything else (a
 * version, a range, a tag, a URL, a git spec) is written as given. Answers an error message for a
 * path that does not exist.
 */
export function givenKitSpec(given: string, cwd: string): KitSpec | string {
  const isFile = given.startsWith('file:');
  // `https:`, `git+ssh:`, `github:`, `npm:`...; a one-letter "scheme" is a Windows drive.
  if (!isFile && /^[a-z][a-z0-9+.-]+:/i.test(given)) return { spec: given, origin: 'given' };
  const local = isFile ? given.slice('file:'.length) : given;
  const isPath = isFile || isAbsolute(local) || /^\.\.?([/\\]|$)/.test(local) || /\.(tgz|tar\.gz)$/.test(local);
  if (!isPath) return { spec: given, origin: 'given' };
  const path = resolve(cwd, local);
  if (!existsSync(path)) return `--kit ${given}: no such file or directory (${path})`;
  return { spec: `file:${path}`, origin: 'given', path };
}
