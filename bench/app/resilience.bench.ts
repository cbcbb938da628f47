// The generated app under sustained load and misbehaving clients (`node <app>/server.js`, load from
// other processes). Prints, per request kind, the requests sent, errors, p99 and the heap the
// server retains after a full GC (before/after); then 20 clients that request a 64 MiB answer and
// never read it (RSS while they hang on, and after they leave); then a handler fault followed by
// /_kit/health. Baselines in the same run: the retained heap of the static path, and the server's
// RSS before the slow clients came.
import { spawnSync } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { buildApp, OUT_ROOT, SECRET, startServer, workDir, writeFiles } from './http-harness.js';
import { csrfKeys, newToken } from '#shared/app/csrf.js';

const REQUESTS = Number(process.env.KIT_BENCH_REQUESTS ?? 20_000);
const CONNECTIONS = 20;
const PROBE = join(OUT_ROOT, '..', 'bench', 'app', 'memory-probe.cjs');
const LOADGEN = join(OUT_ROOT, 'bench', 'app', 'loadgen-spec.js');
const BIG_MB = 64;

const SITE: Record<string, string> = {
  'src/home.kit': `package bench

page home
route "/"
guard public
cache "public, max-age=60"

view {
  <main><h1>Static page</h1><p>Served from memory.</p></main>
}
`,
  'src/report.kit': `package bench

page report
route "/report"
guard public

server {
  => { items }
}

view {
  <ul><li g:for={item in items} g:lane="server">{item.name}</li></ul>
}
`,
  'src/api.kit': `package bench

page api
route "/api-home"
guard public

act Save POST "/save"
api Stats GET "/api/stats"
api Big GET "/api/big"
api Leak GET "/api/leak"

view {
  <main>API</main>
}
`,
  'src/handlers.ts': `const ITEMS = Array.from({ length: 20 }, (_, i) => ({ name: 'Item ' + i }));
export async function LoadReport(ctx: unknown) {
  void ctx;
  return { items: ITEMS };
}
export function Save(ctx: unknown, input: { name: string }): Response {
  void ctx;
  return new Response('saved ' + input.name.length);
}
export async function Stats(ctx: unknown, request: Request): Promise<Response> {
  void ctx;
  return Response.json({ path: new URL(request.url).pathname, n: 42 });
}
export async function Big(ctx: unknown, request: Request): Promise<Response> {
  void ctx;
  void request;
  return new Response(new Uint8Array(${BIG_MB} * 1024 * 1024).fill(120));
}
export async function Leak(ctx: unknown, request: Request): Promise<Response> {
  void ctx;
  void request;
  Promise.reject(new Error('left behind'));
  return new Response('ok');
}
`,
};

interface Figures {
  total: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function drive(spec: Record<string, unknown>): Figures {
  const r = spawnSync(process.execPath, [LOADGEN, JSON.stringify(spec)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`load generator failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Figures;
}

interface Memory {
  heapUsed: number;
  rss: number;
}

async function memory(probePort: number): Promise<Memory> {
  return (await (await fetch(`http://127.0.0.1:${probePort}/`)).json()) as Memory;
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

const { dir, done } = workDir('kit-resilience-');
try {
  writeFiles(dir, SITE);
  buildApp(dir, false);
  const probePort = 20000 + (process.pid % 20000);
  const server = await startServer(
    'kit',
    process.execPath,
    ['--expose-gc', '--require', PROBE, join(dir, 'app', 'server.js'), '--addr', '127.0.0.1:0'],
    { KIT_PROBE_PORT: String(probePort) },
  );
  const pid = server.proc.pid!;
  let stderr = '';
  server.proc.stderr!.on('data', (d: Buffer) => (stderr += d));
  try {
    const token = newToken(csrfKeys(SECRET));
    const form = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `kit-csrf=${token}` },
      body: `name=bench&_kit_csrf=${token}`,
    };
    const kinds: [string, Record<string, unknown>][] = [
      ['static page', { url: `${server.url}/` }],
      ['SSR page', { url: `${server.url}/report` }],
      ['action', { url: `${server.url}/save`, ...form }],
      ['API', { url: `${server.url}/api/stats` }],
    ];
    console.log(
      `generated app (node <app>/server.js, pid ${pid}); ${REQUESTS.toLocaleString('en')} requests per kind, ` +
        `${CONNECTIONS} connections; heap retained after a full GC; the machine is shared`,
    );
    // Warm every path first, so the first kind does not pay for JIT and lazy loading alone.
    for (const [, spec] of kinds) drive({ ...spec, connections: 4, amount: 2000 });
    let totalRequests = 0;
    let totalErrors = 0;
    let staticGrowth = 0;
    const start = await memory(probePort);
    for (const [name, spec] of kinds) {
      const before = await memory(probePort);
      const f = drive({ ...spec, connections: CONNECTIONS, amount: REQUESTS });
      const after = await memory(probePort);
      totalRequests += f.total;
      totalErrors += f.errors + f.non2xx;
      const growth = after.heapUsed - before.heapUsed;
      if (name === 'static page') staticGrowth = growth;
      console.log(
        `  ${name.padEnd(12)} ${f.total} requests, ${f.errors} errors, ${f.non2xx} non-2xx, ` +
          `${Math.round(f.rps)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms; heap ${mb(before.heapUsed)} → ` +
          `${mb(after.heapUsed)} MB (${growth >= 0 ? '+' : ''}${(growth / 1024).toFixed(0)} KB; static path ` +
          `${(staticGrowth / 1024).toFixed(0)} KB)`,
      );
    }
    const end = await memory(probePort);
    console.log(
      `  in all: ${totalRequests} requests, ${totalErrors} errors or non-2xx; retained heap ${mb(start.heapUsed)} → ` +
        `${mb(end.heapUsed)} MB; RSS ${mb(start.rss)} → ${mb(end.rss)} MB`,
    );

    // Slow readers: 20 clients ask for a 64 MiB answer and never read it.
    const port = Number(new URL(server.url).port);
    const base = await memory(probePort);
    const sockets: Socket[] = [];
    for (let i = 0; i < 20; i++) {
      const s = connect(port, '127.0.0.1');
      s.pause();
      s.on('error', () => undefined);
      s.write(`GET /api/big HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      sockets.push(s);
    }
    await new Promise((r) => setTimeout(r, 3000));
    const held = await memory(probePort);
    const healthWhileHeld = (await fetch(`${server.url}/_kit/health`)).status;
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 1500));
    const left = await memory(probePort);
    console.log(
      `  20 clients not reading a ${BIG_MB} MiB answer: RSS ${mb(base.rss)} MB before (baseline), ${mb(held.rss)} MB ` +
        `while they hang on (health ${healthWhileHeld}), ${mb(left.rss)} MB after they left; heap ` +
        `${mb(base.heapUsed)} → ${mb(held.heapUsed)} → ${mb(left.heapUsed)} MB`,
    );

    // A fault left behind by a handler: the app logs it and serves on.
    const leak = (await fetch(`${server.url}/api/leak`)).status;
    await new Promise((r) => setTimeout(r, 100));
    const health = (await fetch(`${server.url}/_kit/health`)).status;
    const logged = /unhandled promise rejection during GET \/api\/leak/.test(stderr);
    console.log(`  handler fault: /api/leak ${leak}, then /_kit/health ${health}; fault logged: ${logged}`);
  } catch (e) {
    console.log(`server stderr:\n${stderr}`);
    throw e;
  } finally {
    await server.stop();
  }
} finally {
  done();
}
