// Tests run from compiled output (out/test/...), so fixture paths are resolved from the repository root,
// found by walking up to the directory that holds kit's package.json.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      const name = (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name;
      if (name === '@kit-lang/kit') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('kit repository root not found above ' + start);
    dir = parent;
  }
}

export const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
export const fixturesDir = join(repoRoot, 'test', 'fixtures');
/** Compiled output directory this test file runs from (out/ in CI, out-<name>/ for helpers' private builds). */
export const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export function fixture(...parts: string[]): string {
  return join(fixturesDir, ...parts);
}
