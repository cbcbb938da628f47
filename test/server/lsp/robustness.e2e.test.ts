// The language server under input a client should never send: broken frames, markup nested far
// past the depth limit, and the first-declaration rule shared with the command line.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { DocumentSymbol, Message } from 'vscode-languageserver-protocol';
import { FramedMessageReader } from '#lsp/framing.js';
import { fixture } from '../../helpers/repo.js';
import { waitFor } from '../../helpers/wait.js';
import { runInProcess } from '../cli/cli-harness.js';
import { fileUri, LspClient } from './helpers/lsp-client.js';

function tempCopy(...parts: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'kit-lsp-'));
  cpSync(fixture(...parts), dir, { recursive: true });
  return dir;
}

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

function deepPage(depth: number): string {
  return `route "/deep"\nguard public\n\nview {\n${'<div>'.repeat(depth)}x${'</div>'.repeat(depth)}\n}\n`;
}

describe('kit lsp: robustness', function () {
  this.timeout(30000);
  let dir: string;
  let client: LspClient;

  afterEach(() => {
    if (client && client.child.exitCode === null) client.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resynchronises after a non-numeric Content-Length and a length that runs into the next frame', async () => {
    dir = tempCopy('lsp', 'site');
    client = LspClient.start();
    await client.initialize([dir]);
    let raw = '';
    client.child.stdout!.on('data', (b: Buffer) => {
      raw += b.toString();
    });
    const stdin = client.child.stdin!;
    stdin.write(`Content-Length: abc\r\n\r\n{"jsonrpc":"2.0","id":41,"method":"kit/stats"}`);
    const req = '{"jsonrpc":"2.0","id":42,"method":"kit/stats"}';
    stdin.write(`Content-Length: ${Buffer.byteLength(req) + 500}\r\n\r\n${req}`);
    // The server still answers a well-framed request sent after both broken ones.
    const stats = await client.request<{ workspaces: unknown[] }>('kit/stats', {});
    assert.ok(stats, 'kit/stats answered after the broken frames');
    assert.match(raw, /"id":41,"error":\{"code":-32700,"message":"Parse error: Content-Length is not a number/);
    assert.match(
      raw,
      /"id":42,"error":\{"code":-32700,"message":"Parse error: Content-Length 5\d\d runs past the body/,
    );
    assert.equal(client.child.exitCode, null, 'still running');
    assert.equal(await client.shutdown(), 0);
  });

  it('a length longer than the body, then silence: a parse error after --frame-timeout, then reads on', async () => {
    dir = tempCopy('lsp', 'site');
    client = LspClient.start({ args: ['--frame-timeout', '300'] });
    await client.initialize([dir]);
    let raw = '';
    client.child.stdout!.on('data', (b: Buffer) => {
      raw += b.toString();
    });
    const req = '{"jsonrpc":"2.0","id":43,"method":"kit/stats"}';
    const sent = performance.now();
    client.child.stdin!.write(`Content-Length: ${Buffer.byteLength(req) + 500}\r\n\r\n${req}`);
    await waitFor(() => raw.includes('"id":43'), { what: 'the answer to the incomplete frame', timeout: 5000 });
    assert.match(raw, /"id":43,"error":\{"code":-32700,"message":"Parse error: an incomplete frame/);
    assert.ok(performance.now() - sent >= 290, 'not before the timeout');
    assert.ok(await client.request('kit/stats', {}), 'a well-framed request is answered afterwards');
    assert.equal(await client.shutdown(), 0);
  });

  it('a length longer than the body, then the input ends: exits with status 1 and one line on stderr', async () => {
    dir = tempCopy('lsp', 'site');
    client = LspClient.start();
    await client.initialize([dir]);
    const req = '{"jsonrpc":"2.0","id":44,"method":"kit/stats"}';
    const cut = `Content-Length: ${Buffer.byteLength(req) + 500}\r\n\r\n${req}`;
    client.child.stdin!.end(cut);
    assert.equal(await client.exited, 1);
    assert.equal(client.stderr, `kit lsp: the input ended inside a frame (${cut.length} bytes of it received)\n`);
  });

  it('a document nested 10,000 deep gets markup_too_deep, and every feature answers for it and for others', async () => {
    dir = tempCopy('lsp', 'site');
    client = LspClient.start();
    await client.initialize([dir]);
    const deep = fileUri(join(dir, 'deep.kit'));
    const diags = client.waitForDiagnostics(deep, (d) => d.diagnostics.length > 0);
    await client.open(deep, deepPage(10_000));
    assert.deepEqual(
      (await diags).diagnostics.map((d) => d.code),
      ['markup_too_deep'],
    );
    const at = { textDocument: { uri: deep }, position: { line: 4, character: 2 } };
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
      textDocument: { uri: deep },
    });
    assert.ok(Array.isArray(symbols) && symbols.length > 0);
    await client.request('textDocument/hover', at);
    await client.request('textDocument/semanticTokens/full', { textDocument: { uri: deep } });
    await client.request('textDocument/foldingRange', { textDocument: { uri: deep } });
    const edits = await client.request<unknown[]>('textDocument/formatting', {
      textDocument: { uri: deep },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.deepEqual(edits, [], 'a file with syntax errors is left unformatted');
    const other = fileUri(join(dir, 'home.kit'));
    const otherSymbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
      textDocument: { uri: other },
    });
    assert.ok(otherSymbols.length > 0, 'other documents still answer');
    // Edits deep inside the cut markup and a too-deep expression before it: re-parsed incrementally.
    const edited = client.waitForDiagnostics(deep, (d) => d.diagnostics.length === 2);
    const pos = (character: number) => ({ line: 4, character });
    await client.change(deep, 2, [{ range: { start: pos(25_000), end: pos(25_000) }, text: '<b>y</b>' }]);
    await client.change(deep, 3, [{ range: { start: pos(0), end: pos(0) }, text: `<p>{${'!'.repeat(65)}x}</p>` }]);
    assert.deepEqual(
      (await edited).diagnostics.map((d) => d.code),
      ['invalid_expression', 'markup_too_deep'],
    );
    await client.request('textDocument/hover', { textDocument: { uri: deep }, position: pos(30_000) });
    assert.ok(
      (await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: deep } })).length,
    );
    assert.equal(await client.shutdown(), 0);
  });

  it('puts a .kit API vs comment endpoint conflict on the comment endpoint, as kit check does', async () => {
    dir = tempCopy('conformance', 'multi', 'comment-after-kit');
    client = LspClient.start();
    await client.initialize([dir]);
    const module = fileUri(join(dir, 'aaa.ts'));
    const published = await client.waitForDiagnostics(module, (d) => d.diagnostics.length > 0);
    assert.deepEqual(
      published.diagnostics.map((d) => d.code),
      ['route_method_conflict'],
    );
    const cli = await runInProcess(['check', '--json', dir], { cwd: dir });
    const report = JSON.parse(cli.stdout) as { diagnostics: { file: string; code: string }[] };
    assert.deepEqual(
      report.diagnostics.map((d) => [d.file.split('/').pop(), d.code]),
      [['aaa.ts', 'route_method_conflict']],
    );
    assert.equal(await client.shutdown(), 0);
  });
});

