// The two writers of a static build: the same bytes, the same atomic replacement; the parallel
// removal of a replaced tree leaves nothing behind.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTreeAsync, writeStaticSite, writeStaticSiteAsync } from '../../../../server/src/core/build/index.js';
import { compileFixture, EXAMPLE_SITE, readTree, removeDir, tempDir } from './helpers.js';

describe('build: output writers', () => {
  it('writeStaticSiteAsync writes the bytes writeStaticSite writes, and replaces an earlier output whole', async () => {
    const tmp = tempDir('writers');
    try {
      const site = compileFixture(EXAMPLE_SITE);
      const a = join(tmp, 'a');
      const b = join(tmp, 'b');
      const sync = writeStaticSite(site, a, { endpoints: [] });
      const first = await writeStaticSiteAsync(site, b, { endpoints: [] });
      assert.deepEqual(first, sync);
      assert.deepEqual(readTree(b), readTree(a));
      // A stale file of the earlier output does not survive; nothing is left beside the output.
      writeFileSync(join(b, 'stale.html'), 'old');
      const again = await writeStaticSiteAsync(site, b, { endpoints: [] });
      assert.deepEqual(again, sync);
      assert.deepEqual(readTree(b), readTree(a));
      assert.deepEqual(readdirSync(tmp).sort(), ['a', 'b']);
    } finally {
      removeDir(tmp);
    }
  });

  it('removes what a killed build of the same output left beside it, and nothing else', async () => {
    const tmp = tempDir('stale');
    try {
      const site = compileFixture(EXAMPLE_SITE);
      // A pid that is certainly not running any more: a child that has exited.
      const dead = spawnSync(process.execPath, ['-e', '0']).pid;
      const leftovers = [`.dist.kit-build-${dead}-0badc0de`, `.dist.kit-old-${dead}-0badc0de`];
      const kept = [`.dist.kit-build-${process.ppid}-0badc0de`, `.other.kit-build-${dead}-0badc0de`, '.dist.keep'];
      for (const d of [...leftovers, ...kept]) {
        mkdirSync(join(tmp, d, 'nested'), { recursive: true });
        writeFileSync(join(tmp, d, 'nested', 'index.html'), 'x');
      }
      await writeStaticSiteAsync(site, join(tmp, 'dist'), { endpoints: [] });
      assert.deepEqual(readdirSync(tmp).sort(), [...kept, 'dist'].sort());
    } finally {
      removeDir(tmp);
    }
  });

  it('removeTreeAsync removes a nested tree, files and directories', async () => {
    const tmp = tempDir('remove');
    try {
      const root = join(tmp, 'tree');
      for (let i = 0; i < 20; i++) {
        mkdirSync(join(root, 'p', String(i), 'deep'), { recursive: true });
        writeFileSync(join(root, 'p', String(i), 'index.html'), 'x');
        writeFileSync(join(root, 'p', String(i), 'deep', 'a.txt'), 'y');
      }
      writeFileSync(join(root, 'top.json'), '{}');
      await removeTreeAsync(root);
      assert.deepEqual(readdirSync(tmp), []);
    } finally {
      removeDir(tmp);
    }
  });
});
