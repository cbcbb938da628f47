// Protocol tests: `kit lsp --stdio` spawned from the compiled output, driven by a real JSON-RPC client.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { createProtocolConnection, IPCMessageReader, IPCMessageWriter } from 'vscode-languageserver-protocol/node';
import type {
  CodeAction,
  CompletionItem,
  Hover,
  InitializeResult,
  Location,
  PublishDiagnosticsParams,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { fixture, outDir } from '../../helpers/repo.js';
import { fileUri, LspClient } from './helpers/lsp-client.js';
import { runInProcess } from '../cli/cli-harness.js';

function tempCopy(...parts: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'kit-lsp-'));
  cpSync(fixture(...parts), dir, { recursive: true });
  return dir;
}

describe('kit lsp over stdio', function () {
  this.timeout(30000);
  let dir: string;
  let client: LspClient;

  afterEach(async () => {
    if (client && client.child.exitCode === null) client.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('initializes with incremental sync and the advertised features, and exits cleanly after shutdown', async () => {
    dir = tempCopy('lsp', 'conflicts');
    client = LspClient.start();
    const init = await client.initialize([dir]);
    const caps = init.capabilities;
    assert.equal(init.serverInfo?.name, 'kit');
    assert.deepEqual(caps.textDocumentSync, { openClose: true, change: 2 });
    for (const k of [
      'hoverProvider',
      'definitionProvider',
      'referencesProvider',
      'documentSymbolProvider',
      'workspaceSymbolProvider',
      'foldingRangeProvider',
      'documentFormattingProvider',
    ] as const)
      assert.equal(caps[k], true, k);
    assert.deepEqual(caps.renameProvider, { prepareProvider: true });
    assert.ok(caps.semanticTokensProvider && caps.completionProvider && caps.codeActionProvider);
    const watcher = client.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles');
    assert.ok(watcher, 'the file watcher is registered dynamically');
    assert.equal(await client.shutdown(), 0);
  });

  it('speaks the Node IPC transport the VS Code extension uses', async () => {
    dir = tempCopy('lsp', 'conflicts');
    const child = fork(join(outDir, 'server', 'src', 'cli', 'main.js'), ['lsp', '--node-ipc'], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const conn = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    try {
      const diags = new Promise<PublishDiagnosticsParams>((resolve) =>
        conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
          if (p.diagnostics.length) resolve(p);
        }),
      );
      conn.listen();
      const init = (await conn.sendRequest('initialize', {
        processId: process.pid,
        rootUri: null,
        capabilities: {},
        workspaceFolders: [{ uri: fileUri(dir), name: 'c' }],
      })) as InitializeResult;
      assert.equal(init.serverInfo?.name, 'kit');
      await conn.sendNotification('initialized', {});
      const d = await diags;
      assert.equal(d.uri, fileUri(join(dir, 'b.kit')));
      await conn.sendRequest('shutdown');
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await conn.sendNotification('exit');
      assert.equal(await exited, 0);
    } finally {
      conn.dispose();
      if (child.exitCode === null) child.kill();
    }
  });

  it('publishes cross-file diagnostics and keeps them true as either side changes', async () => {
    dir = tempCopy('lsp', 'conflicts');
    client = LspClient.start();
    await client.initialize([dir]);
    const a = fileUri(join(dir, 'a.kit'));
    const b = fileUri(join(dir, 'b.kit'));
    const dup = await client.waitForDiagnostics(b, (d) => d.diagnostics.length > 0);
    const [d] = dup.diagnostics;
    assert.equal(d.code, 'duplicate_route');
    assert.equal(d.source, 'kit');
    assert.equal(d.severity, 1);
    assert.deepEqual(d.range, { start: { line: 3, character: 0 }, end: { line: 3, character: 18 } });
    assert.equal(d.relatedInformation?.[0].location.uri, a);
    assert.deepEqual(d.relatedInformation?.[0].location.range.start, { line: 3, character: 0 });
    assert.match(
      d.message as string,
      /duplicate page route "\/blog\/\{id\}"; first declared by page a and duplicated by page b \(a\.kit and b\.kit\)/,
    );

    // Deleting A's route clears B's diagnostic without touching B.
    const aText = readFileSync(join(dir, 'a.kit'), 'utf8');
    await client.open(a, aText, 1);
    const cleared = client.waitForDiagnostics(b, (x) => x.diagnostics.length === 0, { fresh: true });
    await client.change(a, 2, [
      { range: { start: { line: 3, character: 0 }, end: { line: 4, character: 0 } }, text: '' },
    ]);
    await cleared;
    assert.equal(client.diagnostics.get(a)?.version, 2);
    assert.deepEqual(
      client.diagnostics.get(a)?.diagnostics.map((x) => x.code),
      ['missing_route'],
    );

    // Putting it back (as another shape that still collides) brings the diagnostic back.
    const back = client.waitForDiagnostics(b, (x) => x.diagnostics.some((y) => y.code === 'duplicate_route'), {
      fresh: true,
    });
    await client.change(a, 3, [
      { range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: 'route "/blog/{name}"\n' },
    ]);
    await back;
    assert.equal(await client.shutdown(), 0);
  });

  it('answers hover, definition, completion, code actions, rename, symbols and formatting', async () => {
    dir = tempCopy('lsp', 'site');
    client = LspClient.start();
    await client.initialize([dir]);
    const contact = fileUri(join(dir, 'contact.kit'));
    const text = readFileSync(join(dir, 'contact.kit'), 'utf8');
    await client.open(contact, text, 1);
    const pos = { line: 7, character: 5 }; // act S|end
    const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri: contact }, position: pos });
    assert.match((hover.contents as { value: string }).value, /\*\*POST\*\* `\/contact\/send` — action `Send`/);
    const def = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri: contact },
      position: pos,
    });
    assert.deepEqual(
      def.map((l) => l.uri),
      [fileUri(join(dir, 'handlers.ts'))],
    );
    const refs = await client.request<Location[]>('textDocument/references', {
      textDocument: { uri: contact },
      position: pos,
      context: { includeDeclaration: true },
    });
    assert.equal(refs.length, 3);

    const completion = await client.request<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri: contact },
      position: { line: 4, character: 6 },
    });
    assert.ok(completion.some((c) => c.label === 'public'));

    const prepared = await client.request<{ placeholder: string }>('textDocument/prepareRename', {
      textDocument: { uri: contact },
      position: pos,
    });
    assert.equal(prepared.placeholder, 'Send');
    const edit = await client.request<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: contact },
      position: pos,
      newName: 'Deliver',
    });
    assert.deepEqual(Object.keys(edit.changes ?? {}).sort(), [contact, fileUri(join(dir, 'handlers.ts'))].sort());
    await assert.rejects(
      client.request('textDocument/rename', { textDocument: { uri: contact }, position: pos, newName: 'lower' }),
      /exported identifier/,
    );

    const symbols = await client.request<{ name: string }[]>('textDocument/documentSymbol', {
      textDocument: { uri: contact },
    });
    assert.equal(symbols[0].name, 'page contact');
    const ws = await client.request<{ name: string }[]>('workspace/symbol', { query: '/blog' });
    assert.deepEqual(
      ws.map((s) => s.name),
      ['GET /blog/{slug}/{page:int}'],
    );
    const tokens = await client.request<{ data: number[] }>('textDocument/semanticTokens/full', {
      textDocument: { uri: contact },
    });
    assert.ok(tokens.data.length > 0 && tokens.data.length % 5 === 0);

    // A guardless page: diagnostic, quick fix, formatting.
    const draft = fileUri(join(dir, 'draft.kit'));
    const draftText = 'package site\n\npage   draft\nroute "/draft"\n\nview {\n<p>x</p>\n}\n';
    const got = client.waitForDiagnostics(draft, (d) => d.diagnostics.length > 0);
    await client.open(draft, draftText, 1);
    const diags = (await got).diagnostics;
    assert.deepEqual(
      diags.map((d) => [d.code, d.severity]),
      [['missing_page_guard', 2]],
    );
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: draft },
      range: diags[0].range,
      context: { diagnostics: diags },
    });
    assert.equal(actions[0].title, 'Add `guard public`');
    assert.deepEqual(
      actions[0].diagnostics?.map((d) => d.code),
      ['missing_page_guard'],
    );
    const fmt = await client.request<TextEdit[]>('textDocument/formatting', {
      textDocument: { uri: draft },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.equal(fmt[0].newText, 'package site\n\npage draft\nroute "/draft"\n\nview {\n  <p>x</p>\n}\n');

    const routes = await client.request<{
      version: number;
      workspaces: { routes: { route: string; kind: string }[] }[];
    }>('kit/routes', {});
    assert.equal(routes.version, 1);
    assert.ok(routes.workspaces[0].routes.some((r) => r.route === '/contact/send' && r.kind === 'action'));
    const tree = await client.request<{ version: number; workspaces: { report: { root: { kind: string } } }[] }>(
      'kit/tree',
      {},
    );
    assert.equal(tree.workspaces[0].report.root.kind, 'program');
    assert.equal(await client.shutdown(), 0);
  });

  it('answers kit/tree for files it indexed but never opened exactly as kit inspect tree does', async () => {
    // Files indexed from disk keep no markup (it is re-parsed when a feature reads it).
    dir = tempCopy('lsp', 'site');
    client = LspClient.start();
    await client.initialize([dir]);
    await client.waitForDiagnostics(fileUri(join(dir, 'docs', 'docs.kit')), () => true);
    const tree = await client.request<{ workspaces: { report: unknown }[] }>('kit/tree', {});
    const cli = await runInProcess(['inspect', 'tree', '--json', '.'], { cwd: dir });
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(tree.workspaces[0].report, JSON.parse(cli.stdout));
    assert.equal(await client.shutdown(), 0);
  });

  it('follows the kit.ssr setting and files changed on disk', async () => {
    dir = tempCopy('lsp', 'site');
    client = LspClient.start();
    await client.initialize([dir]);
    const docs = fileUri(join(dir, 'docs', 'docs.kit'));
    await client.waitForDiagnostics(docs, (d) => d.diagnostics.some((x) => x.code === 'missing_ssr_addon'));
    client.settings = { ssr: true };
    const cleared = client.waitForDiagnostics(docs, (d) => d.diagnostics.length === 0, { fresh: true });
    await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await cleared;

    // A file created on disk that collides with blog/post.kit.
    const clash = join(dir, 'blog', 'clash.kit');
    writeFileSync(
      clash,
      'package site\n\npage clash\nroute "/blog/{a}/{b:int}"\nguard public\nrender ssr\n\nview {\n  <p>x</p>\n}\n',
    );
    const post = fileUri(join(dir, 'blog', 'post.kit'));
    const appeared = client.waitForDiagnostics(post, (d) => d.diagnostics.some((x) => x.code === 'duplicate_route'), {
      fresh: true,
    });
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: fileUri(clash), type: 1 }],
    });
    const dup = (await appeared).diagnostics.find((x) => x.code === 'duplicate_route')!;
    assert.equal(dup.relatedInformation?.[0].location.uri, fileUri(clash));
    unlinkSync(clash);
    const gone = client.waitForDiagnostics(post, (d) => d.diagnostics.length === 0, { fresh: true });
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: fileUri(clash), type: 3 }],
    });
    await gone;

    // A handler removed on disk: the action loses its binding.
    const contact = fileUri(join(dir, 'contact.kit'));
    const handlers = join(dir, 'handlers.ts');
    writeFileSync(
      handlers,
      readFileSync(handlers, 'utf8').replace('export async function Send(', 'async function Send('),
    );
    const missing = client.waitForDiagnostics(
      contact,
      (d) => d.diagnostics.some((x) => x.code === 'missing_backend_handler'),
      { fresh: true },
    );
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: fileUri(handlers), type: 2 }],
    });
    assert.equal((await missing).diagnostics.find((x) => x.code === 'missing_backend_handler')?.severity, 2);
    assert.equal(await client.shutdown(), 0);
  });

  it('indexes workspace folders added later, each with its own model', async () => {
    dir = tempCopy('lsp', 'site');
    const second = tempCopy('lsp', 'conflicts');
    try {
      client = LspClient.start();
      await client.initialize([dir]);
      const indexed = client.waitForStatuses(1);
      await client.conn.sendNotification('workspace/didChangeWorkspaceFolders', {
        event: { added: [{ uri: fileUri(second), name: 'conflicts' }], removed: [] },
      });
      await indexed;
      await client.waitForDiagnostics(fileUri(join(second, 'b.kit')), (d) =>
        d.diagnostics.some((x) => x.code === 'duplicate_route'),
      );
      // The site's /blog/{slug}/{page:int} and the other folder's /blog/{slug} never meet.
      assert.deepEqual(client.diagnostics.get(fileUri(join(dir, 'blog', 'post.kit')))?.diagnostics ?? [], []);
      const cleared = client.waitForDiagnostics(fileUri(join(second, 'b.kit')), (d) => d.diagnostics.length === 0, {
        fresh: true,
      });
      await client.conn.sendNotification('workspace/didChangeWorkspaceFolders', {
        event: { added: [], removed: [{ uri: fileUri(second), name: 'conflicts' }] },
      });
      await cleared;
      assert.equal(await client.shutdown(), 0);
    } finally {
      rmSync(second, { recursive: true, force: true });
    }
  });

  it('survives malformed JSON-RPC, unknown methods, unknown documents, huge and binary documents and edit storms', async () => {
    dir = tempCopy('lsp', 'site');
    client = LspClient.start();
    await client.initialize([dir]);
    let raw = '';
    client.child.stdout!.on('data', (b: Buffer) => {
      raw += b.toString();
    });
    const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    client.child.stdin!.write(frame('{"jsonrpc": "2.0", "id": 7, "method": '));
    client.child.stdin!.write(frame('[1, 2]'));
    client.child.stdin!.write(frame('{"jsonrpc": "1.0", "id": 8, "method": "x"}'));
    await assert.rejects(client.request('kit/noSuchMethod', {}), (e: { code?: number }) => e.code === -32601);
    assert.match(raw, /"id":null,"error":\{"code":-32700,"message":"Parse error/);
    assert.match(raw, /"error":\{"code":-32600,"message":"Invalid Request: batch messages are not supported"/);
    assert.match(raw, /"id":8,"error":\{"code":-32600/);

    const unknown = fileUri(join(dir, 'nowhere.kit'));
    assert.equal(
      await client.request('textDocument/hover', {
        textDocument: { uri: unknown },
        position: { line: 0, character: 0 },
      }),
      null,
    );
    assert.deepEqual(
      await client.request('textDocument/completion', {
        textDocument: { uri: unknown },
        position: { line: 0, character: 0 },
      }),
      [],
    );
    await client.change(unknown, 2, [{ text: 'x' }]); // a change to a document that is not open

    const huge = fileUri(join(dir, 'huge.kit'));
    const big = client.waitForDiagnostics(huge, (d) => d.diagnostics.length > 0);
    await client.open(huge, 'package site\n' + '// filler line to grow the file past the limit\n'.repeat(190000), 1);
    assert.deepEqual(
      (await big).diagnostics.map((d) => d.code),
      ['document_too_large'],
    );
    assert.equal(
      await client.request('textDocument/hover', { textDocument: { uri: huge }, position: { line: 0, character: 1 } }),
      null,
    );

    const binary = fileUri(join(dir, 'blob.kit'));
    const bin = client.waitForDiagnostics(binary, (d) => d.diagnostics.length > 0);
    await client.open(binary, 'package site\u0000\u0001\u0002', 1);
    assert.deepEqual(
      (await bin).diagnostics.map((d) => d.code),
      ['binary_document'],
    );

    // A storm of edits: 500 one-character changes sent at once end in one consistent state.
    const storm = fileUri(join(dir, 'storm.kit'));
    await client.open(storm, 'package site\n\npage storm\nroute "/s"\nguard public\n\nview {\n  <p></p>\n}\n', 1);
    for (let v = 2; v <= 501; v++)
      void client.change(storm, v, [
        {
          range: { start: { line: 7, character: 5 }, end: { line: 7, character: 5 } },
          text: v === 501 ? '{param("nope")}' : 'a',
        },
      ]);
    const last = await client.waitForDiagnostics(storm, (d) => d.version === 501);
    assert.deepEqual(
      last.diagnostics.map((d) => d.code),
      ['unknown_route_param'],
    );
    // Stale versions were skipped: far fewer publications than edits.
    assert.ok(client.publishCount.get(storm)! < 50, `published ${client.publishCount.get(storm)} times for 500 edits`);
    assert.ok(client.child.exitCode === null, 'still running');
    assert.equal(await client.shutdown(), 0);
    assert.equal(client.stderr, '');
  });
});
