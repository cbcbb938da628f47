// Memory of a collector whose live-trace subscribers stop reading: a server process holds 1,024
// spans near the 64 KiB span limit (about 58 MiB of JSON, as a busy `kit dev` does), then 10 and
// then 30 raw sockets ask for `GET /_kit/traces/events` and never read. Printed: the server's RSS
// before, 2 s after they connect, 3 s after they close, and its peak. With
// KIT_BENCH_COMPARE=<another build's out directory> (an earlier commit's), that build's collector
// is measured the same way in the same run, for before/after figures.
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MOUNT = '/_kit/traces';
const SPANS = 1024;

// ---- the server process: `node subscribers.bench.js --serve <out directory>` ---------------------

async function serve(outDir: string): Promise<void> {
  const { createServer } = await import('node:http');
  const { readFileSync } = await import('node:fs');
  const trace = (await import(
    pathToFileURL(join(outDir, 'shared', 'trace', 'index.js')).href
  )) as typeof import('#shared/trace/index.js');
  const collector = trace.newCollector(SPANS);
  const handler = collector.handler({ prefix: MOUNT });
  const server = createServer((req, res) => {
    if (req.url === '/rss') {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
      res.end(JSON.stringify({ rss: process.memoryUsage().rss, peak: hwm ? Number(hwm[1]) * 1024 : NaN }));
    } else handler(req, res);
  });
  const tracer = trace.newTracer(trace.withSink(collector), trace.withExportQueueSize(4096));
  for (let i = 0; i < SPANS; i++) {
    const attrs: Record<string, string> = {};
    for (let k = 0; k < 28; k++) attrs[`a${k}`] = `${i}.${k}.`.padEnd(2000, 'x');
    tracer.start(trace.background(), `span ${i}`, trace.withAttributes(attrs))[1].end();
  }
  await tracer.flush();
  const bytes = collector.spans().reduce((n, s) => n + Buffer.byteLength(s.json()), 0);
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    process.stdout.write(`${JSON.stringify({ port: address.port, bytes })}\n`);
  });
}

// ---- the parent -------------------------------------------------------------------------------------

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rss(port: number): Promise<{ rss: number; peak: number }> {
  const res = await fetch(`http://127.0.0.1:${port}/rss`);
  return (await res.json()) as { rss: number; peak: number };
}

function paused(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${MOUNT}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
      resolve(socket);
    });
    socket.pause();
    socket.on('error', reject);
  });
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

async function measure(outDir: string, subscribers: number): Promise<string> {
  const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--serve', outDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const first = await new Promise<string>((resolve) => {
      let text = '';
      child.stdout!.on('data', (b: Buffer) => {
        text += b.toString();
        if (text.includes('\n')) resolve(text.split('\n')[0]);
      });
    });
    const { port, bytes } = JSON.parse(first) as { port: number; bytes: number };
    await delay(500);
    const before = await rss(port);
    const sockets = await Promise.all(Array.from({ length: subscribers }, () => paused(port)));
    await delay(2000);
    const held = await rss(port).catch(async (e: Error) => {
      await delay(500);
      throw new Error(`the server stopped answering (${e.message}; exit ${child.exitCode ?? child.signalCode})`);
    });
    for (const s of sockets) s.destroy();
    await delay(3000);
    const after = await rss(port);
    return (
      `${(bytes / 1024 / 1024).toFixed(1)} MiB stored, ${subscribers} paused: RSS ${mb(before.rss)} before, ` +
      `${mb(held.rss)} 2 s after they connected, ${mb(after.rss)} 3 s after they closed, peak ${mb(after.peak)}`
    );
  } finally {
    child.kill();
  }
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) await serve(process.argv[serveAt + 1]);
else {
  const here = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
  const compare = process.env.KIT_BENCH_COMPARE;
  console.log('collector with paused event-stream subscribers (server process RSS)');
  const line = (outDir: string, n: number) => measure(outDir, n).catch((e: Error) => `${n} paused: ${e.message}`);
  for (const n of [10, 30]) {
    console.log(`  this build: ${await line(here, n)}`);
    if (compare) console.log(`  compared:   ${await line(compare, n)}`);
  }
}
