// `kit build` writes page files while the sources load (`EarlyOutput`). A build that then finds an
// error still writes nothing: no output, no build directory beside it, nothing added to the cache;
// fixed, it writes what a build without the cache writes. Unit tier: the CLI in process.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTree, removeDir, tempDir } from '../../core/build/helpers.js';
import { writeGeneratedSite } from '../../core/project/generated-site.js';
import { runInProcess } from '../cli-harness.js';

/** The files under `.kit/cache`, if any. */
function cacheFiles(project: string): string[] {
  const dir = join(project, '.kit', 'cache');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describe('kit build: page files written while the sources load', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = tempDir('early-cli');
  });
  afterEach(() => removeDir(tmp));

  it('an error found after pages were written leaves no output, no build directory and no cache', async () => {
    const project = join(tmp, 'project');
    const src = join(project, 'site');
    writeGeneratedSite(src, 2, 10);
    writeFileSync(join(project, 'package.json'), '{ "private": true }\n');
    // The last file read: every page before it was compiled, rendered and sent to be written.
    const last = join(src, 'd1', 'p9.kit');
    const good = readFileSync(last, 'utf8');
    writeFileSync(last, good.replace(/route "/, 'route 42 "'));
    const out = join(project, 'dist');
    const failed = await runInProcess(['build', '--out', out, 'site'], { cwd: project });
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /site\/d1\/p9\.kit:\d+:\d+: error /);
    assert.ok(!existsSync(out), 'no output');
    assert.deepEqual(
      readdirSync(project).filter((f) => f.includes('kit-build')),
      [],
      'no build directory left beside it',
    );
    assert.deepEqual(
      cacheFiles(project).filter((f) => f.endsWith('.pack')),
      [],
      'nothing kept in the cache',
    );

    writeFileSync(last, good);
    const built = await runInProcess(['build', '--out', out, 'site'], { cwd: project });
    assert.equal(built.code, 0, built.stderr);
    assert.match(built.stdout, /built (\d+) pages in .* \(\1 rendered, 0 from the cache\)/);
    const plain = join(tmp, 'plain');
    const again = await runInProcess(['build', '--no-cache', '--out', plain, 'site'], { cwd: project });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(readTree(out), readTree(plain));
    // The cache kept what the early pages rendered: the next build takes every page from it.
    const cached = await runInProcess(['build', '--out', out, 'site'], { cwd: project });
    assert.equal(cached.code, 0, cached.stderr);
    assert.match(cached.stdout, /built (\d+) pages in .* \(0 rendered, \1 from the cache\)/);
    assert.deepEqual(readTree(out), readTree(plain));
  });
});
