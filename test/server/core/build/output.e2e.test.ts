// The two writers of a static build: the same bytes, the same atomic replacement; the parallel
// removal of a replaced tree leaves nothing behind. `kit build`'s writer (a lazily compiled site,
// each page compiled as it is written and let go of then, files written through a queue of
// asynchronous writes) against the one-file-at-a-time writer of an eagerly compiled site.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSite, OutputError, removeTreeAsync, writeStaticSite, writeStaticSiteAsync } from '#core/build/index.js';
import { loadProject } from '#core/project/load.js';
import { repoRoot } from '#test/helpers/repo.js';
import { writeGeneratedSite } from '../project/generated-site.js';
import { compileFixture, EXAMPLE_SITE, readTree, removeDir, tempDir } from './helpers.js';

describe('build: output writers', () => {
  it('a lazily compiled site written through the queue: the bytes of the eager, synchronous writer', async () => {
    const tmp = tempDir('lazy-writer');
    try {
      // Layouts, components with named and scoped slots, paths {} records, fragments: 384 pages.
      const src = join(tmp, 'src');
      writeGeneratedSite(src, 8, 40);
      for (const input of [src, join(repoRoot, EXAMPLE_SITE)]) {
        const load = () => loadProject([input], { ssr: true }, input).workspace;
        const a = join(tmp, 'a');
        const b = join(tmp, 'b');
        const eager = writeStaticSite(compileSite(load(), { cwd: input }), a, { endpoints: [] });
        const lazySite = compileSite(load(), { cwd: input, lazy: true });
        const lazy = await writeStaticSiteAsync(lazySite, b, { endpoints: [] });
        assert.deepEqual(lazy, eager);
        assert.ok(eager.pages > (input === src ? 300 : 3), `${eager.pages} pages`);
        assert.deepEqual(readTree(b), readTree(a));
        assert.ok(
          lazySite.pages.every((p) => !lazySite.lazy!.compiled(p)),
          'every page was let go of once written',
        );
        removeDir(a);
        removeDir(b);
      }
    } finally {
      removeDir(tmp);
    }
  });

  it('a lazily compiled site with a missing stylesheet writes nothing and throws its diagnostics', async () => {
    const tmp = tempDir('lazy-errors');
    try {
      const src = join(tmp, 'src');
      writeGeneratedSite(src, 2, 5);
      writeFileSync(
        join(src, 'd1', 'p3.kit'),
        'package pkg1\n\npage late\nroute "/late"\nguard public\n\nview {\n  <p>late</p>\n}\n\n' +
          'css "missing.css"\n',
      );
      const ws = loadProject([src], { ssr: true }, src).workspace;
      const site = compileSite(ws, { cwd: src, lazy: true });
      const out = join(tmp, 'dist');
      await assert.rejects(writeStaticSiteAsync(site, out, { endpoints: [] }), (e: Error) => {
        assert.equal(e.name, 'SiteErrors');
        const codes = (e as Error & { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code);
        assert.deepEqual(codes, ['missing_asset_file']);
        return true;
      });
      assert.deepEqual(readdirSync(tmp), ['src'], 'no output and no temporary directory');
    } finally {
      removeDir(tmp);
    }
  });

  it('a write that fails names the file, and leaves no output and no temporary directory', async () => {
    const tmp = tempDir('write-fails');
    try {
      const src = join(tmp, 'src');
      writeGeneratedSite(src, 2, 20);
      // A directory name longer than file systems allow (255 bytes): its creation fails, root or not.
      const long = 'x'.repeat(300);
      writeFileSync(
        join(src, 'd1', 'long.kit'),
        `package pkg1\n\npage long\nroute "/${long}"\nguard public\n\nview {\n  <p>long</p>\n}\n`,
      );
      const site = compileSite(loadProject([src], { ssr: true }, src).workspace, { cwd: src, lazy: true });
      await assert.rejects(writeStaticSiteAsync(site, join(tmp, 'dist'), { endpoints: [] }), (e: Error) => {
        assert.ok(e instanceof OutputError, String(e));
        assert.match(e.message, new RegExp(`^cannot write ${long}/index.html: ENAMETOOLONG$`));
        return true;
      });
      assert.deepEqual(readdirSync(tmp), ['src'], 'no output and no temporary directory');
    } finally {
      removeDir(tmp);
    }
  });

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
