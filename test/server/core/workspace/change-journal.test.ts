// `Workspace.changedSince`: the files added, replaced or removed after a revision, so a cache kept
// under that revision looks at those alone; too old a revision answers undefined (compare all).
import { strict as assert } from 'node:assert';
import { Workspace } from '#core/workspace/workspace.js';

const page = (n: number) => `package site\n\npage p${n}\nroute "/p${n}"\nguard public\n\nview {\n  <main></main>\n}\n`;

describe('Workspace changedSince', () => {
  it('names the files changed after a revision, and none for a flush alone', () => {
    const ws = new Workspace({ ssr: false });
    ws.setKitFile('a.kit', page(1));
    ws.setKitFile('b.kit', page(2));
    ws.flush();
    const r = ws.revision;
    assert.deepEqual([...ws.changedSince(r)!], []);
    ws.editKitFile('a.kit', page(1).replace('<main>', '<main> '));
    ws.remove('b.kit');
    ws.flush();
    assert.deepEqual([...ws.changedSince(r)!].sort(), ['a.kit', 'b.kit']);
    assert.deepEqual([...ws.changedSince(ws.revision)!], []);
  });

  it('answers undefined once the revision is older than what it keeps', () => {
    const ws = new Workspace({ ssr: false });
    ws.setKitFile('a.kit', page(1));
    ws.flush();
    const r = ws.revision;
    for (let i = 0; i < 9000; i++) ws.setModule(`m${i % 50}.ts`, `export const n = ${i};`);
    assert.equal(ws.changedSince(r), undefined);
    const late = ws.revision;
    ws.setKitFile('a.kit', page(2));
    assert.deepEqual([...ws.changedSince(late)!], ['a.kit']);
  });
});
