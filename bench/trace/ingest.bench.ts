// Collector ingest over HTTP: batches of 128 browser spans POSTed by a client in its own process over a
// keep-alive agent. Baseline: a bare node:http server that reads the same bodies, parses the JSON and answers
// 204 (no validation, no storage) — the floor any ingest endpoint sits on.
import { spawn } from 'node:child_process';
import { createServer, request, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadNote, printComparison } from './harness.js';

const BATCH = 128;
const CONCURRENCY = 8;
const SECONDS = 3;
const ROUNDS = 3;
const PATH = '/_kit/traces/browser';

function span(i: number): Record<string, unknown> {
  return {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: (i + 1).toString(16).padStart(16, '0'),
    parentSpanId: '',
    name: `GET /api/items/${i}`,
    surface: 'frontend',
    lane: 'api',
    attributes: [
      { key: 'url.path', value: `/api/items/${i}` },
      { key: 'http.request.method', value: 'GET' },
      { key: 'http.response.status_code', value: 200 },
    ],
    events: [],
    status: { code: 'ok', message: '' },
    startTime: '2025-01-02T03:04:05.100000000Z',
    endTime: '2025-01-02T03:04:05.250000000Z',
    durationNs: 150_000_000,
  };
}

async function client(url: string): Promise<void> {
  const body = JSON.stringify(Array.from({ length: BATCH }, (_, i) => span(i)));
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let ok = 0;
  let failed = 0;
  const end = Date.now() + SECONDS * 1000;
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 204) ok++;
            else failed++;
            resolve();
          });
        },
      );
      req.on('error', () => (failed++, resolve()));
      req.end(body);
    });
  const worker = async (): Promise<void> => {
    while (Date.now() < end) await one();
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  process.stdout.write(
    JSON.stringify({ spansPerSecond: (ok * BATCH) / seconds, failed, bodyBytes: Buffer.byteLength(body) }) + '\n',
  );
}

function runClient(url: string): Promise<{ spansPerSecond: number; failed: number; bodyBytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), `--client=${url}`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`client exited with ${code}`)),
    );
  });
}

async function serve(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(listener);
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`;
  return {
    url,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

async function main(): Promise<void> {
  const { newCollector } = await import('#shared/trace/index.js');
  console.log(
    `collector ingest, batches of ${BATCH}, ${CONCURRENCY} keep-alive connections, client in its own process (${await loadNote()})`,
  );
  const kitRates: number[] = [];
  const bareRates: number[] = [];
  let bodyBytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const collector = newCollector(1024, { ingestRateLimit: 1_000_000_000, ingestRateWindowMs: 1000 });
    const handler = collector.handler({ prefix: '/_kit/traces' });
    const kit = await serve(handler);
    const k = await runClient(kit.url);
    collector.close();
    await kit.close();
    if (k.failed > 0 || collector.rejected() > 0)
      throw new Error(`kit ingest rejected requests: ${k.failed} failed, ${collector.rejected()} rejected`);
    kitRates.push(k.spansPerSecond);
    bodyBytes = k.bodyBytes;

    const bare = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(204).end();
      });
    });
    const b = await runClient(bare.url);
    await bare.close();
    bareRates.push(b.spansPerSecond);
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  printComparison(
    `spans/s (${bodyBytes} B bodies)`,
    median(kitRates),
    median(bareRates),
    'spans/s',
    'bare node:http + JSON.parse',
    true,
  );
  console.log('target: >= 50,000 spans/s (kit)');
}

const clientArg = process.argv.find((a) => a.startsWith('--client='));
if (clientArg !== undefined) await client(clientArg.slice('--client='.length));
else await main();
