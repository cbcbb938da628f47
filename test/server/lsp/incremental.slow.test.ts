// The editor's update path — apply the change, `reparseKit`, `setKitFile` with the new AST, `flush` —
// must always end where a fresh load of the same texts ends, while doing as little as it can: an
// edit inside a view touches no bucket, an edit that only moves ranges re-validates only the
// buckets whose diagnostics point into the file.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseKit, reparseKit } from '#grammar/index.js';
import { Workspace } from '#core/workspace/workspace.js';
import { fixture } from '../../helpers/repo.js';
import { setup } from './helpers/features.js';

function edit(ws: Workspace, path: string, text: string): Set<string> {
  const prev = ws.kit(path)!;
  ws.setKitFile(path, text, reparseKit(prev.ast, prev.text, text));
  return ws.flush();
}

function fresh(texts: Map<string, string>): Workspace {
  const ws = new Workspace({ ssr: true });
  for (const [p, t] of texts) if (p.endsWith('.kit')) ws.setKitFile(p, t);
  for (const [p, t] of texts) if (!p.endsWith('.kit')) ws.setModule(p, t);
  ws.flush();
  return ws;
}

function snapshot(ws: Workspace): string {
  return JSON.stringify(ws.allDiagnostics());
}

describe('incremental updates', () => {
  it('an edit inside a view re-validates the file alone', () => {
    const s = setup({}, { base: fixture('lsp', 'conflicts') });
    const a = s.ws.kit('a.kit')!.text;
    const affected = edit(s.ws, 'a.kit', a.replace('<p>A</p>', '<p>Aa <b>more</b></p>'));
    assert.deepEqual([...affected], ['a.kit']);
    assert.deepEqual(
      s.ws.diagnosticsFor('b.kit').map((d) => d.code),
      ['duplicate_route'],
    );
  });

  it('an edit that moves the first declaration re-validates the buckets pointing at it', () => {
    const s = setup({}, { base: fixture('lsp', 'conflicts') });
    const a = s.ws.kit('a.kit')!.text;
    const affected = edit(s.ws, 'a.kit', '// a comment above everything\n' + a);
    assert.deepEqual([...affected].sort(), ['a.kit', 'b.kit']);
    const related = s.ws.diagnosticsFor('b.kit')[0].related![0];
    assert.equal(related.range.start.line, 4, 'the related location follows the moved route');
  });

  it('removing a route leaves the other file with nothing, and puts it back', () => {
    const s = setup({}, { base: fixture('lsp', 'conflicts') });
    const a = s.ws.kit('a.kit')!.text;
    const affected = edit(s.ws, 'a.kit', a.replace('route "/blog/{slug}"\n', ''));
    assert.ok(affected.has('b.kit'));
    assert.deepEqual(s.ws.diagnosticsFor('b.kit'), []);
    edit(s.ws, 'a.kit', a);
    assert.deepEqual(
      s.ws.diagnosticsFor('b.kit').map((d) => d.code),
      ['duplicate_route'],
    );
  });

  it('defers binding buckets on request and evaluates them on the next plain flush', () => {
    const ws = new Workspace({ ssr: true });
    ws.setKitFile(
      'p.kit',
      'package site\n\npage p\nroute "/p"\nguard public\nact Save POST "/p/save"\n\nview {\n  <p>x</p>\n}\n',
    );
    ws.setModule('handlers.ts', 'export const other = 1;\n');
    ws.flush({ defer: (k) => k.startsWith('bind:') });
    assert.ok(ws.deferredCount > 0);
    assert.deepEqual(ws.diagnosticsFor('p.kit'), [], 'queries do not run deferred buckets');
    const affected = ws.flush();
    assert.equal(ws.deferredCount, 0);
    assert.ok(affected.has('p.kit'));
    assert.deepEqual(
      ws.diagnosticsFor('p.kit').map((d) => d.code),
      ['missing_backend_handler'],
    );
  });

  it('random edit sequences end where a fresh load ends (property)', () => {
    const base = setup({}, { base: fixture('lsp', 'site') });
    const paths = [...base.texts.keys()].filter((p) => p.endsWith('.kit'));
    const snippets = [
      'x',
      '\n',
      ' ',
      '}',
      '{',
      '"',
      '<p>',
      '</p>',
      '<Card heading="h" />',
      'act Go POST "/go"\n',
      'route "/blog/{slug}/{n:int}"\n',
      'guard public\n',
      'layout main\n',
      'page home\n',
      '{param("slug")}',
      'view {\n',
      '// c\n',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(paths.length - 1), fc.nat(), fc.nat(12), fc.nat(snippets.length - 1)), {
          minLength: 1,
          maxLength: 25,
        }),
        (edits) => {
          const s = setup({}, { base: fixture('lsp', 'site') });
          const docs = new Map(paths.map((p) => [p, TextDocument.create(`file:///${p}`, 'kit', 1, s.texts.get(p)!)]));
          let version = 1;
          for (const [pi, at, del, si] of edits) {
            const path = paths[pi];
            const doc = docs.get(path)!;
            const text = doc.getText();
            const start = doc.positionAt(at % (text.length + 1));
            const end = doc.positionAt(Math.min(text.length, (at % (text.length + 1)) + del));
            const next = TextDocument.update(doc, [{ range: { start, end }, text: snippets[si] }], ++version);
            docs.set(path, next);
            edit(s.ws, path, next.getText());
          }
          const texts = new Map(s.texts);
          for (const [p, d] of docs) texts.set(p, d.getText());
          assert.equal(snapshot(s.ws), snapshot(fresh(texts)));
          for (const [p, d] of docs)
            assert.deepEqual(s.ws.kit(p)!.ast, parseKit(d.getText(), p), `${p}: incremental AST differs`);
          return true;
        },
      ),
      { numRuns: 40, seed: 42 },
    );
  });
});
