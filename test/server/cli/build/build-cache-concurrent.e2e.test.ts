// Builds of one project at once share its cache without spoiling it: each writes its own pack and
// renames its own index into place, so whichever finishes last leaves a whole cache, which the next
// build reads without a warning and builds from correctly (child processes: e2e tier).
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { readTree, removeDir, tempDir } from '../../core/build/helpers.js';
import { runProcess } from '../cli-harness.js';
import { initialModel, writeSite, type PageModel } from './cache-site.js';

describe('kit build: builds at once share the cache', function () {
  this.timeout(300000);
  let root: string;
  beforeEach(() => {
    root = tempDir('cache-concurrent');
  });
  afterEach(() => removeDir(root));

  it('four builds at once leave a cache the next build trusts and builds from correctly', async () => {
    const m = initialModel();
    writeSite(root, m);
    const outs = ['a', 'b', 'c', 'd'];
    for (let round = 0; round < 2; round++) {
      const runs = await Promise.all(outs.map((o) => runProcess(['build', '--out', `dist-${o}`, 'site'], root)));
      for (const r of runs) {
        assert.equal(r.code, 0, r.stderr);
        assert.doesNotMatch(r.stderr, /cache/);
      }
      (m.pages.get(2) as PageModel).body = `Round ${round}`;
      writeSite(root, m);
    }
    const next = await runProcess(['build', '--out', 'dist-a', 'site'], root);
    assert.equal(next.code, 0, next.stderr);
    assert.doesNotMatch(next.stderr, /cache/);
    const clean = await runProcess(['build', '--no-cache', '--out', 'clean', 'site'], root);
    assert.equal(clean.code, 0, clean.stderr);
    assert.deepEqual(readTree(join(root, 'dist-a')), readTree(join(root, 'clean')));
  });
});
