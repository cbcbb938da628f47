// Cross-file facts are kept without positions: an edit that only moves what other files point at
// (a line inserted above a declaration) re-evaluates no bucket, yet every diagnostic and binding
// reads the new positions, exactly as a fresh load of the same texts would.
import { strict as assert } from 'node:assert';
import { EDITING, SUMMARIES, Workspace, type StagePolicy } from '#core/workspace/workspace.js';
import { findBinding } from '#core/bind/types.js';
import { CROSS_RULES, FAMILIES } from '#core/validate/cross/index.js';

const A = 'site/a.kit';
const B = 'site/b.kit';

const page = (route: string, name: string, lead = '') =>
  `${lead}package site\n\npage ${name}\nroute "${route}"\nguard public\n\nact Save${name} POST "/${name}/save"\n\nview {\n  <main>${name}</main>\n}\n`;
const handlers = 'export function Savea(ctx: unknown): void {\n  void ctx;\n}\n';

/** How the workspace parses: one-shot trees with markup dropped, as the language server reads files from disk. */
const DISK = SUMMARIES;

function load(texts: Record<string, string>, policy: StagePolicy = EDITING): Workspace {
  const w = new Workspace({ ssr: false }, process.cwd(), policy);
  for (const [p, t] of Object.entries(texts)) if (p.endsWith('.kit')) w.setKitFile(p, t);
  for (const [p, t] of Object.entries(texts)) if (!p.endsWith('.kit')) w.setModule(p, t);
  w.flush();
  return w;
}

const json = (w: Workspace) => JSON.stringify(w.allDiagnostics());

describe('Workspace position-free cross-file facts', () => {
  for (const how of [
    'editKitFile (incremental re-parse)',
    'setKitFile (full parse)',
    'setKitFile of one-shot trees (files read from disk; facts anchored late)',
  ] as const) {
    it(`moves diagnostics and bindings without re-evaluating any bucket: ${how}`, () => {
      const texts: Record<string, string> = {
        [A]: page('/blog/{slug}', 'a'),
        [B]: page('/blog/{id}', 'b'),
        'site/handlers.ts': handlers,
      };
      const disk = how.includes('one-shot');
      const w = load(texts, disk ? DISK : EDITING);
      const edit = (path: string, text: string) => {
        texts[path] = text;
        if (how.startsWith('edit')) w.editKitFile(path, text);
        else w.setKitFile(path, text);
      };
      // The documents being edited hold trees that re-parse incrementally; files from disk do not.
      if (!disk) {
        w.editKitFile(A, texts[A]);
        w.editKitFile(B, texts[B]);
      }
      w.flush();
      const [dup] = w.diagnosticsFor(B).filter((d) => d.code === 'duplicate_route');
      assert.equal(dup.related?.[0].file, A);
      assert.equal(dup.related?.[0].range.start.line, 3);
      assert.equal(findBinding(w.bindingFor(A), 'action', 'Savea')?.range.start.line, 6);
      const before = w.inspection.evaluations;

      // Two lines above A's declarations: B's related location and A's binding move down by two.
      edit(A, page('/blog/{slug}', 'a', '// one\n// two\n'));
      const affected = w.flush();
      assert.equal(w.inspection.evaluations, before, 'no bucket is re-evaluated');
      assert.ok(affected.has(B), "B's diagnostic points into A: it is re-published");
      assert.equal(w.diagnosticsFor(B).find((d) => d.code === 'duplicate_route')?.related?.[0].range.start.line, 5);
      assert.equal(findBinding(w.bindingFor(A), 'action', 'Savea')?.range.start.line, 8);

      // A line above B's own declarations moves its diagnostic's range.
      edit(B, page('/blog/{id}', 'b', '\n'));
      w.flush();
      assert.equal(w.inspection.evaluations, before, 'still no bucket is re-evaluated');
      assert.equal(w.diagnosticsFor(B).find((d) => d.code === 'duplicate_route')?.range.start.line, 4);
      assert.equal(json(w), json(load(texts)), 'the same diagnostics as a fresh load');
      assert.deepEqual(w.bindingFor(A), load(texts).bindingFor(A), 'the same bindings as a fresh load');

      // An edit inside the view moves nothing other files see: nobody else is re-published.
      edit(A, texts[A].replace('<main>a</main>', '<main>a!</main>'));
      assert.deepEqual([...w.flush()], [A]);

      // A change of shape (another route) re-evaluates.
      edit(A, page('/news/{slug}', 'a', '// one\n// two\n'));
      w.flush();
      assert.ok(w.inspection.evaluations > before, 'a route change re-evaluates its buckets');
      assert.equal(json(w), json(load(texts)));
    });
  }

  it('has one rule per bucket family', () => {
    const families = CROSS_RULES.map((r) => r.family);
    assert.deepEqual([...families].sort(), [...FAMILIES].sort());
    assert.equal(new Set(families).size, families.length);
  });
});

describe('Workspace change tracking', () => {
  it('keeps what a query flushed for takeAffected, and bumps its revision on every change', () => {
    const w = load({ [A]: page('/blog/{slug}', 'a'), [B]: page('/blog/{id}', 'b') });
    w.takeAffected();
    const r0 = w.revision;
    w.setKitFile(A, page('/news/{slug}', 'a'));
    assert.ok(w.revision > r0);
    // A query brings the model up to date on its own; the files it affected are still reported.
    assert.ok(!w.diagnosticsFor(B).some((d) => d.code === 'duplicate_route'));
    assert.deepEqual([...w.takeAffected()].sort(), [A, B]);
    assert.deepEqual([...w.takeAffected()], [], 'taken once');
  });

  it('re-validates every file for new options without re-setting them', () => {
    const ssrPage = 'package site\n\npage s\nroute "/s"\nguard public\nrender ssr\n\nview {\n  <main>s</main>\n}\n';
    const w = load({ 'site/s.kit': ssrPage });
    assert.ok(w.diagnosticsFor('site/s.kit').length > 0, 'an ssr page without --ssr is reported');
    w.takeAffected();
    const r0 = w.revision;
    w.setOptions({ ssr: true });
    assert.ok(w.revision > r0);
    assert.deepEqual([...w.takeAffected()], ['site/s.kit']);
    assert.deepEqual(w.diagnosticsFor('site/s.kit'), []);
    assert.equal(w.options.ssr, true);
  });
});
