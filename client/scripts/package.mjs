#!/usr/bin/env node
// Builds the `.vsix` in a private staging directory (so concurrent builds never share files): the
// manifest, readme and its images, changelog, licence, icon and .vscodeignore are copied there, the
// bundles are written to its dist/, and @vscode/vsce 3 packages it with --no-dependencies
// (everything the extension needs is bundled).
// Usage: node client/scripts/package.mjs [--out <file>]   (default: kit.vsix in the repository root)
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundle, clientDir } from './build.mjs';

const root = join(clientDir, '..');
const i = process.argv.indexOf('--out');
const out = resolve(i > 0 && process.argv[i + 1] ? process.argv[i + 1] : join(root, 'kit.vsix'));

const stage = mkdtempSync(join(tmpdir(), 'kit-vsix-stage-'));
try {
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'icon.png', '.vscodeignore'])
    copyFileSync(join(clientDir, f), join(stage, f));
  cpSync(join(clientDir, 'images'), join(stage, 'images'), { recursive: true });
  await bundle(join(stage, 'dist'), { minify: true });
  const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const bin = existsSync(vsce) ? vsce : join(root, 'node_modules', '.bin', 'vsce');
  // vsce points the readme's relative links at the repository's root; the readme lives in client/.
  const { repository } = JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8'));
  const base = `${repository.url}/%s/HEAD/${repository.directory}`;
  const r = spawnSync(
    process.execPath,
    [
      bin,
      'package',
      '--no-dependencies',
      '--baseContentUrl',
      base.replace('%s', 'blob'),
      '--baseImagesUrl',
      base.replace('%s', 'raw'),
      '--out',
      out,
    ],
    { cwd: stage, stdio: 'inherit' },
  );
  if (r.status !== 0) process.exit(r.status ?? 1);
  console.log(`packaged ${out}`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
