// Every request the language server advertises, sent over stdio with params that do not fit (null,
// absent, fields missing, fields of the wrong type or out of range): each is answered with
// InvalidParams naming the field, never with the text of an internal error, and the server goes
// on answering. Notifications that do not fit are ignored with a log line and change nothing.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InitializeResult, ServerCapabilities } from 'vscode-languageserver-protocol';
import { fixture } from '../../helpers/repo.js';
import { waitFor } from '../../helpers/wait.js';
import { fileUri, LspClient } from './helpers/lsp-client.js';

interface RawMessage {
  id?: number | string | null;
  result?: unknown;
  error?: { code: number; message: string };
}

/** Reads the server's raw frames beside the client, to see answers to requests sent by hand. */
class RawAnswers {
  private text = '';
  readonly messages: RawMessage[] = [];

  constructor(client: LspClient) {
    client.child.stdout!.on('data', (b: Buffer) => {
      this.text += b.toString('latin1');
      for (;;) {
        const end = this.text.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.text.slice(0, end))?.[1]);
        if (this.text.length < end + 4 + length) return;
        const body = Buffer.from(this.text.slice(end + 4, end + 4 + length), 'latin1').toString('utf8');
        this.text = this.text.slice(end + 4 + length);
        this.messages.push(JSON.parse(body) as RawMessage);
      }
    });
  }

  answer(id: number, ms = 10_000): Promise<RawMessage> {
    return waitFor(() => this.messages.find((x) => x.id === id && ('result' in x || 'error' in x)), {
      what: `the answer to request ${id}`,
      timeout: ms,
    });
  }
}

function send(client: LspClient, message: Record<string, unknown>): void {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  client.child.stdin!.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/** The request each advertised capability stands for, and params that fit it. */
function advertised(caps: ServerCapabilities, uri: string): Map<string, Record<string, unknown>> {
  const doc = { textDocument: { uri } };
  const at = { ...doc, position: { line: 4, character: 3 } };
  const range = { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } };
  const byCapability: Record<string, [string, Record<string, unknown>][]> = {
    hoverProvider: [['textDocument/hover', at]],
    codeLensProvider: [['textDocument/codeLens', doc]],
    definitionProvider: [['textDocument/definition', at]],
    referencesProvider: [['textDocument/references', { ...at, context: { includeDeclaration: true } }]],
    renameProvider: [
      ['textDocument/prepareRename', at],
      ['textDocument/rename', { ...at, newName: 'other' }],
    ],
    completionProvider: [['textDocument/completion', at]],
    documentSymbolProvider: [['textDocument/documentSymbol', doc]],
    workspaceSymbolProvider: [['workspace/symbol', { query: 'home' }]],
    foldingRangeProvider: [['textDocument/foldingRange', doc]],
    semanticTokensProvider: [['textDocument/semanticTokens/full', doc]],
    documentFormattingProvider: [['textDocument/formatting', { ...doc, options: { tabSize: 2, insertSpaces: true } }]],
    codeActionProvider: [['textDocument/codeAction', { ...doc, range, context: { diagnostics: [] } }]],
    documentHighlightProvider: [['textDocument/documentHighlight', at]],
    linkedEditingRangeProvider: [['textDocument/linkedEditingRange', at]],
    selectionRangeProvider: [['textDocument/selectionRange', { ...doc, positions: [at.position] }]],
    signatureHelpProvider: [['textDocument/signatureHelp', at]],
    callHierarchyProvider: [
      ['textDocument/prepareCallHierarchy', at],
      ['callHierarchy/incomingCalls', { item: { name: 'home', kind: 1, uri, range, selectionRange: range } }],
      ['callHierarchy/outgoingCalls', { item: { name: 'home', kind: 1, uri, range, selectionRange: range } }],
    ],
    diagnosticProvider: [
      ['textDocument/diagnostic', doc],
      ['workspace/diagnostic', { previousResultIds: [{ uri, value: 'x' }] }],
    ],
    documentLinkProvider: [['textDocument/documentLink', doc]],
    inlayHintProvider: [['textDocument/inlayHint', { ...doc, range }]],
  };
  const out = new Map<string, Record<string, unknown>>();
  for (const [cap, value] of Object.entries(caps)) {
    if (cap === 'textDocumentSync' || cap === 'workspace' || value === undefined || value === false) continue;
    const requests = byCapability[cap];
    assert.ok(requests, `the test knows no request for the advertised ${cap}: add it here`);
    for (const [method, params] of requests) out.set(method, params);
  }
  return out;
}

