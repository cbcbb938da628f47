// The CLI bundle holds kit's own code once: a dynamic `import()` of one of kit's modules, written
// relative or through the package's `#core/...` imports, must become one of the bundle's lazy
// functions. Left as a real `import()` (the loader's `__kit_import`), it would load the unbundled
// ES module copy under out/ at run time: the same code compiled a second time, a few hundred
// modules at every `kit build`, `check`, `dev` or `lsp` (about 0.1 s of each command's start).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/repo.js';

describe('the CLI bundle: dynamic imports', () => {
  const bundle = readFileSync(join(repoRoot, 'out', 'bundle', 'kit.cjs'), 'utf8');
  const leftToNode = [...bundle.matchAll(/__kit_import\(\s*(["'`])([^"'`]*)\1/g)].map((m) => m[2]);

  it('still leaves packages and node: modules to Node (the check below reads real calls)', () => {
    assert.ok(leftToNode.length > 0, 'no literal __kit_import call found: the pattern no longer matches the bundle');
    for (const specifier of leftToNode) assert.doesNotMatch(specifier, /^\.\.?\//, specifier);
  });

  it("bundles every import of kit's own #-named modules", () => {
    const own = leftToNode.filter((s) => s.startsWith('#'));
    assert.deepEqual(own, [], `left to Node's loader (loaded from out/ at run time): ${own.join(', ')}`);
  });
});
