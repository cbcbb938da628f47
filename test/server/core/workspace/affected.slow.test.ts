// What an edit reports as affected (the files a language server re-publishes) is the files whose
// diagnostics can read differently: re-evaluating a bucket of a thousand files whose facts come out
// the same (a directory re-bound because one page changed) affects the edited file alone, and the
// files it now affects are still exactly those whose diagnostics changed.
import { strict as assert } from 'node:assert';
import { SUMMARIES, Workspace } from '#core/workspace/workspace.js';

const page = (i: number, extra = '') =>
  `package site\n\npage p${i}\nroute "/p${i}"\nguard public\n${extra}\nact Save${i} POST "/p${i}/save"\n\nview {\n  <main>${i}</main>\n}\n`;

/** A directory of `n` pages whose actions have no handler: a `missing_backend_handler` warning each. */
function load(n: number): Workspace {
  const w = new Workspace({ ssr: false }, process.cwd(), SUMMARIES);
  for (let i = 0; i < n; i++) w.setKitFile(`site/p${i}.kit`, page(i));
  w.setModule('site/handlers.ts', 'export function Save0(): void {}\n');
  w.takeAffected();
  return w;
}

const diagnostics = (w: Workspace) => JSON.stringify(w.allDiagnostics());

describe('Workspace affected files', () => {
  it('a shape edit of one page re-binds its directory but affects that page alone', () => {
    const w = load(300);
    assert.equal(w.allDiagnostics().filter((d) => d.code === 'missing_backend_handler').length, 299);
    const before = w.inspection.evaluations;
    const edited = page(7).replace('route "/p7"', 'route "/seven"');
    w.editKitFile('site/p7.kit', edited);
    assert.deepEqual([...w.takeAffected()], ['site/p7.kit']);
    assert.ok(w.inspection.evaluations > before, 'the directory was bound again');
    const fresh = load(300);
    fresh.setKitFile('site/p7.kit', edited);
    assert.equal(diagnostics(w), diagnostics(fresh));
  });

  it('an edit that changes other files’ diagnostics affects those files', () => {
    const w = load(50);
    // p3 takes p4's route: p4 now holds a duplicate_route pointing at p3.
    w.editKitFile('site/p3.kit', page(3).replace('route "/p3"', 'route "/p4"'));
    const affected = [...w.takeAffected()].sort();
    assert.deepEqual(affected, ['site/p3.kit', 'site/p4.kit']);
    assert.ok(w.diagnosticsFor('site/p4.kit').some((d) => d.code === 'duplicate_route'));
    w.editKitFile('site/p3.kit', page(3));
    assert.deepEqual([...w.takeAffected()].sort(), ['site/p3.kit', 'site/p4.kit']);
    assert.ok(!w.diagnosticsFor('site/p4.kit').some((d) => d.code === 'duplicate_route'));
  });

  it('a handler added affects exactly the pages whose diagnostics it changes', () => {
    const w = load(100);
    const files = w.kitPaths();
    const before = new Map(files.map((f) => [f, JSON.stringify(w.diagnosticsFor(f))]));
    w.setModule('site/handlers.ts', 'export function Save0(): void {}\nexport function Save42(): void {}\n');
    const affected = [...w.takeAffected()].filter((f) => f.endsWith('.kit')).sort();
    // p42 is bound now; the near misses of Save42 (Save4, Save41, Save52, ...) are suggested it.
    const changed = files.filter((f) => JSON.stringify(w.diagnosticsFor(f)) !== before.get(f)).sort();
    assert.deepEqual(affected, changed);
    assert.ok(changed.includes('site/p42.kit') && changed.length < files.length / 2, `${changed.length} changed`);
    assert.ok(!w.diagnosticsFor('site/p42.kit').some((d) => d.code === 'missing_backend_handler'));
  });
});