describe('lsp framing: FramedMessageReader', () => {
  function reader(timeoutMs = 10_000): { input: PassThrough; got: Message[] } {
    const input = new PassThrough();
    const got: Message[] = [];
    const r = new FramedMessageReader(input, {
      decode: (body) => JSON.parse(body.toString('utf8')) as Message,
      malformed: (message, id) => ({ jsonrpc: '2.0', id, error: { code: -32700, message } }) as Message,
      partialTimeoutMs: timeoutMs,
    });
    r.listen((m) => got.push(m));
    return { input, got };
  }

  it('delivers frames split at any byte', () => {
    const { input, got } = reader();
    const text = frame('{"jsonrpc":"2.0","method":"a"}') + frame('{"jsonrpc":"2.0","method":"é"}');
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i++) input.write(bytes.subarray(i, i + 1));
    assert.deepEqual(
      got.map((m) => (m as unknown as { method: string }).method),
      ['a', 'é'],
    );
  });

  it('drops a header block without Content-Length, or with a header line without a colon, up to the next frame', () => {
    const { input, got } = reader();
    input.write(`Content-Type: x\r\n\r\n{"id":3}${frame('{"jsonrpc":"2.0","method":"ok"}')}`);
    input.write(`garbage\r\n\r\n${frame('{"jsonrpc":"2.0","method":"ok2"}')}`);
    assert.deepEqual(
      got.map((m) =>
        'method' in m ? (m as unknown as { method: string }).method : (m as unknown as { id: unknown }).id,
      ),
      [3, 'ok', null, 'ok2'],
    );
  });

  it('drops an incomplete frame after the partial-message timeout, then reads on', async () => {
    const { input, got } = reader(50);
    input.write('Content-Length: 100\r\n\r\n{"jsonrpc":"2.0","id":9,');
    await waitFor(() => got.length === 1, { what: 'the incomplete frame to be dropped', timeout: 5000 });
    input.write(frame('{"jsonrpc":"2.0","method":"after"}'));
    assert.equal(got.length, 2);
    assert.equal((got[0] as unknown as { id: unknown }).id, 9);
    assert.match((got[0] as unknown as { error: { message: string } }).error.message, /incomplete frame/);
    assert.equal((got[1] as unknown as { method: string }).method, 'after');
  });

  it('refuses a length over the frame limit', () => {
    const { input, got } = reader();
    input.write(`Content-Length: 99999999999\r\n\r\n${frame('{"jsonrpc":"2.0","method":"next"}')}`);
    assert.equal(got.length, 2);
    assert.match((got[0] as unknown as { error: { message: string } }).error.message, /not a number|over the/);
    assert.equal((got[1] as unknown as { method: string }).method, 'next');
  });
});
