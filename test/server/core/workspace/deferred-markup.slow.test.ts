// Page markup on demand (`StagePolicy.markup`, what `kit dev` loads with, to route its first
// requests from the declarations): page views are parsed without their markup at load, and get it
// when a page is compiled, when a file's rules run, or before any query for diagnostics; the
// diagnostics are then exactly those of a workspace that parsed everything at once.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProject } from '#core/project/load.js';
import { EDITING, ONE_SHOT, Workspace, type StagePolicy } from '#core/workspace/workspace.js';
import { fixturesDir } from '#test/helpers/repo.js';

const json = (x: unknown) => JSON.stringify(x);
const conformance = (name: string) => join(fixturesDir, 'conformance', name);

/**
 * With markup on demand, loads as `kit dev` does: every cross-file bucket waits too (a flush of one
 * parses every view). `checksOnDemand`: the files' own rules wait too.
 */
function load(dir: string, markupOnDemand: boolean, checksOnDemand = markupOnDemand) {
  const defer = markupOnDemand ? () => true : undefined;
  const policy: StagePolicy = {
    ...ONE_SHOT,
    markup: markupOnDemand ? 'demand' : 'read',
    checks: checksOnDemand ? 'demand' : 'markup',
  };
  return loadProject([dir], { ssr: false }, dir, { policy, defer }).workspace;
}

/** The view markup of a file as the workspace holds it now. */
function viewOf(ws: Workspace, path: string) {
  return ws.kit(path)?.ast.declarations.find((d) => d.kind === 'view');
}

describe('workspace: deferred markup', () => {
  for (const name of ['accept', 'reject']) {
    for (const checksOnDemand of [true, false]) {
      it(`gives the same diagnostics as parsing at once (${name}, local rules ${checksOnDemand ? 'deferred' : 'at once'})`, () => {
        const dir = conformance(name);
        const now = load(dir, false);
        const later = load(dir, true, checksOnDemand);
        const pages = later.kitPaths().filter((p) => now.kit(p)?.ast.kind === 'page' && viewOf(now, p));
        assert.ok(pages.length > 10, 'pages with views among the cases');
        assert.equal(
          later.pendingMarkupCount,
          later.kitPaths().filter((p) => later.kit(p)?.ast.kind === 'page').length,
        );
        const withMarkup = pages.find((p) => (viewOf(now, p) as { body: unknown[] }).body.length > 0)!;
        assert.deepEqual((viewOf(later, withMarkup) as { body: unknown[] }).body, [], 'a view without its markup');
        const waiting = later.pendingMarkupCount;
        later.completeMarkupOf(withMarkup);
        assert.equal(json(later.kit(withMarkup)!.ast), json(now.kit(withMarkup)!.ast), 'the page as parsed at once');
        assert.equal(later.pendingMarkupCount, waiting - 1);
        later.completeMarkupOf(withMarkup);
        assert.equal(later.pendingMarkupCount, waiting - 1, 'a file with its markup is left as it is');
        assert.equal(json(later.allDiagnostics()), json(now.allDiagnostics()));
        assert.equal(later.pendingMarkupCount, 0, 'asking for diagnostics parsed every view');
        for (const p of later.kitPaths()) assert.equal(json(later.kit(p)!.ast), json(now.kit(p)!.ast), p);
      });
    }
  }

  it('parses a file when its rules run, a few files at a time', () => {
    const dir = conformance('reject');
    const ws = load(dir, true);
    const waiting = ws.pendingMarkupCount;
    ws.runDeferredLocalRules(5);
    assert.ok(ws.pendingMarkupCount >= waiting - 5 && ws.pendingMarkupCount < waiting, 'their views were parsed');
    assert.equal(ws.completeMarkup(3), ws.pendingMarkupCount);
    const now = load(dir, false);
    assert.equal(json(ws.allDiagnostics()), json(now.allDiagnostics()));
  });

  it('parses edits and component files whole, and stops deferring once the queue is empty', () => {
    const dir = conformance('accept');
    const ws = load(dir, true);
    const components = ws.kitPaths().filter((p) => ws.kit(p)?.ast.kind !== 'page');
    assert.ok(components.length > 0);
    for (const c of components) {
      const view = viewOf(ws, c) as { body: unknown[] } | undefined;
      if (view) assert.ok(view.body.length > 0, `${c}: a component's view is parsed at load`);
    }
    const page = ws.kitPaths().find((p) => ws.kit(p)?.ast.kind === 'page' && viewOf(ws, p))!;
    const text = readFileSync(join(dir, page), 'utf8');
    const before = ws.pendingMarkupCount;
    ws.editKitFile(page, text + '\n');
    assert.equal(ws.pendingMarkupCount, before - 1, 'the edited file was parsed whole');
    assert.ok((viewOf(ws, page) as { body: unknown[] }).body.length > 0);
    assert.equal(ws.completeMarkup(), 0);
    ws.setKitFile(page, text);
    assert.equal(ws.pendingMarkupCount, 0, 'a file read after the queue emptied is parsed whole');
  });

  it('parses a page-named file that declares a component whole', () => {
    const ws = new Workspace({ ssr: false }, '/', { ...EDITING, markup: 'demand' });
    ws.setKitFile('w/badge.kit', 'package w\n\ncomponent Badge\n\nview {\n  <b>badge</b>\n}\n');
    ws.setKitFile('w/home.kit', 'package w\n\npage home\nroute "/"\nguard public\n\nview {\n  <Badge />\n}\n');
    assert.equal(ws.pendingMarkupCount, 1, 'only the page waits');
    assert.ok((viewOf(ws, 'w/badge.kit') as { body: unknown[] }).body.length > 0, 'the component was parsed whole');
    assert.deepEqual(ws.diagnosticsFor('w/home.kit'), []);
    assert.equal(ws.pendingMarkupCount, 0);
  });
});
