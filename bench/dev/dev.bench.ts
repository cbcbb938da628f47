// `kit dev` on the build benchmark's 1,000-page site (plus an SSR page whose load lives in a
// handler module), beside `astro dev` 5.18 on the equivalent Astro site, in the same run:
//
//   cold start      spawn → first page answered (200): the median of KIT_BENCH_DEV_STARTS starts
//                   (each tool's first start also writes its caches), the HTTP client warmed first
//   first request   the first GET of a page not asked for before, right after start
//   save → notified a one-line edit of a page (and of the handler module) → the `reload` event on
//                   the page's event stream, as the browser client receives it (kit only: Astro's
//                   HMR channel is a Vite websocket)
//   save → served   the same edits → the updated HTML served (polled every 2 ms): the figure both
//                   tools have
//   memory          the dev server's RSS after the first edits and after 1,000 more; and, since RSS
//                   also counts garbage not yet collected, the retained heap (after forced GCs) of
//                   the same loop run in this process through the dev session itself
//
// Environment: KIT_BENCH_DEV_PAGES=1000, KIT_BENCH_DEV_EDITS=40 (timed edits per case), KIT_BENCH_DEV_STARTS=5,
// KIT_BENCH_DEV_MEMORY_EDITS=1000, KIT_BENCH_ASTRO=0 (skip Astro; it is installed on demand into
// .bench-work/astro by the build benchmark's recipe, never in CI), KIT_BENCH_DEV_CONFIG=1 (the site set
// up as kit init sets one up: `ssr` in a kit.config.ts instead of --ssr, which kit reads with the
// TypeScript parser at start, and a tsconfig.json mapping .kit-types in, which kit dev keeps current).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { astroSite, kitSite } from '../build/site-gen.js';

const here = dirname(fileURLToPath(import.meta.url));
// The installed command: bin/kit.js runs the bundle, as users do.
const cli = join(here, '..', '..', '..', 'bin', 'kit.js');
const root = join(here, '..', '..', '..');
const work = join(root, '.bench-work', 'dev');
const pages = Number(process.env.KIT_BENCH_DEV_PAGES ?? 1000);
const edits = Number(process.env.KIT_BENCH_DEV_EDITS ?? 40);
const memoryEdits = Number(process.env.KIT_BENCH_DEV_MEMORY_EDITS ?? 1000);
const starts = Math.max(1, Number(process.env.KIT_BENCH_DEV_STARTS ?? 5));
const withConfig = process.env.KIT_BENCH_DEV_CONFIG === '1';

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(1) : ms.toFixed(0);
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** GET → status and body, or undefined while nothing listens. */
function fetchText(url: string): Promise<{ status: number; body: string } | undefined> {
  return fetch(url, { headers: { accept: 'text/html' } }).then(
    async (r) => ({ status: r.status, body: await r.text() }),
    () => undefined,
  );
}

async function untilServed(url: string, text: string, timeoutMs = 30000): Promise<void> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    const r = await fetchText(url);
    if (r?.status === 200 && r.body.includes(text)) return;
    if (performance.now() > until) throw new Error(`${url} never served ${JSON.stringify(text)}`);
    await sleep(2);
  }
}

interface Server {
  proc: ChildProcess;
  url: string;
  startMs: number;
  firstRequestMs: number;
  /** Every cold start measured (`coldStarts`), in order. */
  starts?: number[];
}

/**
 * `starts` cold starts of a server, all but the last stopped again: the last server, its
 * `startMs` the median of them all. A single start on a shared machine is one sample of noise.
 */
async function coldStarts(start: () => Promise<Server>): Promise<Server> {
  const all: number[] = [];
  for (let i = 1; ; i++) {
    const s = await start();
    all.push(s.startMs);
    if (i >= starts) return { ...s, startMs: quantile(all, 0.5), starts: all };
    await stop(s.proc);
  }
}

