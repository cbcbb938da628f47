// A page's `Load<PageID>` must return every field its `server { => { ... } }` block declares: the
// binder reads the awaited return type with the TypeScript checker and reports a missing field at
// the field, and follows edits of either side.
import { strict as assert } from 'node:assert';
import { Workspace } from '#core/workspace/workspace.js';

const PAGE =
  'package docs\n\npage docs\nroute "/docs"\nguard public\n\nserver {\n  => { chapters, editor.name }\n}\n\nview {\n  <main>{editor.name}</main>\n}\n';
const load = (result: string) =>
  `export async function LoadDocs(ctx: unknown): Promise<${result}> {\n  void ctx;\n  return null as never;\n}\n`;

function missing(ws: Workspace): string[] {
  return ws
    .diagnosticsFor('docs/docs.kit')
    .filter((d) => d.code === 'load_missing_field')
    .map((d) => `${d.range.start.line}:${d.range.start.column} ${d.message}`);
}

describe('binding: the fields a load returns', () => {
  it('reports a declared field the result type lacks, at the field', () => {
    const ws = new Workspace({ ssr: true });
    ws.setKitFile('docs/docs.kit', PAGE);
    ws.setModule('docs/handlers.ts', load('{ chapters: string[]; editor: { nome: string } }'));
    assert.deepEqual(missing(ws), [
      '7:17 docs: LoadDocs returns no field "editor.name", which server {} declares and the view reads; ' +
        'return it from the load, or remove it from server {}',
    ]);
    // The module is fixed: the warning goes.
    ws.setModule('docs/handlers.ts', load('{ chapters: string[]; editor: { name: string } | null }'));
    assert.deepEqual(missing(ws), []);
    // The page asks for another field: it comes back, at that field.
    ws.setKitFile('docs/docs.kit', PAGE.replace('editor.name }', 'editor.name, total }'));
    assert.deepEqual(
      missing(ws).map((m) => m.split(' ')[0]),
      ['7:30'],
    );
  });

  it('lets a result kit cannot see into pass (any, unknown, records)', () => {
    for (const result of ['any', 'unknown', 'Record<string, unknown>']) {
      const ws = new Workspace({ ssr: true });
      ws.setKitFile('docs/docs.kit', PAGE);
      ws.setModule('docs/handlers.ts', load(result));
      assert.deepEqual(missing(ws), [], result);
    }
  });
});
