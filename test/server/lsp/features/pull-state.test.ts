// The bookkeeping of pulled diagnostics on its own, over a source whose diagnostics the test sets:
// which answers are `unchanged`, when an ID changes, which files a workspace report names, when
// push is told to withdraw, and when the client is asked to pull again.
import { strict as assert } from 'node:assert';
import type { Diagnostic } from 'vscode-languageserver';
import { PullDiagnostics, type PullSource } from '#lsp/features/pull-diagnostics.js';

function diagnostic(message: string, line = 0): Diagnostic {
  return { range: { start: { line, character: 0 }, end: { line, character: 1 } }, message, source: 'kit' };
}

/** Files and their diagnostics, the open documents, and what the bookkeeping asked of push. */
class Source implements PullSource {
  files_ = new Map<string, Diagnostic[]>();
  open = new Map<string, number>();
  computed: string[] = [];
  withdrawn: string[] = [];
  refreshes = 0;
  canonical(uri: string): string {
    return uri.replace('%3A', ':');
  }
  diagnosticsOf(uri: string): Diagnostic[] {
    this.computed.push(uri);
    return this.files_.get(uri) ?? [];
  }
  *files(): Iterable<{ uri: string }> {
    for (const uri of this.files_.keys()) yield { uri };
  }
  exists(uri: string): boolean {
    return this.files_.has(uri);
  }
  openVersions(): Map<string, number> {
    return this.open;
  }
  withdraw(uri: string): void {
    this.withdrawn.push(uri);
  }
  withdrawAll(): void {
    this.withdrawn.push('*');
  }
  refresh(): void {
    this.refreshes++;
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('lsp pull diagnostics: bookkeeping', () => {
  it('answers from memory until a file is touched; its ID follows its diagnostics, not the touches', () => {
    const src = new Source();
    src.files_.set('file:///a.kit', [diagnostic('one')]);
    const pull = new PullDiagnostics(src);
    const first = pull.document('file:///a.kit', undefined);
    assert.equal(first.kind, 'full');
    const id = (first as { resultId: string }).resultId;
    assert.deepEqual(pull.document('file:///a.kit', id), { kind: 'unchanged', resultId: id });
    assert.equal(src.computed.length, 1, 'the unchanged answer came from memory');
    // Touched, the same diagnostics: recomputed, the same ID.
    pull.touch('file:///a.kit', true);
    assert.deepEqual(pull.document('file:///a.kit', id), { kind: 'unchanged', resultId: id });
    assert.equal(src.computed.length, 2);
    // Touched, other diagnostics: a new ID; back to the first ones: the first ID again.
    src.files_.set('file:///a.kit', [diagnostic('one', 1)]);
    pull.touch('file:///a.kit', true);
    const moved = pull.document('file:///a.kit', id) as { kind: string; resultId: string };
    assert.equal(moved.kind, 'full');
    assert.notEqual(moved.resultId, id);
    src.files_.set('file:///a.kit', [diagnostic('one')]);
    pull.touch('file:///a.kit', true);
    assert.equal((pull.document('file:///a.kit', moved.resultId) as { resultId: string }).resultId, id);
    // A URI spelled otherwise names the same file.
    src.files_.set('file:///c:/x.kit', [diagnostic('x')]);
    const x = pull.document('file:///c:/x.kit', undefined) as { resultId: string };
    assert.equal(pull.document('file:///c%3A/x.kit', x.resultId).kind, 'unchanged');
  });

  it('an open document pulled is withdrawn from push until it is closed', () => {
    const src = new Source();
    src.files_.set('file:///a.kit', [diagnostic('one')]);
    src.files_.set('file:///b.kit', []);
    const pull = new PullDiagnostics(src);
    pull.document('file:///b.kit', undefined);
    assert.equal(pull.pulls('file:///b.kit'), false, 'a document that is not open stays with push');
    src.open.set('file:///a.kit', 3);
    pull.document('file:///a.kit', undefined);
    assert.equal(pull.pulls('file:///a.kit'), true);
    assert.deepEqual(src.withdrawn, ['file:///a.kit']);
    assert.equal(pull.closed('file:///a.kit'), true, 'push takes it back');
    assert.equal(pull.pulls('file:///a.kit'), false);
    assert.equal(pull.closed('file:///a.kit'), false);
  });

  it('workspace reports: every file once, then the touched, those with diagnostics and those named', () => {
    const src = new Source();
    src.files_.set('file:///a.kit', [diagnostic('a')]);
    src.files_.set('file:///b.kit', []);
    src.files_.set('file:///c.kit', []);
    src.open.set('file:///a.kit', 7);
    const pull = new PullDiagnostics(src);
    const first = pull.workspaceReport([]);
    assert.deepEqual(
      first.items.map((i) => [i.uri, i.kind, i.version]),
      [['file:///a.kit', 'full', 7]],
    );
    assert.deepEqual(src.withdrawn, ['*'], 'push withdraws everything it sent');
    assert.equal(pull.pulls('file:///c.kit'), true, 'the client owns every file now');
    const ids = first.items.map((i) => ({ uri: i.uri, value: (i as { resultId: string }).resultId }));
    src.computed = [];
    assert.deepEqual(
      pull.workspaceReport(ids).items.map((i) => [i.uri, i.kind]),
      [['file:///a.kit', 'unchanged']],
    );
    assert.deepEqual(src.computed, [], 'nothing was computed again');
    // c gets diagnostics, a loses them, b leaves: only the touched files are computed.
    src.files_.set('file:///c.kit', [diagnostic('c')]);
    src.files_.set('file:///a.kit', []);
    src.files_.delete('file:///b.kit');
    for (const uri of ['file:///a.kit', 'file:///b.kit', 'file:///c.kit']) pull.touch(uri, false);
    const after = pull.workspaceReport(ids);
    assert.deepEqual(
      after.items.map((i) => [i.uri, i.kind, 'items' in i ? i.items.length : undefined]),
      [
        ['file:///a.kit', 'full', 0],
        ['file:///c.kit', 'full', 1],
      ],
    );
    assert.deepEqual([...src.computed].sort(), ['file:///a.kit', 'file:///b.kit', 'file:///c.kit']);
  });

  it('asks the client to pull again once per turn, for changes it did not make, to files it pulls', async () => {
    const src = new Source();
    src.files_.set('file:///a.kit', []);
    src.open.set('file:///a.kit', 1);
    const pull = new PullDiagnostics(src);
    pull.touch('file:///a.kit', false);
    await turn();
    assert.equal(src.refreshes, 0, 'a file the client does not pull');
    pull.document('file:///a.kit', undefined);
    pull.touch('file:///a.kit', true);
    await turn();
    assert.equal(src.refreshes, 0, 'the client’s own edit');
    pull.touch('file:///a.kit', false);
    pull.touch('file:///a.kit', false);
    await turn();
    assert.equal(src.refreshes, 1);
  });
});