/** Spawns a dev server and waits for its first page; `urlOf` finds the URL in its output. */
async function startServer(cmd: string[], cwd: string, urlOf: RegExp, env: NodeJS.ProcessEnv): Promise<Server> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, cmd, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d));
  proc.stderr!.on('data', (d: Buffer) => (out += d));
  let url: string | undefined;
  for (;;) {
    url ??= urlOf.exec(out.replace(/\u001b\[[0-9;]*m/g, ''))?.[1];
    if (url !== undefined && (await fetchText(url + '/'))?.status === 200) break;
    if (proc.exitCode !== null) throw new Error(`dev server exited:\n${out}`);
    if (performance.now() - t0 > 60000) throw new Error(`dev server did not answer:\n${out}`);
    await sleep(url === undefined ? 5 : 2);
  }
  const startMs = performance.now() - t0;
  const t1 = performance.now();
  await fetchText(`${url}/p/${Math.floor(pages / 2)}`);
  return { proc, url, startMs, firstRequestMs: performance.now() - t1 };
}

/** kit's event stream for one tab; resolves `next()` at the next `reload`. */
class Tab {
  private waiting: ((at: number) => void) | undefined;
  constructor(base: string, path: string) {
    get(`${base}/_kit/dev/events?path=${encodeURIComponent(path)}`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        if (d.includes('event: reload') && this.waiting) {
          const w = this.waiting;
          this.waiting = undefined;
          w(performance.now());
        }
      });
    });
  }
  next(): Promise<number> {
    return new Promise((ok) => (this.waiting = ok));
  }
}

interface EditTimes {
  notified?: number[];
  served: number[];
  /** Edits whose new HTML was not served within 10 s (left out of the percentiles). */
  missed: number;
}

/** `n` edits of `file` (each replacing `v<k>` by `v<k+1>`), timed to the event and to the served page. */
async function timeEdits(
  file: string,
  url: string,
  render: (k: number) => string,
  n: number,
  tab?: Tab,
  shown: (k: number) => string = render,
): Promise<EditTimes> {
  const times: EditTimes = { served: [], missed: 0, ...(tab ? { notified: [] } : {}) };
  for (let k = 1; k <= n; k++) {
    const text = readFileSync(file, 'utf8').replace(render(k - 1), render(k));
    const notified = tab?.next();
    const t0 = performance.now();
    writeFileSync(file, text);
    if (notified) times.notified!.push((await notified) - t0);
    try {
      await untilServed(url, shown(k), 10000);
      times.served.push(performance.now() - t0);
    } catch {
      times.missed++;
    }
    await sleep(100);
  }
  return times;
}

function line(label: string, xs: number[] | undefined, missed = 0): string {
  if (!xs || xs.length === 0) return `${label}: -`;
  const miss = missed > 0 ? ` (${missed} edits never served within 10 s)` : '';
  return `${label}: p50 ${fmt(quantile(xs, 0.5))} ms, p95 ${fmt(quantile(xs, 0.95))} ms${miss}`;
}

function stop(p: ChildProcess): Promise<void> {
  return new Promise((ok) => {
    if (p.exitCode !== null) return ok();
    p.once('exit', () => ok());
    p.kill('SIGINT');
  });
}

// ---- kit
function kitFixture(dir: string): void {
  kitSite(dir, pages);
  writeFileSync(
    join(dir, 'data.kit'),
    'package site\n\npage data\nroute "/data"\nguard public\nrender ssr\n\nserver {\n  => { value }\n}\n\n' +
      'view {\n  <p>{value}</p>\n}\n',
  );
  writeFileSync(
    join(dir, 'handlers.ts'),
    'export function LoadData(ctx: unknown) {\n  void ctx;\n  return { value: "data v0" };\n}\n',
  );
  for (const f of ['kit.config.ts', 'tsconfig.json', 'package.json']) rmSync(join(dir, f), { force: true });
  if (!withConfig) return;
  writeFileSync(join(dir, 'package.json'), '{ "name": "bench-dev", "private": true, "type": "module" }\n');
  writeFileSync(join(dir, 'kit.config.ts'), 'export const ssr = true;\n');
  writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": { "rootDirs": [".", ".kit-types"] } }\n');
}

interface Figures {
  startMs: number;
  starts?: number[];
  firstRequestMs: number;
  page: EditTimes;
  handler: EditTimes;
  rssFirst?: number;
  rssAfter?: number;
}

