// `compileSite` with `lazy` (the first app of `kit dev`): the routes are known at once, each page's
// body compiles when first read (its view markup parsed then, from a workspace that deferred it),
// asset files are found as pages register them, and the whole site, once compiled, is exactly the
// eager compile.
import { strict as assert } from 'node:assert';
import { compileSite, type CompiledSite } from '#core/build/index.js';
import { loadProject } from '#core/project/load.js';
import { DEV_START } from '#core/workspace/workspace.js';
import { repoRoot } from '#test/helpers/repo.js';
import { buildFixture, EXAMPLE_SITE } from './helpers.js';

const json = (x: unknown) => JSON.stringify(x);

function lazySite(input: string) {
  const load = { policy: DEV_START, defer: () => true };
  const ws = loadProject([input], { ssr: true }, repoRoot, load).workspace;
  return { ws, site: compileSite(ws, { cwd: repoRoot, lazy: true }) };
}

function eagerSite(input: string): CompiledSite {
  return compileSite(loadProject([input], { ssr: true }, repoRoot).workspace, { cwd: repoRoot });
}

const assetList = (s: CompiledSite) => s.assets.map((a) => `${a.path} ${a.sha256}`);

describe('build: lazy compileSite', () => {
  for (const input of [EXAMPLE_SITE, buildFixture('assets'), buildFixture('components'), buildFixture('layouts')]) {
    it(`compiles a page when it is read, and the whole site as the eager compile (${input})`, () => {
      const eager = eagerSite(input);
      const { ws, site } = lazySite(input);
      const lazy = site.lazy!;
      assert.ok(lazy, 'a lazy site says so');
      assert.equal(
        json(site.pages.map((p) => [p.pageId, p.route, p.prerender])),
        json(eager.pages.map((p) => [p.pageId, p.route, p.prerender])),
      );
      assert.ok(
        site.pages.every((p) => !lazy.compiled(p)),
        'no page body compiled yet',
      );
      const waiting = ws.pendingMarkupCount;
      assert.ok(waiting > 0, 'page views wait for their markup');
      const [first] = site.pages;
      assert.equal(json(first), json(eager.pages[0]), 'a page read is the page compiled at once');
      assert.ok(lazy.compiled(first));
      assert.equal(ws.pendingMarkupCount, waiting - 1, "only that page's view was parsed");
      assert.ok(site.pages.slice(1).every((p) => !lazy.compiled(p)));
      for (const a of eager.assets) assert.equal(lazy.asset(a.path)?.sha256, a.sha256, a.path);
      assert.equal(lazy.asset('assets/css/none.0000000000.css'), undefined);
      assert.equal(json(assetList(site)), json(assetList(eager)));
      assert.equal(json(site.pages), json(eager.pages));
      assert.equal(json(site.diagnostics), json(eager.diagnostics));
    });
  }

  it('finds an asset of a page compiled since without compiling the others', () => {
    const { site } = lazySite(EXAMPLE_SITE);
    const page = site.pages.find((p) => p.stylesheets.length > 0)!;
    const others = site.pages.filter((p) => p !== page);
    assert.ok(others.every((p) => !site.lazy!.compiled(p)));
    assert.ok(site.lazy!.asset(page.stylesheets[0].slice(1)));
    assert.ok(
      others.every((p) => !site.lazy!.compiled(p)),
      'the asset was known: nothing else compiled',
    );
  });

  it('is no base for an incremental compile: every page compiles again', () => {
    const { ws, site } = lazySite(EXAMPLE_SITE);
    const next = compileSite(ws, { cwd: repoRoot, previous: { site, changed: new Set() } });
    assert.equal(next.lazy, undefined);
    assert.ok(next.pages.every((p, i) => p !== site.pages[i]));
    assert.equal(json(next.pages), json(eagerSite(EXAMPLE_SITE).pages));
  });
});
