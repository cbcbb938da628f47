// The import layers of docs/architecture.md, checked on every source file: an import may point
// down the layer list or inside its own layer, never up or sideways; no file imports itself
// through others; and each layer imports only the npm packages and Node modules its row of the
// allowed-imports table lists (type-only imports count too: they are the same dependency to a
// reader). `injected.test.ts` shows each check failing on a violation put into a copy.
import { strict as assert } from 'node:assert';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importCycles, importsOf, layerViolations, looseFiles, packageViolations, readSourceTree } from './checks.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const tree = readSourceTree(root);

describe('architecture: import layers', () => {
  it('finds the sources and their imports (the check is live)', () => {
    const imports = tree.files.flatMap((f) => importsOf(tree, f));
    assert.ok(tree.files.length > 200, `only ${tree.files.length} source files found`);
    assert.ok(imports.length > 500, `only ${imports.length} imports found`);
    assert.ok(
      imports.some((i) => i.from === 'server/src/core/workspace/local-rules.ts' && i.to?.endsWith('validate/index.ts')),
    );
    assert.ok(imports.some((i) => i.from.startsWith('grammar/src/') && i.spec === 'chevrotain'));
  });

  it('places every source file in a layer', () => {
    assert.deepEqual(looseFiles(tree), [], 'files outside every layer of the list');
  });

  it('imports point down the layer list or stay inside their layer', () => {
    const wrong = layerViolations(tree);
    assert.deepEqual(wrong, [], `imports against the layers:\n${wrong.join('\n')}`);
  });

  it('has no import cycle between files', () => {
    const cycles = importCycles(tree);
    assert.deepEqual(cycles, [], `import cycles:\n${cycles.map((c) => c.join(' ⇄ ')).join('\n')}`);
  });

  it("imports only the npm packages and Node modules its layer's row allows", () => {
    const wrong = packageViolations(tree);
    assert.deepEqual(wrong, [], `imports the allowed-imports table does not list:\n${wrong.join('\n')}`);
  });
});