async function benchKit(): Promise<Figures> {
  const dir = join(work, 'kit');
  kitFixture(dir);
  const s = await coldStarts(() =>
    // With a kit.config, `npm run dev` as the starter has it: no flag, no path.
    startServer(
      [cli, 'dev', '--port', '0', ...(withConfig ? [] : ['--ssr', '.'])],
      dir,
      /(http:\/\/127\.0\.0\.1:\d+)\//,
      {
        ...process.env,
        NO_COLOR: '1',
      },
    ),
  );
  const pageFile = join(dir, 'p1.kit');
  writeFileSync(pageFile, readFileSync(pageFile, 'utf8').replace('Body of page 1:', 'Body of page 1 v0:'));
  await untilServed(s.url + '/p/1', 'page 1 v0');
  const pageTab = new Tab(s.url, '/p/1');
  const dataTab = new Tab(s.url, '/data');
  await sleep(200);
  const page = await timeEdits(pageFile, s.url + '/p/1', (k) => `page 1 v${k}:`, edits, pageTab);
  const handler = await timeEdits(
    join(dir, 'handlers.ts'),
    s.url + '/data',
    (k) => `data v${k}"`,
    edits,
    dataTab,
    (k) => `data v${k}<`,
  );
  const figures: Figures = { startMs: s.startMs, starts: s.starts, firstRequestMs: s.firstRequestMs, page, handler };
  if (memoryEdits > 0) {
    const base = edits;
    figures.rssFirst = rssMb(s.proc.pid!);
    for (let k = base + 1; k <= base + memoryEdits; k++) {
      const text = readFileSync(pageFile, 'utf8').replace(`page 1 v${k - 1}:`, `page 1 v${k}:`);
      const notified = pageTab.next();
      writeFileSync(pageFile, text);
      await notified;
      if (k % 100 === 0) await fetchText(s.url + '/p/1');
    }
    await sleep(500);
    figures.rssAfter = rssMb(s.proc.pid!);
  }
  await stop(s.proc);
  return figures;
}

// ---- astro
async function benchAstro(): Promise<Figures | undefined> {
  if (process.env.KIT_BENCH_ASTRO === '0') return undefined;
  const dir = join(work, 'astro');
  mkdirSync(dir, { recursive: true });
  for (const f of ['package.json', 'astro.config.mjs']) copyFileSync(join(root, 'bench', 'astro', f), join(dir, f));
  const astroBin = join(dir, 'node_modules', 'astro', 'astro.js');
  if (!existsSync(astroBin)) {
    console.log('astro: installing into .bench-work/dev/astro (once) ...');
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (r.status !== 0 || !existsSync(astroBin)) {
      console.log('astro: skipped: it could not be installed from the npm registry');
      return undefined;
    }
  }
  astroSite(dir, pages);
  mkdirSync(join(dir, 'src', 'lib'), { recursive: true });
  writeFileSync(
    join(dir, 'src', 'lib', 'data.ts'),
    'export function loadData() {\n  return { value: "data v0" };\n}\n',
  );
  writeFileSync(
    join(dir, 'src', 'pages', 'data.astro'),
    "---\nimport { loadData } from '../lib/data';\nconst { value } = loadData();\n---\n<p>{value}</p>\n",
  );
  const pageFile = join(dir, 'src', 'pages', 'p', '1.astro');
  writeFileSync(pageFile, readFileSync(pageFile, 'utf8').replace('Body of page 1:', 'Body of page 1 v0:'));
  const s = await coldStarts(() =>
    startServer([astroBin, 'dev', '--port', '0', '--host', '127.0.0.1'], dir, /(http:\/\/127\.0\.0\.1:\d+)\//, {
      ...process.env,
      ASTRO_TELEMETRY_DISABLED: '1',
    }),
  );
  await untilServed(s.url + '/p/1', 'page 1 v0');
  const page = await timeEdits(pageFile, s.url + '/p/1', (k) => `page 1 v${k}:`, edits);
  const handler = await timeEdits(
    join(dir, 'src', 'lib', 'data.ts'),
    s.url + '/data',
    (k) => `data v${k}"`,
    edits,
    undefined,
    (k) => `data v${k}<`,
  );
  await stop(s.proc);
  return { startMs: s.startMs, starts: s.starts, firstRequestMs: s.firstRequestMs, page, handler };
}

