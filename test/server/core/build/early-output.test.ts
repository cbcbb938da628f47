// Page files written while the sources load (`EarlyOutput`): the output is byte for byte the one a
// build without them writes, whether every page was written early, some waited for a layout read
// after them, or the early pages were spoiled (a layout declared twice) and compiled again; the
// writer takes an early file's hash and size without writing it again, tells the cache it was
// rendered (not kept), and removes an early file the site does not have, with its empty
// directories. A build directory never taken is removed by `discard`.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  compileSite,
  EarlyBodies,
  SiteErrors,
  stageOutput,
  writeStaticSite,
  writeStaticSiteAsync,
  type WrittenFile,
} from '#core/build/index.js';
import type { EarlyPage } from '#core/build/site-compiler.js';
import { loadProject } from '#core/project/load.js';
import { repoRoot } from '#test/helpers/repo.js';
import { writeGeneratedSite } from '../project/generated-site.js';
import { buildFixture, EXAMPLE_SITE, listFiles, readTree, removeDir, tempDir } from './helpers.js';

const sha = (b: Uint8Array) => `sha256-${createHash('sha256').update(b).digest('hex')}`;

/** The site of `input` written the plain way (eager compile, one file at a time) into `dir`. */
function plain(input: string, dir: string, cwd = repoRoot) {
  return writeStaticSite(compileSite(loadProject([input], { ssr: true }, cwd).workspace, { cwd }), dir, {
    endpoints: [],
  });
}

/** The site of `input` as `kit build` writes it with early files; `extra`: more early pages to write. */
async function staged(input: string, dir: string, cwd = repoRoot, extra: EarlyPage[] = []) {
  const kept = new Map<string, Uint8Array>();
  const out = stageOutput(dir, { entries: true, keep: (hex, bytes) => kept.set(hex, Uint8Array.from(bytes)) });
  assert.ok(out, 'the build directory was made');
  const early = new EarlyBodies(cwd, out);
  const ws = loadProject([input], { ssr: true }, cwd, { hooks: early }).workspace;
  for (const p of extra) out.page(p);
  const site = compileSite(ws, { cwd, lazy: true }, early);
  const written: WrittenFile[] = [];
  const stats = await writeStaticSiteAsync(site, dir, {
    endpoints: [],
    entries: true,
    staged: out,
    written: (f) => written.push({ ...f, bytes: undefined }),
  });
  return { stats, written, kept, early };
}

