// Requests per second of a generated app (`node <app>/server.js`, built by the kit CLI) beside
// baselines measured in the same run, each server in its own process and autocannon (100
// connections) in another:
//   static page  kit app vs bare node:http answering the same bytes vs Fastify   (targets ≥ 0.9×, ≥ 1.0×)
//   SSR page     kit app (load + g:for) vs a hand-written node:http handler doing
//                the same work and sending the same bytes                        (target ≥ 0.8×)
// Medians of several rounds after warm-up; rounds alternate the servers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildApp,
  compare,
  fmt,
  SERVERS,
  startServer,
  workDir,
  writeFiles,
  type Server,
  STATIC_HOME_KIT,
} from './http-harness.js';

const ROUNDS = Number(process.env.KIT_BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.KIT_BENCH_SECONDS ?? 3);

const SITE: Record<string, string> = {
  'src/home.kit': STATIC_HOME_KIT,
  'src/report.kit': `package bench

page report
route "/report"
guard public
title "Report"

server {
  => { title, items }
}

view {
  <main>
    <h1>{title}</h1>
    <ul>
      <li g:for={item in items} g:lane="server"><a href="/items/{item.id}">{item.name}</a> <span>{item.price}</span></li>
    </ul>
  </main>
}
`,
  'src/handlers.ts': `export interface Item { id: number; name: string; price: string }
const ITEMS: Item[] = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: 'Item <' + (i + 1) + '> & co', price: (i * 3.5).toFixed(2) }));
export async function LoadReport(ctx: unknown): Promise<{ title: string; items: Item[] }> {
  void ctx;
  return { title: 'Quarterly "report"', items: ITEMS };
}
`,
};

function line(label: string, value: number, base: number, baseLabel: string): string {
  return `  ${label.padEnd(16)} ${fmt(value).padStart(8)} req/s   ${baseLabel.padEnd(24)} ${fmt(base).padStart(8)} req/s   ratio ${(value / base).toFixed(2)}×`;
}

/** Requests per CPU-second of the server process: the throughput a dedicated core would give. */
function cpuLine(label: string, value: number, base: number, baseLabel: string): string {
  const a = 1e6 / value;
  const b = 1e6 / base;
  return `  ${label.padEnd(16)} ${value.toFixed(1).padStart(6)} µs CPU/req (${fmt(a).padStart(7)} req/CPU-s)   ${baseLabel.padEnd(24)} ${base.toFixed(1).padStart(6)} µs (${fmt(b).padStart(7)})   ratio ${(a / b).toFixed(2)}×`;
}

async function main(): Promise<void> {
  const { dir, done } = workDir('kit-http-bench-');
  const servers: Server[] = [];
  try {
    writeFiles(dir, SITE);
    buildApp(dir, false);
    const app = join(dir, 'app');
    const page = join(app, 'static', 'index.html');
    const kit = await startServer('kit', process.execPath, [join(app, 'server.js'), '--addr', '127.0.0.1:0']);
    servers.push(kit);
    // The hand-written SSR baseline sends the same document: head and tail come from kit's answer.
    const kitSsr = await (await fetch(kit.url + '/report')).text();
    const head = kitSsr.slice(0, kitSsr.indexOf('<main>'));
    const tail = kitSsr.slice(kitSsr.indexOf('</main>') + '</main>'.length);
    writeFileSync(join(dir, 'shell.json'), JSON.stringify({ head, tail }));
    const bare = await startServer('bare', process.execPath, [SERVERS, 'bare-static', page]);
    const fastify = await startServer('fastify', process.execPath, [SERVERS, 'fastify-static', page]);
    const bareSsr = await startServer('bare-ssr', process.execPath, [
      SERVERS,
      'bare-ssr',
      app,
      join(dir, 'shell.json'),
    ]);
    servers.push(bare, fastify, bareSsr);
    const staticBody = readFileSync(page, 'utf8');
    for (const s of [kit, bare, fastify]) {
      const got = await (await fetch(s.url + '/')).text();
      if (got !== staticBody) throw new Error(`${s.name} does not answer the same static bytes`);
    }
    const handSsr = await (await fetch(bareSsr.url + '/report')).text();
    if (handSsr !== kitSsr) throw new Error('the hand-written SSR handler does not produce the same HTML as kit');

    const pid = (s: Server) => s.proc.pid!;
    console.log(
      `GET of a static page (${Buffer.byteLength(staticBody)} B), ${ROUNDS} rounds × ${SECONDS} s, 100 connections, median`,
    );
    const st = compare(
      [
        { name: 'kit', url: kit.url + '/', pid: pid(kit) },
        { name: 'bare', url: bare.url + '/', pid: pid(bare) },
        { name: 'fastify', url: fastify.url + '/', pid: pid(fastify) },
      ],
      ROUNDS,
      SECONDS,
    );
    const k = st.get('kit')!;
    console.log(line('kit app', k.rps, st.get('bare')!.rps, 'bare node:http'));
    console.log(line('kit app', k.rps, st.get('fastify')!.rps, 'Fastify'));
    console.log(cpuLine('kit app', k.cpuUsPerReq, st.get('bare')!.cpuUsPerReq, 'bare node:http'));
    console.log(cpuLine('kit app', k.cpuUsPerReq, st.get('fastify')!.cpuUsPerReq, 'Fastify'));
    console.log(
      `  runs (req/s): kit ${k.runs.map(fmt).join(', ')}; bare ${st.get('bare')!.runs.map(fmt).join(', ')}; fastify ${st.get('fastify')!.runs.map(fmt).join(', ')}`,
    );

    console.log(`\nGET of an SSR page with a load function (${Buffer.byteLength(kitSsr)} B, 20-item g:for), median`);
    const ss = compare(
      [
        { name: 'kit', url: kit.url + '/report', pid: pid(kit) },
        { name: 'hand', url: bareSsr.url + '/report', pid: pid(bareSsr) },
      ],
      ROUNDS,
      SECONDS,
    );
    console.log(line('kit app (SSR)', ss.get('kit')!.rps, ss.get('hand')!.rps, 'hand-written node:http'));
    console.log(
      cpuLine('kit app (SSR)', ss.get('kit')!.cpuUsPerReq, ss.get('hand')!.cpuUsPerReq, 'hand-written node:http'),
    );
    console.log(
      `  runs (req/s): kit ${ss.get('kit')!.runs.map(fmt).join(', ')}; hand ${ss.get('hand')!.runs.map(fmt).join(', ')}`,
    );
    console.log('\ntargets: static ≥ 0.90× bare node:http and ≥ 1.00× Fastify; SSR ≥ 0.80× hand-written');
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    done();
  }
}

await main();
