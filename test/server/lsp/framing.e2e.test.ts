// The stdio frame reader reads in time linear in its input: the same messages as the reader it
// replaced for any input cut any way (property test against `helpers/concat-frame-reader.ts`), a
// 50 MiB frame in 64 KiB chunks read at once, and through the real server a 50 MiB `didOpen`
// followed by a request that is answered at once, and a valid 4 MiB page indexed in its budget.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import type { Message } from 'vscode-languageserver-protocol';
import { FramedMessageReader, type FramingOptions } from '#lsp/framing.js';
import { ConcatFrameReader } from './helpers/concat-frame-reader.js';
import { fileUri, LspClient } from './helpers/lsp-client.js';

const OPTIONS: FramingOptions = {
  decode: (body) => ({ jsonrpc: '2.0', method: 'body', params: [body.toString('latin1')] }) as Message,
  malformed: (message, id) => ({ jsonrpc: '2.0', id, error: { code: -32700, message } }) as Message,
};

type Reader = { unfinished(): number; listen(cb: (m: Message) => void): unknown };

function feed(make: (input: PassThrough) => Reader, chunks: Buffer[]): { got: Message[]; left: number } {
  const input = new PassThrough();
  const reader = make(input);
  const got: Message[] = [];
  reader.listen((m) => got.push(m));
  for (const c of chunks) input.write(c);
  return { got, left: reader.unfinished() };
}

const frame = (body: string, length = Buffer.byteLength(body)) => `Content-Length: ${length}\r\n\r\n${body}`;

/** Pieces a hostile or broken client sends: frames good and bad, and bytes that look like headers. */
const piece = fc.oneof(
  fc.string({ maxLength: 30 }).map((s) => frame(JSON.stringify({ jsonrpc: '2.0', id: 1, method: s }))),
  fc.tuple(fc.nat({ max: 400 }), fc.integer({ min: -5, max: 300 })).map(([id, extra]) => {
    const body = `{"jsonrpc":"2.0","id":${id},"method":"m"}`;
    return frame(body, Math.max(0, Buffer.byteLength(body) + extra));
  }),
  fc.constantFrom(
    'Content-Length: abc\r\n\r\n{"id":7}',
    'Content-Type: x\r\n\r\n{"id":"s"}',
    'garbage\r\n\r\n',
    'content-LENGTH:\t 12 \r\n\r\n{"id":12345}',
    'CONTENT-LENGTH :3\r\n\r\nabc',
    'Content-Length: 99999999999\r\n\r\n',
    'Content-Length: 4\r\nContent-Type: a\r\n\r\nnull',
    '\r\n\r\n',
    '\r',
    'Content-Length: 5\r',
    '\nContent-',
    'Length: 2\r\n\r\n{}',
  ),
  fc.string({
    unit: fc.constantFrom('C', 'c', 'o', 'n', 't', 'e', '-', 'L', 'g', 'h', ':', ' ', '1', '\r', '\n', 'é'),
  }),
);

describe('lsp framing: linear in the input', function () {
  this.timeout(120_000);

  it('delivers the same messages as the reader it replaced, for any input cut anywhere', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 20 }), (pieces, cuts) => {
        const bytes = Buffer.from(pieces.join(''));
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks: Buffer[] = [];
        let from = 0;
        for (const c of [...at, bytes.length]) {
          chunks.push(bytes.subarray(from, c));
          from = c;
        }
        const now = feed((input) => new FramedMessageReader(input, OPTIONS), chunks);
        const before = feed((input) => new ConcatFrameReader(input, OPTIONS), chunks);
        assert.deepEqual(now, before);
      }),
      { numRuns: 3000 },
    );
  });

  it('the header end and a next header split over one-byte chunks', () => {
    const bytes = Buffer.from(
      `${frame('{"id":1}', 200)}${frame('{"id":2}')}${frame('{"id":3}', 9)}x${frame('{"id":4}')}`,
    );
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    const got = feed((input) => new FramedMessageReader(input, OPTIONS), chunks).got;
    const shown = (m: Message) => {
      const r = m as unknown as { id?: unknown; error?: unknown; params?: string[] };
      return r.error ? `error ${r.id}` : r.params![0];
    };
    assert.deepEqual(got.map(shown), ['error 1', '{"id":2}', '{"id":3}x', '{"id":4}']);
  });

  it('a 50 MiB frame in 64 KiB chunks is read at once, its body copied once', () => {
    const body = `{"jsonrpc":"2.0","method":"big","params":"${'x'.repeat(50 * 1024 * 1024)}"}`;
    const bytes = Buffer.from(frame(body) + frame('{"jsonrpc":"2.0","method":"next"}'));
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 65536) chunks.push(bytes.subarray(i, i + 65536));
    const t = performance.now();
    const { got, left } = feed((input) => new FramedMessageReader(input, OPTIONS), chunks);
    const ms = performance.now() - t;
    assert.equal(got.length, 2);
    assert.equal((got[0] as unknown as { params: string[] }).params[0].length, body.length);
    assert.equal(left, 0);
    // Generous for a loaded machine (the chunk-concatenating reader took about 40 s);
    // bench/lsp/framing.bench.ts measures it.
    assert.ok(ms < 5000, `read in ${ms.toFixed(0)} ms`);
  });
});