/** Variants of `good` that do not fit: each field missing, then each field of the wrong type. */
function badVariants(good: Record<string, unknown>): { what: string; params: unknown }[] {
  const out: { what: string; params: unknown }[] = [
    { what: 'null params', params: null },
    { what: 'no params', params: undefined },
    { what: 'an array', params: [] },
    { what: 'a string', params: 'x' },
  ];
  const walk = (value: Record<string, unknown>, path: string[]) => {
    for (const [k, v] of Object.entries(value)) {
      const at = [...path, k];
      const set = (replacement: unknown): unknown => {
        const copy = structuredClone(good);
        let o = copy as Record<string, unknown>;
        for (const p of at.slice(0, -1)) o = o[p] as Record<string, unknown>;
        if (replacement === undefined) delete o[k];
        else o[k] = replacement;
        return copy;
      };
      out.push({ what: `${at.join('.')} missing`, params: set(undefined) });
      out.push({ what: `${at.join('.')} null`, params: set(null) });
      if (typeof v === 'number') {
        out.push({ what: `${at.join('.')} a string`, params: set(String(v)) });
        out.push({ what: `${at.join('.')} negative`, params: set(-1) });
        out.push({ what: `${at.join('.')} fractional`, params: set(v + 0.5) });
      } else if (typeof v === 'string') out.push({ what: `${at.join('.')} a number`, params: set(7) });
      else if (typeof v === 'boolean') out.push({ what: `${at.join('.')} a string`, params: set('yes') });
      else if (Array.isArray(v)) out.push({ what: `${at.join('.')} an object`, params: set({}) });
      else if (typeof v === 'object' && v !== null) {
        out.push({ what: `${at.join('.')} a number`, params: set(1) });
        walk(v as Record<string, unknown>, at);
      }
    }
  };
  walk(good, []);
  // Optional fields the protocol allows to be absent are not part of `good`, so every variant is wrong.
  return out;
}

