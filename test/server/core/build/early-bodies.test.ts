// Page bodies compiled as the files are read (`EarlyBodies`, the hook `kit build` loads with): the
// compiled site, its diagnostics and their order are those of a compile without them, whether the
// pages were compiled early, had to wait for a layout read after them, or were spoiled (a compile
// diagnostic, a layout declared twice) and compiled again the normal way.
import { strict as assert } from 'node:assert';
import { compileSite, EarlyBodies, type CompiledSite } from '#core/build/index.js';
import { KitStage } from '#core/model/entries.js';
import { loadProject } from '#core/project/load.js';
import type { Workspace } from '#core/workspace/workspace.js';
import { repoRoot } from '#test/helpers/repo.js';
import { buildFixture, EXAMPLE_SITE } from './helpers.js';

const json = (x: unknown) => JSON.stringify(x);

function load(input: string, early?: EarlyBodies): Workspace {
  return loadProject([input], { ssr: true }, repoRoot, { hooks: early }).workspace;
}

/** Every page's body as the static build reads it (`lazy.once`), then the rest of the site. */
function written(site: CompiledSite): string {
  const bodies = site.pages.map((p) => site.lazy!.once(p));
  return json({
    heads: site.pages.map((p) => [p.pageId, p.source, p.route, p.prerender, p.layouts, p.errorPage]),
    bodies,
    fragments: site.fragments,
    assets: site.assets.map((a) => [a.path, a.sha256]),
    errorPages: site.errorPages,
    diagnostics: site.diagnostics,
  });
}

/** The site compiled with pages compiled as their files were read, and without. */
function both(input: string, lazy: boolean) {
  const early = new EarlyBodies(repoRoot);
  const ws = load(input, early);
  const site = compileSite(ws, { cwd: repoRoot, lazy }, early);
  const plainWs = load(input);
  const plain = compileSite(plainWs, { cwd: repoRoot, lazy });
  return { early, ws, site, plainWs, plain };
}

describe('build: page bodies compiled as files are read', () => {
  const inputs = [
    buildFixture('early'),
    buildFixture('early-duplicate'),
    buildFixture('early-diagnostic'),
    buildFixture('layouts'),
    buildFixture('components'),
    buildFixture('scoped-slots'),
    buildFixture('assets'),
    EXAMPLE_SITE,
  ];
  for (const input of inputs) {
    it(`compiles the site a compile without them does (${input})`, () => {
      const eager = both(input, false);
      assert.equal(json(eager.site), json(eager.plain));
      const lazy = both(input, true);
      assert.equal(written(lazy.site), written(lazy.plain));
      assert.equal(json(lazy.ws.allDiagnostics()), json(lazy.plainWs.allDiagnostics()));
    });
  }

  it('compiles the pages whose parts were read, drops their trees, and lets the others wait', () => {
    const { early, ws } = both(buildFixture('early'), true);
    // `about.kit` is read before `base.layout.kit`; `home.kit` and `post.kit` after it and `card.cmp.kit`.
    assert.deepEqual(early.counts, { early: 2, waited: 1 });
    assert.equal(early.spoiled, false);
    const stage = (name: string) => ws.kit(`${buildFixture('early')}/${name}`)!.stage;
    assert.equal(stage('home.kit'), KitStage.Summary);
    assert.equal(stage('post.kit'), KitStage.Summary);
    assert.equal(stage('about.kit'), KitStage.Checked);
    assert.equal(stage('base.layout.kit'), KitStage.Checked);
  });

  it('takes each early page once, and only from the entry it was compiled from', () => {
    const early = new EarlyBodies(repoRoot);
    const ws = load(buildFixture('early'), early);
    const home = ws.kit(`${buildFixture('early')}/home.kit`)!;
    assert.equal(early.take({ ...home }), undefined, 'another entry of the file');
    assert.ok(early.take(home));
    assert.equal(early.take(home), undefined);
  });

  it('is spoiled by a layout declared twice, read after a page that uses it', () => {
    const { early, site } = both(buildFixture('early-duplicate'), false);
    assert.equal(early.counts.early, 1);
    assert.equal(early.spoiled, true);
    assert.deepEqual(
      site.pages.map((p) => p.layouts),
      [['main']],
    );
  });

  it('is spoiled by a diagnostic of an early compile, which the compile of the site reports in its place', () => {
    const { early, site, plain } = both(buildFixture('early-diagnostic'), false);
    assert.equal(early.counts.early, 1, '`plain.kit` compiles before `script.kit`');
    assert.equal(early.spoiled, true);
    assert.deepEqual(
      site.diagnostics.map((d) => d.code),
      ['missing_asset_file'],
    );
    assert.equal(json(site.diagnostics), json(plain.diagnostics));
  });
});
