// The release artifacts as `npm run pack` writes them (scripts/pack.mjs, which the npm script runs
// after the build the test run has just done), made ONCE per test run into a temporary directory
// and shared by every test that installs kit or reads the .vsix: packing is among the slowest steps.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './repo.js';

export interface Release {
  dir: string;
  version: string;
  /** `kit-lang-kit-<version>.tgz` */
  kit: string;
  /** `kit-lang-create-<version>.tgz` */
  create: string;
  /** `kit-vscode-<version>.vsix` */
  vsix: string;
  /** What the pack script printed (the artifacts' paths, one a line). */
  stdout: string;
}

let made: Promise<Release> | undefined;

export function release(): Promise<Release> {
  made ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-release-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(repoRoot, 'scripts', 'pack.mjs'), '--out', dir],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    return {
      dir,
      version,
      kit: join(dir, `kit-lang-kit-${version}.tgz`),
      create: join(dir, `kit-lang-create-${version}.tgz`),
      vsix: join(dir, `kit-vscode-${version}.vsix`),
      stdout,
    };
  })();
  return made;
}
