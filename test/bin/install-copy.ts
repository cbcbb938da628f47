// A copy of the installed `kit` command in a temporary directory: its own bin/ and out/bundle/ (so
// its code cache, written beside the bundle, is its own), the rest of the package linked from the
// repository. Tests of the cache break and block it there, not in the repository's build.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/repo.js';

export interface InstallCopy {
  root: string;
  bin: string;
  bundleDir: string;
  /** Where the cache beside the bundle goes. */
  cacheDir: string;
  remove(): void;
}

export function installCopy(): InstallCopy {
  const root = mkdtempSync(join(tmpdir(), 'kit-install-'));
  cpSync(join(repoRoot, 'bin'), join(root, 'bin'), { recursive: true });
  cpSync(join(repoRoot, 'package.json'), join(root, 'package.json'));
  const bundleDir = join(root, 'out', 'bundle');
  mkdirSync(bundleDir, { recursive: true });
  for (const file of ['kit.cjs', 'kit.cjs.map', 'start.cjs', 'start.cjs.map'])
    cpSync(join(repoRoot, 'out', 'bundle', file), join(bundleDir, file));
  for (const dir of ['server', 'shared', 'grammar']) symlinkSync(join(repoRoot, 'out', dir), join(root, 'out', dir));
  for (const dir of ['node_modules', 'templates', 'shared']) symlinkSync(join(repoRoot, dir), join(root, dir));
  return {
    root,
    bin: join(root, 'bin', 'kit.js'),
    bundleDir,
    cacheDir: join(bundleDir, '.cache'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
