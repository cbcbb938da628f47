// What tracing costs a generated app, measured in one run: requests per second of a static page
// GET from the same site built twice, plain and with `kit build --trace` (request span, stage
// span, collector ingest and route figures, the bridge tag in the HTML), each server in its own
// process and the load generator (100 connections) in another. Target: traced ≥ 0.8× untraced.
import { join } from 'node:path';
import {
  buildApp,
  compare,
  fmt,
  startServer,
  workDir,
  writeFiles,
  type Server,
  STATIC_HOME_KIT,
} from '../app/http-harness.js';

const ROUNDS = Number(process.env.KIT_BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.KIT_BENCH_SECONDS ?? 3);

const SITE: Record<string, string> = {
  'src/home.kit': STATIC_HOME_KIT,
};

async function main(): Promise<void> {
  const plain = workDir('kit-trace-bench-plain-');
  const traced = workDir('kit-trace-bench-traced-');
  const servers: Server[] = [];
  try {
    for (const [w, trace] of [
      [plain, false],
      [traced, true],
    ] as const) {
      writeFiles(w.dir, SITE);
      buildApp(w.dir, false, trace);
    }
    const args = ['--addr', '127.0.0.1:0'];
    const off = await startServer('untraced', process.execPath, [join(plain.dir, 'app', 'server.js'), ...args]);
    servers.push(off);
    const on = await startServer('traced', process.execPath, [join(traced.dir, 'app', 'server.js'), ...args]);
    servers.push(on);
    const tracedPage = await (await fetch(on.url + '/')).text();
    if (!tracedPage.includes('/_kit/traces/bridge.js')) throw new Error('the traced build does not load the bridge');
    console.log(
      `GET of a static page, untraced vs traced build, ${ROUNDS} rounds × ${SECONDS} s, 100 connections, median`,
    );
    const r = compare(
      [
        { name: 'untraced', url: off.url + '/', pid: off.proc.pid! },
        { name: 'traced', url: on.url + '/', pid: on.proc.pid! },
      ],
      ROUNDS,
      SECONDS,
    );
    const a = r.get('untraced')!;
    const b = r.get('traced')!;
    console.log(`  untraced ${fmt(a.rps).padStart(8)} req/s   ${a.cpuUsPerReq.toFixed(1)} µs CPU/req`);
    console.log(`  traced   ${fmt(b.rps).padStart(8)} req/s   ${b.cpuUsPerReq.toFixed(1)} µs CPU/req`);
    console.log(
      `  ratio    ${(b.rps / a.rps).toFixed(2)}× (target ≥ 0.80×); per CPU-second ${(a.cpuUsPerReq / b.cpuUsPerReq).toFixed(2)}×`,
    );
    const spans = (await (await fetch(on.url + '/_kit/traces/stats')).json()) as { spans: number; dropped: number };
    console.log(`  collector: ${spans.spans} spans kept, ${fmt(spans.dropped)} dropped (ring and byte budget)`);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    plain.done();
    traced.done();
  }
}

await main();
