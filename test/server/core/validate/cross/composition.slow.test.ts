// Component calls are checked per calling file (`ccall:<component>@<file>`), and a definition that
// comes or goes re-checks only the calls it can change: its own, and the unresolved calls whose name
// is a typo of it. The diagnostics stay those of a fresh load.
import { strict as assert } from 'node:assert';
import { Workspace } from '#core/workspace/workspace.js';

const component = (name: string) =>
  `component ${name}\n\nprops {\n  title string\n}\n\nview {\n  <div>{title}</div>\n}\n`;
const page = (i: number, calls: string) =>
  `package site\n\npage p${i}\nroute "/p${i}"\nguard public\n\nview {\n  <main>${calls}</main>\n}\n`;

function load(files: Record<string, string>): Workspace {
  const w = new Workspace({ ssr: false });
  for (const [f, t] of Object.entries(files).sort()) w.setKitFile(f, t);
  w.flush();
  return w;
}

function site(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let c = 0; c < 20; c++) files[`site/c${c}.cmp.kit`] = component(`Widget${c}`);
  // Every page calls a widget that exists and one that does not (Crad: a typo of Card).
  for (let i = 0; i < 100; i++) files[`site/p${i}.kit`] = page(i, `<Widget${i % 20} title="a" /><Crad title="b" />`);
  return files;
}

const unknown = (w: Workspace) =>
  w
    .allDiagnostics()
    .filter((d) => d.code === 'unknown_component')
    .map((d) => `${d.file} ${d.message}`);

describe('component calls re-checked when a definition changes', () => {
  it('a component renamed re-checks its own calls and the unresolved calls near its names only', () => {
    const files = site();
    const w = load(files);
    assert.equal(unknown(w).length, 100);
    const before = w.inspection.evaluations;
    // Widget3 → Widget3x: the five pages calling Widget3 lose their component; Crad is near neither.
    w.setKitFile('site/c3.cmp.kit', component('Widget3x'));
    w.flush();
    const renamed = w.inspection.evaluations - before;
    assert.ok(renamed < 20, `${renamed} buckets evaluated`);
    assert.deepEqual(unknown(w), unknown(load({ ...files, 'site/c3.cmp.kit': component('Widget3x') })));
    assert.equal(unknown(w).length, 105);
  });

  it('a component named like the unresolved calls resolves them, and their suggestion follows', () => {
    const files = site();
    const w = load(files);
    w.setKitFile('site/card.cmp.kit', component('Card'));
    const withCard = { ...files, 'site/card.cmp.kit': component('Card') };
    assert.deepEqual(unknown(w), unknown(load(withCard)));
    assert.ok(unknown(w).every((m) => m.includes('did you mean <Card>?')));
    w.setKitFile('site/card.cmp.kit', component('Crad'));
    assert.deepEqual(unknown(w), []);
    w.remove('site/card.cmp.kit');
    assert.deepEqual(unknown(w), unknown(load(files)));
  });
});
