#!/usr/bin/env node
// Bundles the `kit` command line into `out/bundle/`: `kit.js` (what bin/kit.js runs) with the code
// every command needs, and one chunk per lazily loaded part (each command, the language server, the
// TypeScript binder, the app builder, `kit dev`), so `kit --version` and `kit check` load one or two
// files instead of a few hundred modules. ES modules with linked source maps (`KIT_DEBUG=1` turns
// them on for stack traces). Packages that resolve files of their own at run time (TypeScript,
// esbuild, postject, playwright-core) stay external, found in node_modules as before; the compiled
// `out/` tree stays beside the bundle (the package's exports, the generated apps' runtime, which
// the bundle imports from there: see `sharedRuntimeExternal`).
// Usage: node scripts/bundle.mjs   (after `tsc -b`; `npm run build` runs both)
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledChevrotain, sharedRuntimeExternal, unbundledModuleUrls } from './esbuild-plugins.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bundleDir = join(root, 'out', 'bundle');

/** Writes `out/bundle/kit.js`, its chunks and their source maps. */
export async function bundleCli(outdir = bundleDir) {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: {
      kit: join(root, 'server', 'src', 'cli', 'main.ts'),
      // The loading threads of core/project/parse-pool.ts (see `define`).
      'parse-worker': join(root, 'server', 'src', 'core', 'project', 'parse-worker.ts'),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Positions only: Node maps stack traces without the sources' text, which would double the size.
    sourcemap: 'linked',
    sourcesContent: false,
    // Bundled CommonJS packages (the language server's) `require` Node's own modules, which an ES
    // module has no `require` for; `createRequire` in every chunk would cost start-up time.
    banner: { js: 'const require = (id) => process.getBuiltinModule(id);' },
    define: {
      'process.env.KIT_VERSION': JSON.stringify(version),
      // Where the `parse-worker` entry is, relative to core/project/parse-pool.ts's `import.meta.url`
      // (which names its unbundled module): the loading threads run this bundle, not a few hundred modules.
      'process.env.KIT_BUNDLED_PARSE_WORKER': JSON.stringify(
        relative(join(root, 'out', 'server', 'src', 'core', 'project'), join(outdir, 'parse-worker.js'))
          .split(sep)
          .join('/'),
      ),
    },
    external: ['typescript', 'esbuild', 'postject', 'playwright-core'],
    plugins: [bundledChevrotain, sharedRuntimeExternal(root, outdir), unbundledModuleUrls(root, outdir)],
    logLevel: 'warning',
    legalComments: 'none',
    // Less for V8 to parse at every start; names stay (stack traces, `constructor.name`).
    minifyWhitespace: true,
    minifySyntax: true,
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t = Date.now();
  await bundleCli();
  console.log(`bundled the kit CLI into out/bundle in ${Date.now() - t} ms`);
}
