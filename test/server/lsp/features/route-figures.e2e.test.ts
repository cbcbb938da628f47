// Live route figures over the real protocol: `kit lsp --stdio` reads the per-route aggregates of a real
// collector (announced in `.kit/dev.json`, as `kit dev` does, or named by `kit.trace.collector`) and
// shows them as CodeLenses and in hover; with no server running it stays silent.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodeLens, Hover } from 'vscode-languageserver-protocol';
import {
  background,
  newCollector,
  newTracer,
  recordException,
  withAttributes,
  withSink,
  type Collector,
  type Tracer,
} from '#shared/trace/index.js';
import { close, listen } from '#test/shared/trace/helpers.js';
import { waitFor } from '#test/helpers/wait.js';
import { fileUri, FULL_CAPABILITIES, LspClient } from '../helpers/lsp-client.js';

const PAGE = `package site

page inbox
route "/inbox"
guard public

act Send POST "/inbox/send"
act Quiet POST "/inbox/quiet"

view {
  <main><h1>Inbox</h1></main>
}
`;

function request(tracer: Tracer, route: string, method: string, extra: Record<string, unknown>, fail?: Error): void {
  const span = tracer.start(
    background(),
    `${method} ${route}`,
    withAttributes({ 'http.route': route, 'http.request.method': method, 'kit.page': 'inbox', ...extra }),
  )[1];
  span.set('http.response.status_code', fail ? 500 : 200);
  if (fail) recordException(span, fail);
  else span.setStatus('ok');
  span.end();
}

describe('live route figures in the editor (hover and CodeLens)', function () {
  this.timeout(30000);
  let dir: string;
  let client: LspClient | undefined;
  let server: Server | undefined;
  let collector: Collector;
  let traces = '';

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kit-lsp-figures-'));
    writeFileSync(join(dir, 'inbox.kit'), PAGE);
    collector = newCollector(256);
    const tracer = newTracer(withSink(collector));
    for (let i = 0; i < 11; i++) request(tracer, '/inbox', 'GET', {});
    request(tracer, '/inbox/send', 'POST', { 'kit.endpoint.kind': 'action', 'kit.endpoint.symbol': 'Send' });
    request(
      tracer,
      '/inbox/send',
      'POST',
      { 'kit.endpoint.kind': 'action', 'kit.endpoint.symbol': 'Send' },
      new TypeError('mail <queue> is *down*'),
    );
    await tracer.flush();
    const handler = collector.handler({ prefix: '/_kit/traces' });
    server = createServer(handler);
    traces = (await listen(server)) + '/_kit/traces';
  });

  afterEach(async () => {
    if (client && client.child.exitCode === null) client.kill();
    client = undefined;
    if (server) await close(server);
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function announce(url: string): void {
    mkdirSync(join(dir, '.kit'), { recursive: true });
    writeFileSync(join(dir, '.kit', 'dev.json'), JSON.stringify({ version: 1, pid: process.pid, url, traces: url }));
  }

  async function start(settings: Record<string, unknown> = { ssr: false }): Promise<string> {
    client = LspClient.start();
    client.settings = settings;
    const refreshes: number[] = [];
    client.conn.onRequest('workspace/codeLens/refresh', () => {
      refreshes.push(1);
      return null;
    });
    const capabilities = {
      ...FULL_CAPABILITIES,
      workspace: { ...FULL_CAPABILITIES.workspace, codeLens: { refreshSupport: true } },
    };
    const init = await client.initialize([dir], { capabilities });
    assert.deepEqual(init.capabilities.codeLensProvider, {});
    const uri = fileUri(join(dir, 'inbox.kit'));
    await client.open(uri, PAGE);
    return uri;
  }

  /** The CodeLens titles, as `line: title`. */
  async function lensTitles(uri: string): Promise<string[]> {
    const got = await client!.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    return got.map((l) => `${l.range.start.line}: ${l.command?.title ?? ''}`);
  }

  /** CodeLens titles once `want` accepts them (the first request starts the read; it never waits on it). */
  function lenses(uri: string, want: (titles: string[]) => boolean, what: string): Promise<string[]> {
    return waitFor(
      async () => {
        const titles = await lensTitles(uri);
        assert.ok(want(titles), JSON.stringify(titles));
        return titles;
      },
      { what, every: 50 },
    );
  }

  it('reads a running server announced in .kit/dev.json: CodeLens per route and hover with the last error', async () => {
    announce(traces);
    const uri = await start();
    const titles = await lenses(uri, (t) => t.length === 3, 'a lens per route');
    assert.match(titles[0]!, /^3: 11 req · p95 \d+(\.\d+)? ms · 0 errors$/);
    assert.match(titles[1]!, /^6: 2 req · p95 \d+(\.\d+)? ms · 1 error$/);
    assert.equal(titles[2], '7: no requests yet');
    const hover = await client!.request<Hover>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 6, character: 4 },
    });
    const md = (hover.contents as { value: string }).value;
    assert.match(md, /\*\*Live\*\* — 2 requests · p50 [\d.]+ ms · p95 [\d.]+ ms · 1 error/);
    assert.match(md, /Last error: TypeError: mail \\<queue\\> is \\\*down\\\*/, 'markdown in the message is inert');
    const trace = collector.routes().routes.find((r) => r.route === '/inbox/send')!.lastError!.traceId;
    assert.ok(md.includes(`[open trace](${traces}/viewer/#trace=${trace})`), md);
    assert.match(md, /action/, 'the declaration hover is still there');
  });

  it('is silent when nothing is running: no announcement, or a stale one', async () => {
    const uri = await start();
    // No announcement: a lens request looks for one as it is answered, and finds no address to read.
    assert.deepEqual(await lensTitles(uri), []);
    // A stale announcement: the address answers no read (here a listener that drops every connection,
    // so that the reads can be counted). A read starts only once the one before it was handled, so
    // the answers after the second read began show what a failed read leaves: nothing.
    let reads = 0;
    const gone = createNetServer((socket) => {
      reads++;
      socket.resetAndDestroy();
    });
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    try {
      announce(`http://127.0.0.1:${(gone.address() as AddressInfo).port}/_kit/traces`);
      await waitFor(
        async () => {
          assert.deepEqual(await lensTitles(uri), [], 'no lens from a failed read');
          return reads >= 2;
        },
        { what: 'the language server to read the stale address twice', every: 50 },
      );
      assert.deepEqual(await lensTitles(uri), []);
    } finally {
      await new Promise((resolve) => gone.close(resolve));
    }
    const hover = await client!.request<Hover | null>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 3, character: 2 },
    });
    assert.doesNotMatch((hover?.contents as { value: string } | undefined)?.value ?? '', /Live/);
  });

  it('takes the collector from the kit.trace.collector setting; only loopback addresses are read', async () => {
    const uri = await start({ ssr: false, trace: { collector: traces } });
    await lenses(uri, (t) => t.length === 3, 'a lens per route');
    await client!.conn.sendNotification('workspace/didChangeConfiguration', {
      settings: { kit: { trace: { collector: 'http://collector.example/_kit/traces' } } },
    });
    client!.settings = { ssr: false, trace: { collector: 'http://collector.example/_kit/traces' } };
    await client!.conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await lenses(uri, (t) => t.length === 0, 'the lenses to go with the collector that is not on loopback');
  });
});