function ratio(kit: number, other: number | undefined): string {
  return other === undefined ? '' : ` (astro ${fmt(other)} ms: ${(other / kit).toFixed(1)}×)`;
}

/** Heap retained (MB, after forced GCs) by a dev session after `warm` edits and after `memoryEdits` more. */
async function retainedHeap(dir: string, warm: number): Promise<[number, number] | undefined> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined || memoryEdits === 0) return undefined;
  const { DevSession } = await import('#cli/dev/session.js');
  const { newCollector, newTracer, withSink } = await import('#shared/trace/index.js');
  const collector = newCollector(1024);
  const { session } = await DevSession.start({
    root: dir,
    cwd: dir,
    ssr: true,
    csrfSecret: '0'.repeat(64),
    log: () => {},
    appName: 'bench',
    tracer: newTracer(withSink(collector)),
    collector,
  });
  const file = join(dir, 'p1.kit');
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed / 1048576;
  };
  let first = 0;
  for (let k = 1; k <= warm + memoryEdits; k++) {
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/page 1 v(\d+):/, (_m, n) => `page 1 v${Number(n) + 1}:`),
    );
    await session.apply([file]);
    if (k === warm) first = heap();
  }
  const after = heap();
  await session.close();
  return [first, after];
}

// The first `fetch` of a process loads its HTTP client (tens of ms): not the servers' start.
await fetchText('http://127.0.0.1:9/');
const kit = await benchKit();
const retained = await retainedHeap(join(work, 'kit'), edits);
const astro = await benchAstro();
console.log(
  `kit dev on ${pages} pages (+1 SSR page)${withConfig ? ', ssr from kit.config.ts, .kit-types kept' : ''}, ` +
    `${edits} timed edits per case; astro dev 5.18 in the same run`,
);
const range = (f: Figures | undefined) => (f?.starts ? ` [${f.starts.map(fmt).join(', ')}]` : '');
console.log(
  `  cold start to the first page, median of ${starts}: ${fmt(kit.startMs)} ms${ratio(kit.startMs, astro?.startMs)}` +
    `; kit${range(kit)}, astro${range(astro)}`,
);
console.log(
  `  first request of another page: ${fmt(kit.firstRequestMs)} ms${ratio(kit.firstRequestMs, astro?.firstRequestMs)}`,
);
console.log('  ' + line('page edit → reload event', kit.page.notified));
console.log('  ' + line('handler edit → reload event', kit.handler.notified));
const p95 = (t: EditTimes | undefined) => (t ? quantile(t.served, 0.95) : undefined);
console.log('  ' + line('page edit → new HTML served', kit.page.served) + ratio(p95(kit.page)!, p95(astro?.page)));
console.log(
  '  ' + line('handler edit → new HTML served', kit.handler.served) + ratio(p95(kit.handler)!, p95(astro?.handler)),
);
if (astro) {
  console.log('  astro ' + line('page edit → new HTML served', astro.page.served, astro.page.missed));
  console.log('  astro ' + line('module edit → new HTML served', astro.handler.served, astro.handler.missed));
}
if (kit.rssFirst !== undefined && kit.rssAfter !== undefined)
  console.log(
    `  RSS after the first timed edits ${fmt(kit.rssFirst)} MB, after ${memoryEdits} more edits ${fmt(kit.rssAfter)} MB ` +
      `(${(((kit.rssAfter - kit.rssFirst) / kit.rssFirst) * 100).toFixed(1)}%)`,
  );
if (retained)
  console.log(
    `  retained heap of the dev session after ${edits} edits ${fmt(retained[0])} MB, after ${memoryEdits} more ` +
      `${fmt(retained[1])} MB (${(((retained[1] - retained[0]) / retained[0]) * 100).toFixed(1)}%)`,
  );
