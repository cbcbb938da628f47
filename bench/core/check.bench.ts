// `kit check` speed (issue 2) on generated workspaces of 1,000, 5,000 and 10,000 page files:
//   1. throughput: parse + summary against a lexing-only pass over the same texts, in one process;
//      and what receiving a file's analysis from a loading thread costs the main thread, against
//      parsing and analysing it there;
//   2. the real command, cold: `kit check --ssr --json <dir>` as a child process, its wall time minus
//      the same command's start-up (measured on an empty directory in the same run: Node, module
//      loading, argument parsing), its CPU time, and its retained heap after loading measured in a
//      separate child that loads the workspace once (one case per process, as performance.md asks);
//   3. the same sites with a handler module per directory, binding on a worker thread (the default
//      from 200 files) against binding in the main thread (`KIT_BIND_WORKER=0`), runs interleaved.
// Medians of three runs each (five for 3). Environment: KIT_BENCH_SIZES=1000,5000 to choose sizes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { deserialize, serialize } from 'node:v8';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexOnly, parseKit } from '#grammar/index.js';
import { summarize } from '#core/model/summary.js';
import { dropMarkup, packAnalysis, unpackAnalysis } from '#core/project/parse-shared.js';
import { reviveSpans } from '#core/project/revive-spans.js';
import { analyseKit, type KitAnalysis } from '#core/workspace/analyse-kit.js';
import { generateSite, writeSite } from '../fixtures/site-generator.js';
import { median, time } from '../fixtures/measure.js';
import { runMeasured } from '../fixtures/usage.js';

const here = dirname(fileURLToPath(import.meta.url));
// The installed command: bin/kit.js runs the bundle (start-up figures: bench/core/startup.bench.ts).
const cli = join(here, '..', '..', '..', 'bin', 'kit.js');
const loadModule = join(here, '..', '..', 'server', 'src', 'core', 'project', 'load.js');
const workspaceModule = join(here, '..', '..', 'server', 'src', 'core', 'workspace', 'workspace.js');
const sizes = (process.env.KIT_BENCH_SIZES ?? '1000,5000,10000').split(',').map(Number);
const RUNS = 3;

interface Run {
  wallMs: number;
  cpuMs: number;
}