/** Text that only an internal error would put in an answer. */
const INTERNAL = /Cannot read|undefined|TypeError|is not a function|is not iterable|\bat .*\(|\.ts:\d|\.js:\d/;

describe('kit lsp: request params', function () {
  this.timeout(120_000);
  let dir: string;
  let client: LspClient;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-lsp-params-'));
    cpSync(fixture('lsp', 'site'), dir, { recursive: true });
  });
  afterEach(() => {
    if (client && client.child.exitCode === null) client.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every advertised request answers InvalidParams, naming the field, to params that do not fit', async () => {
    client = LspClient.start();
    const init = (await client.initialize([dir])) as InitializeResult;
    const raw = new RawAnswers(client);
    const uri = fileUri(join(dir, 'home.kit'));
    await client.open(uri, readFileSync(join(dir, 'home.kit'), 'utf8'));
    const requests = advertised(init.capabilities, uri);
    assert.ok(requests.size >= 13, `${requests.size} requests advertised`);
    let id = 10_000;
    let sent = 0;
    for (const [method, good] of requests) {
      for (const bad of badVariants(good)) {
        const n = ++id;
        send(client, bad.params === undefined ? { id: n, method } : { id: n, method, params: bad.params });
        const a = await raw.answer(n);
        const where = `${method} with ${bad.what}`;
        assert.ok(a.error, `${where}: answered ${JSON.stringify(a.result)?.slice(0, 200)}`);
        assert.equal(a.error.code, -32602, `${where}: ${a.error.message}`);
        assert.match(a.error.message, new RegExp(`^Invalid params: ${method.replace(/\//g, '\\/')}: params`), where);
        assert.doesNotMatch(a.error.message, INTERNAL, where);
        sent++;
      }
      // The same request with params that fit is answered (a rename the position does not allow is
      // refused with RequestFailed, which is an answer too).
      const n = ++id;
      send(client, { id: n, method, params: good });
      const ok = await raw.answer(n);
      assert.ok(!ok.error || ok.error.code === -32803, `${method} with fitting params: ${ok.error?.message}`);
    }
    assert.ok(sent > 150, `${sent} requests sent`);
    // The server's own requests take no params: whatever is sent, they answer.
    for (const method of ['kit/stats', 'kit/tree', 'kit/routes']) {
      for (const params of [null, undefined, 7, { x: 1 }]) {
        const n = ++id;
        send(client, params === undefined ? { id: n, method } : { id: n, method, params });
        const a = await raw.answer(n);
        assert.ok(!a.error, `${method}: ${a.error?.message}`);
      }
    }
    assert.equal(client.child.exitCode, null, 'still running');
    assert.equal(client.stderr, '');
    assert.equal(await client.shutdown(), 0);
  });

  it('a hover with null params: InvalidParams, not the text of a TypeError', async () => {
    client = LspClient.start();
    await client.initialize([dir]);
    await assert.rejects(
      client.request('textDocument/hover', null),
      (e: { code?: number; message?: string }) =>
        e.code === -32602 && e.message === 'Invalid params: textDocument/hover: params must be an object',
    );
    await assert.rejects(
      client.request('textDocument/hover', { textDocument: { uri: fileUri(join(dir, 'home.kit')) }, position: {} }),
      (e: { code?: number; message?: string }) =>
        e.code === -32602 && e.message === 'Invalid params: textDocument/hover: params.position.line is missing',
    );
    assert.equal(await client.shutdown(), 0);
  });

  it('initialize with params that do not fit is refused; notifications that do not fit change nothing', async () => {
    client = LspClient.start();
    const raw = new RawAnswers(client);
    send(client, { id: 1, method: 'initialize', params: null });
    send(client, { id: 2, method: 'initialize', params: { processId: 'x', capabilities: {} } });
    send(client, { id: 3, method: 'initialize', params: { processId: null } });
    for (const n of [1, 2, 3]) {
      const a = await raw.answer(n);
      assert.equal(a.error?.code, -32602, JSON.stringify(a));
      assert.match(a.error!.message, /^Invalid params: initialize: params/);
    }
    await client.initialize([dir]);
    const uri = fileUri(join(dir, 'home.kit'));
    const text = readFileSync(join(dir, 'home.kit'), 'utf8');
    const opened = client.waitForDiagnostics(uri);
    await client.open(uri, text);
    assert.deepEqual((await opened).diagnostics, []);
    // Changes that are not changes: none may reach the document.
    const bad: unknown[] = [
      null,
      { textDocument: { uri, version: 2 } },
      { textDocument: { uri, version: '2' }, contentChanges: [{ text: '{nope}' }] },
      {
        textDocument: { uri, version: 2 },
        contentChanges: [{ range: { start: { line: 'a', character: 0 }, end: null }, text: '{nope}' }],
      },
      { textDocument: { uri, version: 2 }, contentChanges: [{ text: 5 }] },
    ];
    for (const params of bad) send(client, { method: 'textDocument/didChange', params });
    send(client, { method: 'textDocument/didOpen', params: { textDocument: { uri, text: 1 } } });
    send(client, { method: 'textDocument/didClose', params: null });
    send(client, { method: 'workspace/didChangeWatchedFiles', params: { changes: [{ uri, type: 9 }] } });
    send(client, { method: 'workspace/didChangeConfiguration', params: null });
    // A change that is one, after them: the text it applies to is the opened one.
    const after = client.waitForDiagnostics(uri, (d) => d.version === 3, { fresh: true });
    await client.change(uri, 3, [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '' },
    ]);
    assert.deepEqual((await after).diagnostics, [], 'the document is as it was opened');
    const tree = await client.request<unknown>('kit/tree', {});
    assert.ok(tree);
    const ignored = client.log.filter((l) => l.startsWith('kit: ignored '));
    assert.equal(ignored.length, bad.length + 4, ignored.join('\n'));
    assert.ok(ignored.some((l) => l === 'kit: ignored textDocument/didChange: params must be an object'));
    assert.ok(
      ignored.some(
        (l) =>
          l ===
          'kit: ignored textDocument/didChange: params.contentChanges[0].range.start.line must be an integer from 0',
      ),
      ignored.join('\n'),
    );
    assert.equal(client.stderr, '');
    assert.equal(await client.shutdown(), 0);
  });
});
