// esbuild plugins shared by kit's bundles: the CLI (scripts/bundle.mjs) and the VS Code extension's
// language server (client/scripts/build.mjs), both CommonJS. Each rewrites a source module
// whose loading trick a bundler cannot follow; the unbundled `tsc` output keeps the original.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';

/**
 * The core loads the TypeScript compiler lazily with `createRequire(...)('typescript')` (through V8's
 * code cache, core/bind/ts.ts), which a bundler cannot follow. In a bundle that carries TypeScript
 * inside it the loader becomes a plain `require`, which esbuild bundles and still initialises only on
 * first use. (The CLI bundle leaves TypeScript external and keeps the original loader.)
 */
export const bundledTypeScript = {
  name: 'bundled-typescript',
  setup(b) {
    b.onLoad({ filter: /[\\/]core[\\/]bind[\\/]ts\.ts$/ }, () => ({
      contents: "export function typescript() { return require('typescript'); }\n",
      loader: 'ts',
    }));
  },
};

/**
 * The grammar loads Chevrotain's pre-built module with a top-level `await` (grammar/src/common/chevrotain.ts),
 * which a bundler cannot follow (a computed URL) and a CommonJS bundle cannot hold. In a bundle the
 * module re-exports the same names from the package's minified pre-built module (same version, same
 * code, less than half the bytes to parse at start-up than bundling its sources), or from its entry
 * point when that file is missing.
 */
export const bundledChevrotain = {
  name: 'bundled-chevrotain',
  setup(b) {
    b.onLoad({ filter: /[\\/]grammar[\\/]src[\\/]common[\\/]chevrotain\.ts$/ }, (args) => {
      const names = /export const \{([^}]*)\} = await load\(\);/.exec(readFileSync(args.path, 'utf8'))?.[1];
      if (!names) throw new Error(`${args.path}: the export line the bundler rewrites was not found`);
      const prebuilt = join(dirname(createRequire(args.path).resolve('chevrotain')), '..', 'chevrotain.min.mjs');
      const from = existsSync(prebuilt) ? prebuilt : 'chevrotain';
      return { contents: `export {${names}} from ${JSON.stringify(from)};\n`, loader: 'ts' };
    });
  },
};

/**
 * Modules find files relative to `import.meta.url` (the starter templates, the app runtime under
 * `out/shared/`, the read-ahead worker, the TypeScript package). In a bundle written to `outdir` each
 * source module keeps the URL its `tsc` output has (`out/<path>.js`, which ships beside the bundle),
 * so those look-ups find what they found before. Only the expression is replaced, found with
 * TypeScript's parser: the same words inside a string (generated code) stay as they are.
 *
 * A CommonJS bundle (`format` 'cjs', run through V8's code cache by server/src/core/bind/code-cache.ts)
 * has no `import.meta`: its own location is `__filename`. And code compiled by `vm.Script` cannot
 * call `import()` in Node 20 without its experimental module API, so the `import()`s esbuild leaves
 * in place (of packages and of computed URLs: the user's handler modules) call `__kit_import`, which
 * the loader passes in, instead; the `import()`s of bundled modules (relative, or kit's own `#core/...`
 * package imports, which resolve into the bundle) esbuild turns into functions. Left to
 * `__kit_import`, a `#` specifier would load the unbundled ES module copy under out/ beside the
 * bundle: the same code twice, and hundreds of modules compiled at every start.
 */
export function unbundledModuleUrls(root, outdir, format = 'esm') {
  const base = format === 'cjs' ? 'require("node:url").pathToFileURL(__filename)' : 'import.meta.url';
  const ts = createRequire(import.meta.url)('typescript');
  const isImportMetaUrl = (node) =>
    ts.isPropertyAccessExpression(node) &&
    ts.isMetaProperty(node.expression) &&
    node.expression.keywordToken === ts.SyntaxKind.ImportKeyword &&
    node.name.text === 'url';
  const isUnbundledImport = (node) =>
    format === 'cjs' &&
    ts.isCallExpression(node) &&
    node.expression.kind === ts.SyntaxKind.ImportKeyword &&
    !(ts.isStringLiteral(node.arguments[0]) && /^[.#]/.test(node.arguments[0].text));
  return {
    name: 'unbundled-module-urls',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const rel = relative(root, args.path);
        const text = readFileSync(args.path, 'utf8');
        const rewrites = text.includes('import.meta.url') || (format === 'cjs' && text.includes('import('));
        if (rel.startsWith('..') || rel.split(sep).includes('node_modules') || !rewrites) return undefined;
        const compiled = relative(outdir, join(root, 'out', rel.replace(/\.ts$/, '.js')))
          .split(sep)
          .join('/');
        const url = `new URL(${JSON.stringify(compiled)}, ${base}).href`;
        const edits = [];
        const visit = (node) => {
          if (isImportMetaUrl(node)) edits.push([node.getStart(file), node.getEnd(), url]);
          else {
            if (isUnbundledImport(node))
              edits.push([node.expression.getStart(file), node.expression.getEnd(), '__kit_import']);
            ts.forEachChild(node, visit);
          }
        };
        const file = ts.createSourceFile(args.path, text, ts.ScriptTarget.Latest, true);
        visit(file);
        let contents = text;
        for (const [start, end, by] of edits.sort((x, y) => y[0] - x[0]))
          contents = contents.slice(0, start) + by + contents.slice(end);
        return { contents, loader: 'ts' };
      });
    },
  };
}
