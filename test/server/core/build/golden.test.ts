// Golden HTML (and CSS/JS assets) of the example site and the focused build fixtures.
// Regenerate after an intended change, then review the diff:
//   KIT_UPDATE_GOLDEN=1 npx mocha --no-config --timeout 20000 'out/test/server/core/build/golden.test.js'
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { KIT_JS_PATH, writeStaticSite } from '#core/build/index.js';
import { fixture } from '#test/helpers/repo.js';
import { buildFixture, compileFixture, EXAMPLE_SITE, listFiles, removeDir, tempDir } from './helpers.js';

const CASES: [string, string[]][] = [
  ['example', [EXAMPLE_SITE]],
  ['escaping', [buildFixture('escaping')]],
  ['layouts', [buildFixture('layouts')]],
  ['components', [buildFixture('components')]],
  ['forms', [buildFixture('forms')]],
  ['head', [buildFixture('head')]],
  ['ssr', [buildFixture('ssr')]],
];

const update = process.env.KIT_UPDATE_GOLDEN === '1';

/** Golden files: pages and hashed assets; not the link runtime or the manifests (tested elsewhere). */
function goldenFiles(dir: string): string[] {
  return listFiles(dir).filter((f) => /\.(html|css|js)$/.test(f) && f !== KIT_JS_PATH);
}

describe('build: golden output', () => {
  for (const [name, inputs] of CASES) {
    it(name, () => {
      const out = tempDir(`golden-${name}`);
      try {
        const site = compileFixture(...inputs);
        assert.deepEqual(site.diagnostics, []);
        writeStaticSite(site, join(out, 'dist'), { endpoints: [] });
        const dist = join(out, 'dist');
        const golden = fixture('build', 'golden', name);
        const files = goldenFiles(dist);
        if (update) {
          rmSync(golden, { recursive: true, force: true });
          for (const f of files) {
            mkdirSync(dirname(join(golden, f)), { recursive: true });
            writeFileSync(join(golden, f), readFileSync(join(dist, f)));
          }
        }
        assert.ok(existsSync(golden), `no golden output for ${name}; run with KIT_UPDATE_GOLDEN=1`);
        assert.deepEqual(files, goldenFiles(golden), 'the same files are written');
        for (const f of files)
          assert.equal(readFileSync(join(dist, f), 'utf8'), readFileSync(join(golden, f), 'utf8'), `${name}/${f}`);
      } finally {
        removeDir(out);
      }
    });
  }
});
