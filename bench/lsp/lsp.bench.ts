// Language server speed (issue 4), measured through the real protocol over stdio: the time from a
// `didChange` to the matching `publishDiagnostics`, for (a) a one-character edit in a small file of
// a 5,000-file workspace and (b) an edit inside a `view` in the middle of a 10,000-line file (with
// 2,000 errors, and (b2) valid); (c) the
// initial indexing of the 5,000-file workspace and (d) the server's memory for it. Each latency is
// printed beside the same edit on a server that re-parses the whole file (`full-reparse-server.ts`)
// and the in-process time of a full `parseKit` of the edited text.
//
// Each part runs in a process of its own: `node lsp.bench.js b` runs part (b) alone (`a` runs (a),
// (c) and (d), which share a workspace);
// KIT_BENCH_SERVER_ARGS adds node options to the servers (e.g. `--cpu-prof --cpu-prof-dir=DIR`);
// KIT_BENCH_COMPARE names another build's `out/server/src/cli/main.js` (an earlier commit, say), whose
// server is measured the same way in the same run, for before/after figures.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseKit, reparseKit } from '#grammar/index.js';
import { fileUri, LspClient } from '#test/server/lsp/helpers/lsp-client.js';
import { generateSite, writeSite } from '../fixtures/site-generator.js';
import { editLatency, fmt, pct, timeInProcess } from './latency.js';

/** This server, the same with whole-file re-parsing, and (KIT_BENCH_COMPARE) another build's. */
type Variant = 'incremental' | 'full' | 'compare';

const compareScript = process.env.KIT_BENCH_COMPARE;
// The compared server goes first: the first server of a run meets a cold page cache, which would
// otherwise count against this one.
const variants: Variant[] = compareScript ? ['compare', 'incremental', 'full'] : ['incremental', 'full'];

function scriptOf(variant: Variant): string | undefined {
  if (variant === 'full') return fileURLToPath(new URL('./full-reparse-server.js', import.meta.url));
  return variant === 'compare' ? compareScript : undefined;
}

async function startIndexed(
  root: string,
  variant: Variant,
): Promise<{ client: LspClient; indexMs: number; serverMs: number; boundMs: number; serverBoundMs: number }> {
  // As the VS Code extension starts it: with --expose-gc, so indexing garbage is returned at once.
  const client = LspClient.start({ nodeArgs: ['--expose-gc', ...serverArgs], script: scriptOf(variant) });
  await client.initialize([root], { sendInitialized: false });
  const t = performance.now();
  const ready = client.waitForStatuses(1, 120000, 'ready');
  const bound = client.waitForStatuses(1, 120000, 'bound');
  await client.conn.sendNotification('initialized', {});
  await ready;
  const indexMs = performance.now() - t;
  await bound;
  const boundMs = performance.now() - t;
  const status = (state: string) => client.statuses.find((s) => s.state === state)?.ms ?? NaN;
  return { client, indexMs, serverMs: status('ready'), boundMs, serverBoundMs: status('bound') };
}

/**
 * A page whose view holds about 10,000 lines of markup, in package `pkg`: its 2,000 `<Card>` calls
 * name the generated site's component, which package `site` has and package `big` does not (each
 * call is then an `unknown_component` error, published again with every edit).
 */
function bigPage(lines: number, pkg: 'big' | 'site'): string {
  const head = [
    `package ${pkg}`,
    '',
    'page big',
    'route "/big/{slug}"',
    'guard public',
    'title "Big"',
    '',
    'paths {',
    '  => { slug: "a" }',
    '}',
    '',
    'act Save POST "/big/save"',
    '',
    'view {',
    '  <main>',
  ];
  const body: string[] = [];
  let i = 0;
  while (head.length + body.length + 4 < lines) {
    body.push(
      `    <section id="s${i}" class="block">`,
      `      <h2>Section ${i} of {slug}</h2>`,
      `      <Card heading="Card ${i}"><p>Paragraph ${i} with {param("slug")} text.</p></Card>`,
      `      <form g:post={Save}><input name="q${i}" /></form>`,
      '    </section>',
    );
    i++;
  }
  return [...head, ...body, '  </main>', '}', ''].join('\n');
}