describe('build: page files written while the sources load', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = tempDir('early-output');
  });
  afterEach(() => removeDir(tmp));

  const inputs: [string, number][] = [
    // `about.kit` waits for the layout read after it; `home.kit` and `post.kit` (two paths) do not.
    [buildFixture('early'), 3],
    // A layout declared twice spoils the early pages: everything is written again.
    [buildFixture('early-duplicate'), 0],
    // Pages read before the layouts and components they use: compiled and written after the load.
    [buildFixture('layouts'), 1],
    [buildFixture('components'), 0],
    [buildFixture('scoped-slots'), 0],
    [buildFixture('assets'), -1],
    [EXAMPLE_SITE, -1],
  ];
  for (const [input, earlyFiles] of inputs) {
    it(`writes the bytes of a build without them (${input})`, async () => {
      const a = join(tmp, 'a');
      const b = join(tmp, 'b');
      const want = plain(input, a);
      const got = await staged(input, b);
      const { entries, ...stats } = got.stats;
      assert.deepEqual(stats, want);
      assert.deepEqual(readTree(b), readTree(a));
      const early = got.written.filter((f) => f.early);
      if (earlyFiles >= 0) assert.equal(early.length, earlyFiles, early.map((f) => f.rel).join(', '));
      else assert.ok(early.length > 0, 'some files were written early');
      for (const f of early) {
        const bytes = readFileSync(join(b, f.rel));
        assert.equal(f.hash, sha(bytes), f.rel);
        assert.equal(f.size, bytes.byteLength, f.rel);
        assert.equal(f.content, undefined, 'no content: it was not rendered again');
        assert.ok(f.page, `${f.rel} names its page`);
        assert.deepEqual(got.kept.get(f.hash.slice(7)), Uint8Array.from(bytes), `${f.rel} was kept as rendered`);
      }
      // The writing thread's entries cover the early files too.
      for (const f of listFiles(b)) if (f !== 'kit-assets.json') assert.ok(entries?.has(f), `entry of ${f}`);
      assert.deepEqual(readdirSync(tmp).sort(), ['a', 'b'], 'no build directory left beside the output');
    });
  }

  it('writes the pages of a generated site early, with paths {} records, in the bytes of a plain build', async () => {
    const src = join(tmp, 'src');
    writeGeneratedSite(src, 4, 20);
    const a = join(tmp, 'a');
    const b = join(tmp, 'b');
    const want = plain(src, a, src);
    const got = await staged(src, b, src);
    assert.deepEqual(readTree(b), readTree(a));
    assert.equal(got.stats.pages, want.pages);
    assert.ok(got.early.counts.early > 40, `${got.early.counts.early} pages compiled early`);
    assert.ok(got.written.filter((f) => f.early).length > 40);
  });

  it('removes an early file the site does not have, and the directories it leaves empty', async () => {
    // `post.kit` of another site, compiled early: posts/<slug>/index.html is no file of `layouts`.
    const pages: EarlyPage[] = [];
    loadProject([buildFixture('early')], { ssr: true }, repoRoot, {
      hooks: new EarlyBodies(repoRoot, { page: (p) => pages.push(p) }),
    });
    const post = pages.find((p) => p.head.route.startsWith('/posts/'));
    assert.ok(post && post.head.prerender.length > 0);
    const a = join(tmp, 'a');
    const b = join(tmp, 'b');
    plain(buildFixture('layouts'), a);
    const got = await staged(buildFixture('layouts'), b, repoRoot, [post]);
    assert.deepEqual(readTree(b), readTree(a));
    for (const pre of post.head.prerender)
      assert.ok(!existsSync(dirname(join(b, pre.file))), `${pre.file}'s directory`);
    assert.ok(!existsSync(join(b, 'posts')));
    assert.ok(!got.stats.entries?.has('posts'), 'no entry of a removed directory');
  });

  it('a site whose compile fails writes nothing and leaves no build directory', async () => {
    const out = join(tmp, 'dist');
    const s = stageOutput(out, { entries: false });
    assert.ok(s);
    const early = new EarlyBodies(repoRoot, s);
    const ws = loadProject([buildFixture('early-diagnostic')], { ssr: true }, repoRoot, { hooks: early }).workspace;
    const site = compileSite(ws, { cwd: repoRoot, lazy: true }, early);
    await assert.rejects(writeStaticSiteAsync(site, out, { endpoints: [], staged: s }), SiteErrors);
    assert.deepEqual(readdirSync(tmp), []);
  });

  it('discard removes a build directory never taken; the writer then makes its own', async () => {
    const out = join(tmp, 'dist');
    const s = stageOutput(out, { entries: false });
    assert.ok(s);
    assert.equal(readdirSync(tmp).length, 1, 'the build directory beside the output');
    assert.equal(await s.discard(), true);
    assert.equal(await s.discard(), false, 'once');
    assert.deepEqual(readdirSync(tmp), []);
    assert.equal(s.take(out, false), undefined, 'a discarded one is not taken');
  });

  it('is not made where the output could not be replaced, or its parent is missing', () => {
    assert.equal(stageOutput(join(tmp, 'missing', 'dist'), { entries: false }), undefined);
    assert.ok(!existsSync(join(tmp, 'missing')), 'the parent is not created');
    writeFileSync(join(tmp, 'file'), 'not a directory');
    assert.equal(stageOutput(join(tmp, 'file'), { entries: false }), undefined);
    const s = stageOutput(join(tmp, 'x'), { entries: true });
    assert.ok(s);
    assert.equal(s.take(join(tmp, 'other'), true), undefined, 'another output');
    assert.equal(s.take(join(tmp, 'x'), false), undefined, 'without entries');
    assert.equal(s.take(join(tmp, 'x'), true), s);
    return s.thread.finish().then(() => removeDir(s.tmp));
  });
});
