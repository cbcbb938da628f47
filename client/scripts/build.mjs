#!/usr/bin/env node
// Bundles the VS Code extension: the client (`dist/extension.js`, `vscode` left external) and the
// language server with everything it needs, TypeScript's compiler included (`dist/server.js`, and
// `dist/read-ahead-worker.js` for its file-reading thread, `dist/bind-worker.js` for the thread that
// binds handlers while a large folder is indexed, `dist/parse-worker.js` for the loading threads of
// `KIT_WORKERS`), all CommonJS for VS Code's Node;
// copies the TextMate grammar and language configuration into `dist/syntaxes/`.
// Usage: node client/scripts/build.mjs [--minify]  (writes client/dist)
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledChevrotain, bundledTypeScript } from '../../scripts/esbuild-plugins.mjs';

export const clientDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(clientDir, '..');

/** Writes the bundles and the grammar files into `dist`. */
export async function bundle(dist = join(clientDir, 'dist'), { minify = false } = {}) {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(join(dist, 'syntaxes'), { recursive: true });
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    sourcemap: false,
    minify,
    logLevel: 'warning',
    legalComments: 'none',
    // kit's `#grammar/*`, `#core/*`... imports resolve to the sources (package.json `imports`).
    conditions: ['kit-source'],
  };
  await build({
    ...common,
    entryPoints: [join(clientDir, 'src', 'extension.ts')],
    outfile: join(dist, 'extension.js'),
    external: ['vscode'],
  });
  // ES module sources read `import.meta.url`; in a CommonJS bundle it is the bundle's own URL.
  const esmInCjs = {
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  };
  /** A program of the server's (`server/src/<source>`) bundled as `dist/<name>.js`. */
  const program = (source, name, options = {}) =>
    build({
      ...common,
      ...esmInCjs,
      entryPoints: [join(root, 'server', 'src', ...source.split('/'))],
      outfile: join(dist, `${name}.js`),
      ...options,
    });
  await program('cli/lsp-bundle-entry.ts', 'server', {
    define: { ...esmInCjs.define, 'process.env.KIT_VERSION': JSON.stringify(version) },
    plugins: [bundledTypeScript, bundledChevrotain],
  });
  // The threads the server starts from the files beside its own: the one that reads files ahead
  // while it indexes (core/project/read-ahead.ts); the one that binds handler modules while it
  // indexes a large folder (core/bind/bind-host.ts), with a TypeScript compiler of its own; the
  // loading threads that parse a folder's `.kit` files with `KIT_WORKERS` (core/project/parse-pool.ts).
  await program('core/project/read-ahead-worker.ts', 'read-ahead-worker');
  await program('core/bind/bind-worker.ts', 'bind-worker', { plugins: [bundledTypeScript, bundledChevrotain] });
  await program('core/project/parse-worker.ts', 'parse-worker', { plugins: [bundledChevrotain] });
  for (const f of ['kit.tmLanguage.json', 'language-configuration.json'])
    copyFileSync(join(root, 'syntaxes', f), join(dist, 'syntaxes', f));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await bundle(undefined, { minify: process.argv.includes('--minify') });
  console.log(`bundled into ${join(clientDir, 'dist')}`);
}