describe('kit lsp: large frames over stdio', function () {
  this.timeout(120_000);
  let dir: string;
  let client: LspClient;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-lsp-frames-'));
  });
  afterEach(() => {
    if (client && client.child.exitCode === null) client.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a 50 MiB didOpen, then a request: answered at once', async () => {
    client = LspClient.start();
    await client.initialize([dir]);
    const uri = fileUri(join(dir, 'big.kit'));
    const huge = `route "/big"\nguard public\n\nview {\n${'<p>x</p>\n'.repeat((50 * 1024 * 1024) / 9)}}\n`;
    const cpuBefore = serverUsage(client.child.pid)?.cpuMs;
    const t = performance.now();
    const opened = client.waitForDiagnostics(uri, (d) => d.diagnostics.length > 0);
    await client.open(uri, huge);
    await client.request('kit/stats', {});
    const ms = performance.now() - t;
    // Over the analysed-document limit: the server says so instead of indexing it.
    assert.deepEqual(
      (await opened).diagnostics.map((d) => d.code),
      ['document_too_large'],
    );
    // Generous for a loaded machine: the server spends about 0.3 s of CPU on it (about 43 s with
    // the chunk-concatenating reader); bench/lsp/framing.bench.ts has the figures.
    const cpuAfter = serverUsage(client.child.pid)?.cpuMs;
    if (cpuBefore !== undefined && cpuAfter !== undefined)
      assert.ok(cpuAfter - cpuBefore < 3000, `read and answered with ${cpuAfter - cpuBefore} ms of CPU`);
    assert.ok(ms < 20_000, `answered after ${ms.toFixed(0)} ms`);
    assert.equal(await client.shutdown(), 0);
  });

  it('a valid 4 MiB page (466,000 <p> lines) is indexed within its budget', async () => {
    client = LspClient.start();
    await client.initialize([dir]);
    const uri = fileUri(join(dir, 'long.kit'));
    const text = `route "/long"\nguard public\n\nview {\n${'<p>x</p>\n'.repeat(466_000)}}\n`;
    assert.ok(text.length > 4_000_000);
    const cpuBefore = serverUsage(client.child.pid)?.cpuMs;
    const t = performance.now();
    const published = client.waitForDiagnostics(uri, () => true, { timeoutMs: 60_000 });
    await client.open(uri, text);
    assert.deepEqual((await published).diagnostics, []);
    const ms = performance.now() - t;
    const symbols = await client.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.ok(symbols.length > 0);
    // The budget: the analysis of the page costs what `kit check` spends on it (about 4.7 s of CPU
    // and 0.95 GB at its peak on a two-core machine; the frame itself a few milliseconds), with room.
    const usage = serverUsage(client.child.pid);
    if (usage) {
      assert.ok(usage.cpuMs - cpuBefore! < 12_000, `indexed with ${usage.cpuMs - cpuBefore!} ms of CPU`);
      assert.ok(usage.peakMiB < 1536, `peak RSS ${usage.peakMiB} MiB`);
    }
    assert.ok(ms < 60_000, `indexed in ${ms.toFixed(0)} ms`);
    assert.equal(await client.shutdown(), 0);
  });
});

/** The server's CPU time so far and its peak RSS, from /proc where there is one. */
function serverUsage(pid: number | undefined): { cpuMs: number; peakMiB: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (!hwm) return undefined;
    return { cpuMs: (Number(stat[11]) + Number(stat[12])) * 10, peakMiB: Math.round(Number(hwm[1]) / 1024) };
  } catch {
    return undefined;
  }
}
