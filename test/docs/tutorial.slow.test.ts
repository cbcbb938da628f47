// docs/tutorial.md is built as a reader follows it: the starter, then each step's files, and after
// every step `kit check` (no diagnostic at all) and a strict `tsc` with the generated page types.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkProjectPage, projectSteps } from '../../docs/tools/project-check.js';
import { repoRoot } from '../../docs/tools/pages.js';

const PATH = 'docs/tutorial.md';

describe('docs: the tutorial builds and checks at every step', function () {
  this.timeout(180_000);
  const text = readFileSync(join(repoRoot, PATH), 'utf8');

  it('has a step for each part of the app, each with its files in full', () => {
    const steps = projectSteps({ path: PATH, text });
    assert.ok(steps.length >= 8, `${steps.length} steps`);
    const files = new Set(steps.flatMap((s) => s.files.map((f) => f.path)));
    for (const f of [
      'site/products/product.kit',
      'site/products/handlers.ts',
      'kit.config.ts',
      'site/products/photos.kit',
    ])
      assert.ok(files.has(f), f);
  });

  it('passes kit check and tsc after every step', async () => {
    assert.deepEqual(await checkProjectPage({ path: PATH, text }), []);
  });

  it('catches a step whose load no longer returns what its page declares', async () => {
    // The tutorial up to its typed load, with the price left out of the load's result.
    const upToLoad = text.slice(0, text.indexOf('## 4.'));
    const drifted = upToLoad.replace(
      'return { name: product.name, price: `${product.price} €` };',
      'return { name: product.name };',
    );
    assert.notEqual(drifted, upToLoad);
    const problems = (await checkProjectPage({ path: PATH, text: drifted })).join('\n');
    assert.match(
      problems,
      /docs\/tutorial\.md:\d+ \(site\/products\/handlers\.ts:\d+\): tsc: TS2322: .*Property 'price' is missing/,
    );
    assert.match(problems, /kit check: warning load_missing_field: .* \[after "3\. A typed load"\]/);
  });
});