/** Wall and CPU time (user + system, every thread) of one `kit` invocation. */
function runKit(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const r = runMeasured([cli, ...args], { env: { ...process.env, ...env } });
  if (r.status !== 0 && r.status !== 1) throw new Error(`kit ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return { wallMs: r.usage.wallMs, cpuMs: r.usage.cpuMs };
}

/**
 * Retained heap (MB) of a workspace loaded once in a fresh process as `kit check` loads it (the
 * `SUMMARIES` policy: markup dropped once a file is checked), and its diagnostic count.
 */
function retainedHeap(dir: string): { heapMb: number; diagnostics: number } {
  const script = `
    const { loadProject } = await import(${JSON.stringify(loadModule)});
    const { SUMMARIES } = await import(${JSON.stringify(workspaceModule)});
    globalThis.gc(); const before = process.memoryUsage().heapUsed;
    const p = loadProject([${JSON.stringify(dir)}], { ssr: true }, process.cwd(), { policy: SUMMARIES });
    const diagnostics = p.workspace.allDiagnostics().length;
    globalThis.gc(); const after = process.memoryUsage().heapUsed;
    console.log(JSON.stringify({ heapMb: (after - before) / 1e6, diagnostics, keep: typeof p }));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`heap probe failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { heapMb: number; diagnostics: number };
}

/**
 * What a loading thread (`KIT_WORKERS`) saves the main thread: receiving one file's analysis (the
 * structured-clone bytes a loading thread posts, deserialised and made whole as
 * `project/parse-pool.ts` does) against parsing and analysing the file there, warm, same texts.
 */
function handOver(files: readonly { path: string; text: string }[]): void {
  const analyse = () => files.map((f) => analyseKit(parseKit(f.text, f.path, { incremental: false }), { ssr: true }));
  const here: number[] = [];
  const received: number[] = [];
  let bytes = 0;
  for (let r = 0; r < 5; r++) {
    here.push(time(analyse));
    const sent = analyse().map((a) => {
      dropMarkup(a.ast);
      return serialize(packAnalysis(a));
    });
    bytes = sent.reduce((n, b) => n + b.length, 0);
    received.push(
      time(() => {
        for (const b of sent) unpackAnalysis(reviveSpans(deserialize(b) as KitAnalysis));
      }),
    );
  }
  const hereMs = median(here.slice(2));
  const receivedMs = median(received.slice(2));
  console.log(
    `  hand-over from a loading thread: ${receivedMs.toFixed(0)} ms to receive ${files.length} analyses ` +
      `(${(bytes / 1e6).toFixed(1)} MB) against ${hereMs.toFixed(0)} ms ` +
      `to parse and analyse them on the main thread: ` +
      `${((100 * receivedMs) / hereMs).toFixed(0)}% of the work stays there`,
  );
}

const work = mkdtempSync(join(tmpdir(), 'kit-check-bench-'));
const empty = join(work, 'empty');
mkdirSync(empty);

try {
  // Start-up: the same command on a directory without sources.
  const startup: Run[] = [];
  for (let r = 0; r < RUNS + 1; r++) startup.push(runKit(['check', '--ssr', '--json', empty]));
  const startWall = median(startup.slice(1).map((s) => s.wallMs));
  const startCpu = median(startup.slice(1).map((s) => s.cpuMs));
  console.log(
    `start-up (kit check on an empty directory): ${startWall.toFixed(0)} ms wall, ${startCpu.toFixed(0)} ms CPU`,
  );

  for (const n of sizes) {
    const files = generateSite(n);
    const bytes = files.reduce((a, f) => a + f.text.length, 0);
    const lines = files.reduce((a, f) => a + f.text.split('\n').length, 0);
    // Throughput: lexing only vs parse + summary, same texts, same process.
    // Medians after warm-up rounds: the smaller sets would otherwise be timed before the JIT has
    // optimised the parser (a 1,000-file round takes tens of milliseconds).
    const WARMUP = 3;
    const lexRuns: number[] = [];
    const parseRuns: number[] = [];
    for (let r = 0; r < WARMUP + 5; r++) {
      lexRuns.push(
        time(() => {
          for (const f of files) lexOnly(f.text);
        }),
      );
      parseRuns.push(
        time(() => {
          for (const f of files) summarize(parseKit(f.text, f.path, { incremental: false }));
        }),
      );
    }
    const lexMs = median(lexRuns.slice(WARMUP));
    const parseMs = median(parseRuns.slice(WARMUP));
    const mb = bytes / 1e6;
    console.log(
      `${n} files (${lines} lines, ${mb.toFixed(1)} MB): lex-only ${(mb / (lexMs / 1000)).toFixed(1)} MB/s, parse+summary ${(mb / (parseMs / 1000)).toFixed(1)} MB/s → ${((100 * lexMs) / parseMs).toFixed(0)}% of lexing throughput (target ≥ 40%)`,
    );
    handOver(files);

    const dir = join(work, `site-${n}`);
    writeSite(dir, files);
    const runs: Run[] = [];
    for (let r = 0; r < RUNS; r++) runs.push(runKit(['check', '--ssr', '--json', dir]));
    const wall = median(runs.map((r) => r.wallMs));
    const cpu = median(runs.map((r) => r.cpuMs));
    const { heapMb, diagnostics } = retainedHeap(dir);
    const target =
      n === 10000
        ? 'target < 1500 ms'
        : n === 5000
          ? 'target ≤ 700 ms; Langium peer 3300–3900 ms'
          : 'Langium peer 940–1080 ms';
    const heapTarget = n === 5000 ? ' (target ≤ 150 MB; Langium peer 361 MB)' : n === 10000 ? ' (target < 400 MB)' : '';
    console.log(
      `${n} files: kit check ${wall.toFixed(0)} ms wall, ${(wall - startWall).toFixed(0)} ms after start-up (${target}), ${cpu.toFixed(0)} ms CPU; retained heap ${heapMb.toFixed(0)} MB${heapTarget}; ${diagnostics} diagnostics; lexing-only baseline ${lexMs.toFixed(0)} ms → check/lex ratio ${((wall - startWall) / lexMs).toFixed(2)}`,
    );
    rmSync(dir, { recursive: true, force: true });
  }

  for (const n of sizes) {
    const dir = join(work, `handlers-${n}`);
    writeSite(dir, generateSite(n, { handlers: true }));
    const runs: Record<'0' | '1', Run[]> = { '0': [], '1': [] };
    for (let r = 0; r < 5; r++)
      for (const w of ['1', '0'] as const)
        runs[w].push(runKit(['check', '--ssr', '--json', dir], { KIT_BIND_WORKER: w }));
    const wall = (w: '0' | '1') => median(runs[w].map((r) => r.wallMs));
    const cpu = (w: '0' | '1') => median(runs[w].map((r) => r.cpuMs));
    console.log(
      `${n} files with ${n / 10} handler modules: binding on a worker ${wall('1').toFixed(0)} ms wall ` +
        `(${cpu('1').toFixed(0)} ms CPU), in the main thread ${wall('0').toFixed(0)} ms wall ` +
        `(${cpu('0').toFixed(0)} ms CPU) → ${(wall('0') / wall('1')).toFixed(2)}×`,
    );
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
