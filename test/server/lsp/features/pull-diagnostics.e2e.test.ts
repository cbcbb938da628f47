// Pull diagnostics (LSP 3.17) over stdio: `textDocument/diagnostic` and `workspace/diagnostic` with
// result IDs that change exactly when a file's diagnostics change (edits in another file included),
// the same diagnostics push sends, and one channel per file (push withdraws what the client pulls).
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  Diagnostic,
  DocumentDiagnosticReport,
  InitializeResult,
  WorkspaceDiagnosticReport,
} from 'vscode-languageserver-protocol';
import { waitFor } from '#test/helpers/wait.js';
import { FULL_CAPABILITIES, LspClient } from '../helpers/lsp-client.js';
import { StdioSession } from '../helpers/stdio-session.js';

const PULL_CAPABILITIES = {
  ...FULL_CAPABILITIES,
  workspace: { ...FULL_CAPABILITIES.workspace, diagnostics: { refreshSupport: true } },
  textDocument: { ...FULL_CAPABILITIES.textDocument, diagnostic: { relatedDocumentSupport: false } },
};

type Full = { kind: 'full'; resultId: string; items: Diagnostic[] };

describe('lsp pull diagnostics (stdio)', function () {
  this.timeout(60000);
  let s: StdioSession;
  let refreshes = 0;
  let aText = '';
  let version = 1;

  beforeEach(async () => {
    s = await StdioSession.start(['lsp', 'conflicts'], { capabilities: PULL_CAPABILITIES });
    refreshes = 0;
    s.client.conn.onRequest('workspace/diagnostic/refresh', () => {
      refreshes++;
      return null;
    });
    aText = s.text('a.kit');
    version = 1;
  });
  afterEach(() => s.stop());

  const pull = (file: string, previousResultId?: string) =>
    s.request<DocumentDiagnosticReport>('textDocument/diagnostic', {
      textDocument: { uri: s.uri(file) },
      ...(previousResultId ? { previousResultId } : {}),
    });

  function full(r: DocumentDiagnosticReport): Full {
    assert.equal(r.kind, 'full', JSON.stringify(r));
    return r as Full;
  }

  /** Replaces a.kit's text in the editor. */
  const editA = (text: string) => s.replace('a.kit', text, ++version);

  it('advertises pull diagnostics with inter-file dependencies and workspace reports', async () => {
    const client = LspClient.start();
    try {
      const init = (await client.initialize([s.dir], { waitForIndex: false })) as InitializeResult;
      assert.deepEqual(init.capabilities.diagnosticProvider, {
        identifier: 'kit',
        interFileDependencies: true,
        workspaceDiagnostics: true,
      });
    } finally {
      client.kill();
    }
  });

  it('answers what push sent, then unchanged; the ID changes with an edit of another file, and back', async () => {
    const b = s.uri('b.kit');
    const pushed = await s.client.waitForDiagnostics(b, (d) => d.diagnostics.length > 0);
    await s.open('a.kit');
    await s.open('b.kit');
    const withdrawn = s.client.waitForDiagnostics(b, (d) => d.diagnostics.length === 0, { fresh: true });
    const first = full(await pull('b.kit'));
    // The same diagnostics push sent, ranges and related places included.
    assert.deepEqual(first.items, pushed.diagnostics);
    assert.equal(first.items[0].code, 'duplicate_route');
    // From now on the client pulls b.kit: push withdraws its copy, so nothing shows twice.
    await withdrawn;
    assert.deepEqual(await pull('b.kit', first.resultId), { kind: 'unchanged', resultId: first.resultId });

    // An edit of a.kit that b.kit's diagnostics do not read: still unchanged.
    await editA(aText.replace('<p>A</p>', '<p>A, edited</p>'));
    assert.equal((await pull('b.kit', first.resultId)).kind, 'unchanged');
    // a.kit's route moves down a line: b.kit's diagnostic points at it, so its ID changes.
    await editA(aText.replace('route', '\nroute'));
    const moved = full(await pull('b.kit', first.resultId));
    assert.notEqual(moved.resultId, first.resultId);
    assert.equal(moved.items[0].relatedInformation?.[0].location.range.start.line, 4);
    // a.kit's route goes: b.kit has no diagnostics any more.
    await editA(aText.replace('route "/blog/{slug}"\n', ''));
    const cleared = full(await pull('b.kit', moved.resultId));
    assert.deepEqual(cleared.items, []);
    assert.notEqual(cleared.resultId, moved.resultId);
    assert.equal((await pull('b.kit', cleared.resultId)).kind, 'unchanged');
    // Back as it was: the same diagnostics, the same ID as the first time.
    await editA(aText);
    const back = full(await pull('b.kit', cleared.resultId));
    assert.equal(back.resultId, first.resultId);
    assert.deepEqual(back.items, first.items);
    // Push sent b.kit nothing meanwhile: the client pulls it.
    assert.deepEqual(s.client.diagnostics.get(b)?.diagnostics, []);
  });

  it('workspace reports: files with diagnostics, unchanged ones by their ID, cleared ones', async () => {
    const b = s.uri('b.kit');
    const pushed = await s.client.waitForDiagnostics(b, (d) => d.diagnostics.length > 0);
    const first = await s.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [] });
    assert.deepEqual(
      first.items.map((i) => [s.file(i.uri), i.kind, i.version]),
      [['b.kit', 'full', null]],
    );
    const report = first.items[0] as Full & { uri: string };
    assert.deepEqual(report.items, pushed.diagnostics);
    const previousResultIds = [{ uri: b, value: report.resultId }];
    const again = await s.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds });
    assert.deepEqual(again.items, [{ kind: 'unchanged', uri: b, version: null, resultId: report.resultId }]);

    // a.kit changes on disk (not open): the client is asked to pull again; b.kit's report is new, and
    // a.kit, a page without a route now, has diagnostics of its own.
    const refreshed = refreshes;
    writeFileSync(join(s.dir, 'a.kit'), aText.replace('route "/blog/{slug}"\n', ''));
    await s.client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: s.uri('a.kit'), type: 2 }],
    });
    const after = await s.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds });
    assert.deepEqual(
      after.items.map((i) => [s.file(i.uri), i.kind, 'items' in i ? i.items.length : undefined]),
      [
        ['a.kit', 'full', 1],
        ['b.kit', 'full', 0],
      ],
    );
    assert.notEqual((after.items[1] as Full).resultId, report.resultId);
    await waitFor(() => refreshes > refreshed, { what: 'workspace/diagnostic/refresh to be sent' });
    // A file that comes after the first report is in the next one.
    writeFileSync(join(s.dir, 'c.kit'), aText.replace('page a', 'page c'));
    await s.client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: s.uri('c.kit'), type: 1 }],
    });
    const added = await s.request<WorkspaceDiagnosticReport>('workspace/diagnostic', {
      previousResultIds: after.items.map((i) => ({ uri: i.uri, value: (i as Full).resultId })),
    });
    assert.deepEqual(
      added.items.filter((i) => i.kind === 'full').map((i) => [s.file(i.uri), 'items' in i ? i.items.length : 0]),
      [['c.kit', 1]],
    );
    // A file the client knows that left the workspace is reported empty.
    const gone = s.uri('gone.kit');
    const left = await s.request<WorkspaceDiagnosticReport>('workspace/diagnostic', {
      previousResultIds: [{ uri: gone, value: 'x' }],
    });
    assert.deepEqual(
      left.items.filter((i) => i.uri === gone).map((i) => [i.kind, 'items' in i ? i.items.length : undefined]),
      [['full', 0]],
    );
  });

  it('a pulled document closed goes back to push, unless the client pulls the workspace', async () => {
    const b = s.uri('b.kit');
    await s.client.waitForDiagnostics(b, (d) => d.diagnostics.length > 0);
    await s.open('b.kit');
    const withdrawn = s.client.waitForDiagnostics(b, (d) => d.diagnostics.length === 0, { fresh: true });
    const pulled = full(await pull('b.kit'));
    await withdrawn;
    const pushedAgain = s.client.waitForDiagnostics(b, (d) => d.diagnostics.length > 0, { fresh: true });
    await s.client.close(b);
    assert.deepEqual((await pushedAgain).diagnostics, pulled.items);
  });
});
