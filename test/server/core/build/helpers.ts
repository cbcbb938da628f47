// Compiles fixture sites in-process for the build tests.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { loadProject } from '#core/project/load.js';
import { compileSite, type CompiledSite } from '#core/build/index.js';
import type { Workspace } from '#core/workspace/workspace.js';
import { fixture, repoRoot } from '#test/helpers/repo.js';

/** A build fixture directory (`test/fixtures/build/<name>`), as a repository-relative path. */
export function buildFixture(name: string): string {
  return relative(repoRoot, fixture('build', name)).split(sep).join('/');
}

export const EXAMPLE_SITE = 'examples/site';

/** Loads repository-relative inputs with SSR enabled; a fixture with errors fails the test. */
export function loadFixture(...inputs: string[]): Workspace {
  const { workspace } = loadProject(inputs, { ssr: true }, repoRoot);
  const errors = workspace.allDiagnostics().filter((d) => d.severity === 'error');
  if (errors.length)
    throw new Error(`fixture has errors: ${errors.map((e) => `${e.file}: ${e.code}: ${e.message}`).join('; ')}`);
  return workspace;
}

export function compileFixture(...inputs: string[]): CompiledSite {
  return compileSite(loadFixture(...inputs), { cwd: repoRoot });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `kit-build-${prefix}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Every file under `dir`, as sorted `/`-separated relative paths. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

export function readTree(dir: string): Map<string, string> {
  return new Map(listFiles(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}
