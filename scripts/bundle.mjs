#!/usr/bin/env node
// Bundles the `kit` command line into `out/bundle/`: `kit.cjs`, the whole CLI in one CommonJS file,
// and `start.cjs`, the few functions bin/kit.js requires to run it through V8's code cache
// (cli/start.ts; Node 20 caches compiled code for CommonJS only, and compiling is most of what
// starting costs). Lazily loaded parts (each command, the language server, the TypeScript binder,
// the app builder, `kit dev`) stay lazy inside the file: esbuild turns each `import()` of a bundled
// module into a function that initialises it on first use, so `kit --version` runs no grammar code.
// Linked source maps (`KIT_DEBUG=1` turns them on for stack traces). Packages that resolve files of
// their own at run time (TypeScript, esbuild, postject, playwright-core) stay external, found in
// node_modules as before; the compiled `out/` tree stays beside the bundle (the package's exports,
// the generated apps' runtime copied from there). The runtime `kit dev` serves with is the bundle's
// own, and so is the one the user's handlers import there (`cli/dev/handler-loader.ts`).
// Usage: node scripts/bundle.mjs   (after `tsc -b`; `npm run build` runs both)
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledChevrotain, unbundledModuleUrls } from './esbuild-plugins.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bundleDir = join(root, 'out', 'bundle');

/**
 * What `process.env.KIT_BUILD_ID` is bundled as, then replaced by as many hex digits of the bundle's
 * own hash (the same length, so the source map stays right): `kit build`'s cache keys on it, so a
 * rebuilt kit of the same version never takes another's output for its own (cli/build/identity.ts).
 */
const BUILD_ID_PLACEHOLDER = 'kit-build-id-000000000000000000000';

function stampBuildId(file) {
  const text = readFileSync(file, 'utf8');
  const id = createHash('sha256').update(text).digest('hex').slice(0, BUILD_ID_PLACEHOLDER.length);
  if (text.split(BUILD_ID_PLACEHOLDER).length !== 2) throw new Error(`${file}: the build ID is not there once`);
  writeFileSync(file, text.replace(BUILD_ID_PLACEHOLDER, id));
}

/** Writes `out/bundle/kit.cjs`, `out/bundle/start.cjs`, `out/bundle/parse-worker.cjs` and their source maps. */
export async function bundleCli(outdir = bundleDir) {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  rmSync(outdir, { recursive: true, force: true });
  const options = {
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Positions only: Node maps stack traces without the sources' text, which would double the size.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    legalComments: 'none',
    // kit's own `#grammar/*`, `#core/*`... imports (package.json `imports`) resolve to the TypeScript
    // sources, the files this bundle is made of, rather than to their compiled copies under out/.
    conditions: ['kit-source'],
    // Less for V8 to parse at every start; names stay (stack traces, `constructor.name`).
    minifyWhitespace: true,
    minifySyntax: true,
  };
  await Promise.all([
    build({
      ...options,
      entryPoints: { kit: join(root, 'server', 'src', 'cli', 'main.ts') },
      define: {
        'process.env.KIT_VERSION': JSON.stringify(version),
        'process.env.KIT_BUILD_ID': JSON.stringify(BUILD_ID_PLACEHOLDER),
        // Where the `parse-worker` bundle is, relative to core/project/parse-pool.ts's `import.meta.url`
        // (which names its unbundled module): loading threads run one file, not a few hundred modules.
        KIT_BUNDLED_PARSE_WORKER: JSON.stringify(
          relative(join(root, 'out', 'server', 'src', 'core', 'project'), join(outdir, 'parse-worker.cjs'))
            .split(sep)
            .join('/'),
        ),
      },
      // `__kit_import` is the loader's (see `unbundledModuleUrls`); Node's own loader (KIT_DEBUG) has
      // none, and there `import()` works.
      banner: { js: '"use strict";var __kit_import = __kit_import || ((specifier) => import(specifier));' },
      // The language server's packages (a third of the bundle's size, read at every start) are
      // required from node_modules by `kit lsp` alone.
      external: [
        'typescript',
        'esbuild',
        'postject',
        'playwright-core',
        'vscode-languageserver',
        'vscode-languageserver-textdocument',
        'vscode-uri',
      ],
      plugins: [bundledChevrotain, unbundledModuleUrls(root, outdir, 'cjs')],
    }),
    // Loaded by Node itself: its `import()` is the one the bundle's `__kit_import` calls.
    build({
      ...options,
      entryPoints: { start: join(root, 'server', 'src', 'cli', 'start.ts') },
      define: { 'process.env.KIT_VERSION': JSON.stringify(version) },
    }),
    // The loading threads of core/project/parse-pool.ts (a worker runs it as its own program).
    build({
      ...options,
      entryPoints: { 'parse-worker': join(root, 'server', 'src', 'core', 'project', 'parse-worker.ts') },
      plugins: [bundledChevrotain, unbundledModuleUrls(root, outdir, 'cjs')],
    }),
  ]);
  stampBuildId(join(outdir, 'kit.cjs'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t = Date.now();
  await bundleCli();
  console.log(`bundled the kit CLI into out/bundle in ${Date.now() - t} ms`);
}