interface Latencies {
  p50: number;
  p95: number;
  base50: number;
  base95: number;
  parse: number;
  /** Server CPU time per edit, incremental and full re-parse server. */
  cpu?: number;
  baseCpu?: number;
  /** The KIT_BENCH_COMPARE server's figures. */
  cmp50?: number;
  cmp95?: number;
  cmpCpu?: number;
}

interface IndexFigures {
  indexMs: number;
  serverMs: number;
  boundMs: number;
  serverBoundMs: number;
  rssMb: number;
  heapMb: number;
}

/** Stores one variant's latencies. */
function record(r: Latencies, variant: Variant, times: number[] & { cpu?: number }): void {
  const p50 = pct(times, 0.5);
  const p95 = pct(times, 0.95);
  if (variant === 'incremental') Object.assign(r, { p50, p95, cpu: times.cpu });
  else if (variant === 'full') Object.assign(r, { base50: p50, base95: p95, baseCpu: times.cpu });
  else Object.assign(r, { cmp50: p50, cmp95: p95, cmpCpu: times.cpu });
}

const gc = (globalThis as { gc?: () => void }).gc;
const serverArgs = (process.env.KIT_BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
// One part per process (performance.md): latencies are timed in this client process, and after
// part (a) it holds the diagnostics of two 5,000-file workspaces, whose garbage collection would
// then pause part (b)'s measurements.
if (process.argv[2] === undefined) {
  for (const part of ['a', 'b']) {
    const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), part], {
      stdio: 'inherit',
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  process.exit(0);
}
const parts = process.argv[2];
const work = mkdtempSync(join(tmpdir(), 'kit-lsp-bench-'));
const clients: LspClient[] = [];
try {
  const results: Record<string, Latencies> = {};
  const indexFigures: Partial<Record<Variant, IndexFigures>> = {};
  // ---- (a), (c), (d): the 5,000-file workspace -------------------------------------------------
  if (parts.includes('a')) {
    const site = join(work, 'site');
    const files = generateSite(5000, { handlers: true });
    writeSite(site, files);
    const kitCount = files.filter((f) => f.path.endsWith('.kit')).length;
    console.log(`workspace: ${kitCount} .kit files, ${files.length - kitCount} handler modules`);

    const small = 'd17/p171.kit';
    const smallText = readFileSync(join(site, small), 'utf8');
    const smallLine = smallText.split('\n').findIndex((l) => l.includes('<h1>'));
    const smallChar = smallText.split('\n')[smallLine].indexOf('Page') + 2;
    const smallEdited = smallText
      .split('\n')
      .map((l, i) => (i === smallLine ? l.slice(0, smallChar) + 'x' + l.slice(smallChar) : l))
      .join('\n');

    for (const variant of variants) {
      gc?.();
      const { client, indexMs, serverMs, boundMs, serverBoundMs } = await startIndexed(site, variant);
      clients.push(client);
      if (variant !== 'full') {
        const stats = await client.request<{ rss: number; heapUsed: number; files: number }>('kit/stats', {});
        indexFigures[variant] = {
          indexMs,
          serverMs,
          boundMs,
          serverBoundMs,
          rssMb: stats.rss / 2 ** 20,
          heapMb: stats.heapUsed / 2 ** 20,
        };
      }
      const uri = fileUri(join(site, small));
      const opened = client.waitForDiagnostics(uri, (d) => d.version === 1, { fresh: true });
      await client.open(uri, smallText, 1);
      await opened;
      const times = await editLatency(client, uri, smallLine, smallChar, 200, 30);
      results.a ??= { p50: 0, p95: 0, base50: 0, base95: 0, parse: 0 };
      record(results.a, variant, times);
      await client.shutdown();
    }
    results.a.parse = timeInProcess(() => parseKit(smallEdited, small));
  }

  // ---- (b): an edit inside a view in the middle of a 10,000-line file --------------------------
  let reparse = NaN;
  let bigLineCount = 0;
  // Twice: the view with 2,000 errors (`b`), and the same view valid (`b2`: its calls resolve).
  for (const [key, pkg] of [
    ['b', 'big'],
    ['b2', 'site'],
  ] as const) {
    if (!parts.includes('b')) break;
    const bigRoot = join(work, `big-${pkg}`);
    writeSite(bigRoot, generateSite(20, { handlers: true }));
    const bigText = bigPage(10000, pkg);
    const bigPath = join(bigRoot, 'big.kit');
    writeFileSync(bigPath, bigText);
    const bigLines = bigText.split('\n');
    const midLine = bigLines.findIndex((l, i) => i >= bigLines.length / 2 && l.includes('<h2>'));
    const midChar = bigLines[midLine].indexOf('Section') + 3;
    const bigEdited = bigLines
      .map((l, i) => (i === midLine ? l.slice(0, midChar) + 'x' + l.slice(midChar) : l))
      .join('\n');
    for (const variant of variants) {
      gc?.();
      const { client } = await startIndexed(bigRoot, variant);
      clients.push(client);
      const uri = fileUri(bigPath);
      const opened = client.waitForDiagnostics(uri, (d) => d.version === 1, { fresh: true });
      await client.open(uri, bigText, 1);
      await opened;
      const times = await editLatency(client, uri, midLine, midChar, 100, 20);
      results[key] ??= { p50: 0, p95: 0, base50: 0, base95: 0, parse: 0 };
      record(results[key], variant, times);
      await client.shutdown();
    }
    results[key].parse = timeInProcess(() => parseKit(bigEdited, 'big.kit'), 10);
    // `reparseKit` consumes its previous tree: the edit goes back and forth, each from the last result.
    let cur = { ast: parseKit(bigText, 'big.kit'), text: bigText };
    reparse = timeInProcess(() => {
      const next = cur.text === bigText ? bigEdited : bigText;
      cur = { ast: reparseKit(cur.ast, cur.text, next), text: next };
    }, 30);
    bigLineCount = bigLines.length;
  }

  const line = (label: string, r: Latencies, target: number) => {
    console.log(
      `${label}: p50 ${fmt(r.p50)}, p95 ${fmt(r.p95)} (target p95 <= ${target} ms) | full re-parse server: p50 ${fmt(r.base50)}, p95 ${fmt(r.base95)} | ratio p95 ${(r.base95 / r.p95).toFixed(1)}x | server CPU per edit ${fmt(r.cpu ?? NaN)} vs ${fmt(r.baseCpu ?? NaN)} | in-process parseKit of the edited file ${fmt(r.parse)}`,
    );
    if (r.cmp95 !== undefined)
      console.log(
        `    compared server (KIT_BENCH_COMPARE): p50 ${fmt(r.cmp50 ?? NaN)}, p95 ${fmt(r.cmp95)} | this/compared p95 ${(r.p95 / r.cmp95).toFixed(2)} | server CPU per edit ${fmt(r.cmpCpu ?? NaN)}`,
      );
  };
  if (results.b)
    console.log(
      `${bigLineCount}-line file: in-process reparseKit ${fmt(reparse)} vs parseKit ${fmt(results.b.parse)} (${(results.b.parse / reparse).toFixed(1)}x)`,
    );
  if (results.a)
    line('(a) one-char edit, small file, 5,000-file workspace, didChange -> publishDiagnostics', results.a, 5);
  if (results.b)
    line(
      '(b) edit inside a view, middle of a 10,000-line file with 2,000 errors, didChange -> publishDiagnostics',
      results.b,
      15,
    );
  if (results.b2) line('(b2) the same edit, the same view valid, didChange -> publishDiagnostics', results.b2, 15);
  const f = indexFigures.incremental;
  const cmp = indexFigures.compare;
  if (f)
    console.log(
      `(c) initial indexing, 5,000 files: ${fmt(f.indexMs)} from initialized to kit/status ready, every diagnostic but handler binding published (server's own count ${f.serverMs} ms; target <= 800 ms); handlers bound and published after ${fmt(f.boundMs)} (server ${f.serverBoundMs} ms; target <= 1200 ms)`,
    );
  if (f)
    console.log(
      `(d) server memory after indexing: rss ${f.rssMb.toFixed(0)} MB, heap ${f.heapMb.toFixed(0)} MB (target: rss <= 200 MB)`,
    );
  if (cmp)
    console.log(
      `    compared server (KIT_BENCH_COMPARE): ready ${fmt(cmp.indexMs)} (server ${cmp.serverMs} ms), bound ${fmt(cmp.boundMs)} (server ${cmp.serverBoundMs} ms), rss ${cmp.rssMb.toFixed(0)} MB, heap ${cmp.heapMb.toFixed(0)} MB`,
    );
} finally {
  for (const c of clients) if (c.child.exitCode === null) c.kill();
  rmSync(work, { recursive: true, force: true });
}
