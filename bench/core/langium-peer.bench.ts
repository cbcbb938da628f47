// `kit check --ssr` side by side with the Langium peer (`../shared/peers/langium`: the same `.kit`
// page language on Langium 4.2.1), on the very same files, in the same run:
//   1. the peer's generator writes workspaces of 1,000, 5,000, 10,000 and 20,000 files (5 deliberate
//      duplicates each);
//   2. kit checks each workspace as a cold process (`bin/kit.js check --ssr --json`, start-up
//      included), median of three runs; printed with the time per file, so that the curve from 1k
//      to 20k files shows any super-linear step;
//   3. the ratio at 5,000 files, in interleaved rounds (these machines are shared, and a minute's
//      load moves either side by a third or more): each round runs Langium's own benchmark once,
//      building and validating the files in-process after its warm-up (`build_5000`: parse + every
//      build phase, text already in memory, no start-up; the first round also runs its sanity
//      checks), then one cold kit process on the same files; every round's pair and ratio are
//      printed, and the ratio of the medians;
//   4. each run's CPU time on every thread and on the main thread (`fixtures/usage-probe.cjs`), and
//      the same command with a loading thread per core (`KIT_WORKERS`), alternating with the
//      default: whether parallel loading pays on this machine, and how much CPU a target leaves;
//   5. for reading the ratio: kit measured as Langium measures itself, in this process after a
//      warm-up load (loading and validating the workspace, no start-up, no output), median of the
//      same number of runs. The target is the ratio of 3; this line says how much of the cold
//      process is start-up and compiling kit's own code (V8 compiles it anew in every process).
// The peer is copied into `.bench-work/langium` and installed there once (it needs the npm
// registry); without the peer directory the benchmark says so and stops.
// Environment: KIT_BENCH_SIZES=1000,5000 (kit sizes), KIT_BENCH_LANGIUM_SIZE=5000, KIT_BENCH_RUNS=3,
// KIT_BENCH_RATIO_ROUNDS=5 (rounds of the ratio), KIT_BENCH_LANGIUM_PEER=<dir> (the peer's
// directory, when not beside the repository).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProject } from '#core/project/load.js';
import { SUMMARIES } from '#core/workspace/workspace.js';
import { median } from '../fixtures/measure.js';
import { runMeasured, type Usage } from '../fixtures/usage.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// KIT_BENCH_LANGIUM_PEER: the peer elsewhere (a worktree whose parent does not hold it).
const peerSource = process.env.KIT_BENCH_LANGIUM_PEER ?? join(root, '..', 'shared', 'peers', 'langium');
const work = join(root, '.bench-work', 'langium');
const cli = join(root, 'bin', 'kit.js');
const sizes = (process.env.KIT_BENCH_SIZES ?? '1000,5000,10000,20000').split(',').map(Number);
const langiumSize = Number(process.env.KIT_BENCH_LANGIUM_SIZE ?? 5000);
const runs = Number(process.env.KIT_BENCH_RUNS ?? 3);
const ratioRounds = Number(process.env.KIT_BENCH_RATIO_ROUNDS ?? 5);

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** The peer, copied and installed into the bench's work directory once. */
function preparePeer(): boolean {
  if (!existsSync(join(peerSource, 'bench.mjs'))) {
    console.log(`Langium peer not found beside the repository (../shared/peers/langium): skipped`);
    return false;
  }
  if (!existsSync(join(work, 'node_modules', 'langium'))) {
    mkdirSync(work, { recursive: true });
    cpSync(peerSource, work, { recursive: true, filter: (p) => !/[/\\](node_modules|ws-[^/\\]*)$/.test(p) });
    console.log('langium peer: installing into .bench-work/langium (once) ...');
    run('npm', ['ci', '--no-audit', '--no-fund', '--silent'], work);
  }
  return true;
}

function workspace(n: number): string {
  const dir = join(work, `ws-${n}`);
  if (!existsSync(dir)) run(process.execPath, ['gen.mjs', '--n', String(n), '--dups', '5', '--out', dir], work);
  return dir;
}

/** One cold `kit check --ssr --json` of `dir`: wall time, CPU time on every thread and on the main one. */
function kitCheck(dir: string, threads = 1): Usage {
  const env = { ...process.env, KIT_WORKERS: String(threads) };
  const r = runMeasured([cli, 'check', '--ssr', '--json', dir], { env });
  if (r.status !== 0 && r.status !== 1) throw new Error(`kit check exited with ${r.status}: ${r.stderr}`);
  const report = JSON.parse(r.stdout) as { diagnostics: { code: string }[] };
  const dups = report.diagnostics.filter((d) => d.code === 'duplicate_route').length;
  if (dups !== 5) throw new Error(`kit check found ${dups} duplicate routes in ${dir}, expected 5`);
  return r.usage;
}

/** Medians of each field over `runs`. */
function medians(runs: readonly Usage[]): Usage {
  const main = runs.map((u) => u.mainCpuMs);
  return {
    wallMs: median(runs.map((u) => u.wallMs)),
    cpuMs: median(runs.map((u) => u.cpuMs)),
    mainCpuMs: main.every((m) => m !== undefined) ? median(main as number[]) : undefined,
    rssMb: median(runs.map((u) => u.rssMb)),
  };
}

const ms = (n: number): string => `${n.toFixed(0)} ms`;

/** Wall, CPU over every thread and the main thread's CPU, as one line's middle. */
function usageLine(u: Usage): string {
  const main = u.mainCpuMs === undefined ? '' : `, main thread ${ms(u.mainCpuMs)}`;
  const busy = (u.cpuMs / u.wallMs).toFixed(2);
  return `${ms(u.wallMs)} wall; CPU ${ms(u.cpuMs)} on all threads${main}; ${busy} cores busy`;
}

/**
 * kit loading and validating `dir` in this process, as Langium's benchmark measures itself: one
 * warm-up load, then the median of `runs` (ms). What `kit check` does but start-up and printing.
 */
function kitInProcess(dir: string): number {
  const once = (): number => {
    const t0 = performance.now();
    const { workspace } = loadProject([dir], { ssr: true }, root, { policy: SUMMARIES });
    const dups = workspace.allDiagnostics().filter((d) => d.code === 'duplicate_route').length;
    if (dups !== 5) throw new Error(`kit found ${dups} duplicate routes in ${dir} in process, expected 5`);
    return performance.now() - t0;
  };
  once();
  return median(Array.from({ length: runs }, once));
}

/**
 * Langium's in-process `build_<n>` median over `times` builds (ms), from the peer's own benchmark;
 * `sanity`: first its own check that its rules find what they should (the first round's).
 */
function langiumBuild(n: number, times: number, sanity: boolean): number {
  const out = run(
    process.execPath,
    [
      'bench.mjs',
      ...(sanity ? [] : ['--no-sanity']),
      '--sizes',
      String(n),
      '--runs',
      String(times),
      '--edits',
      '1',
      '--warm-edits',
      '0',
      '--big-lines',
      '200',
    ],
    work,
  );
  const m = new RegExp(`build_${n} median_ms=([0-9.]+)`).exec(out);
  if (!m) throw new Error(`no build_${n} line in the Langium benchmark's output:\n${out}`);
  return Number(m[1]);
}

if (preparePeer()) {
  const cores = availableParallelism();
  console.log(`load average at start: ${loadavg()[0].toFixed(2)} (${cores} cores)`);
  const kit = new Map<number, Usage>();
  for (const n of sizes) {
    const dir = workspace(n);
    kitCheck(dir); // warm the file cache
    // One loading thread (the default) against one per core, alternating, so both meet the same minutes.
    const one: Usage[] = [];
    const pooled: Usage[] = [];
    for (let r = 0; r < runs; r++) {
      one.push(kitCheck(dir));
      pooled.push(kitCheck(dir, cores));
    }
    const u = medians(one);
    const p = medians(pooled);
    kit.set(n, u);
    console.log(
      `kit check --ssr, ${n} files, cold process: ${usageLine(u)}; ${((u.wallMs * 1000) / n).toFixed(0)} µs per file`,
    );
    console.log(`  with ${cores} loading threads (KIT_WORKERS=${cores}): ${usageLine(p)}`);
  }
  // The ratio: Langium and kit alternating, so that both meet the same minutes of the machine.
  const dir = workspace(langiumSize);
  const pairs: { langium: number; kit: Usage }[] = [];
  for (let r = 0; r < ratioRounds; r++) {
    const langiumMs = langiumBuild(langiumSize, 1, r === 0);
    pairs.push({ langium: langiumMs, kit: kitCheck(dir) });
  }
  const langium = median(pairs.map((p) => p.langium));
  const own = medians(pairs.map((p) => p.kit));
  console.log(
    `Langium build_${langiumSize} (in-process, no start-up) and kit check --ssr (cold process), ${ratioRounds} ` +
      `interleaved rounds: ${pairs.map((p) => `${ms(p.langium)} / ${ms(p.kit.wallMs)} = ${(p.langium / p.kit.wallMs).toFixed(2)}×`).join('; ')}`,
  );
  console.log(
    `  medians: Langium ${ms(langium)}, kit ${ms(own.wallMs)} → kit is ${(langium / own.wallMs).toFixed(2)}× faster ` +
      `(target ≥ 3×, stretch ≥ 5×)`,
  );
  const warm = kitInProcess(workspace(langiumSize));
  console.log(
    `  measured as Langium measures itself (in process, after a warm-up, no start-up or output): kit ${ms(warm)} → ` +
      `${(langium / warm).toFixed(2)}×; the cold process's other ${ms(own.wallMs - warm)} are start-up, compiling ` +
      `kit's code anew and printing`,
  );
  // What the target asks of the CPU: however well the work were spread over the cores, the wall
  // cannot fall below the CPU time divided by the cores (V8's compiler and collector threads count).
  const goal = langium / 3;
  console.log(
    `  3× is ${ms(goal)} wall: at most ${ms(goal * cores)} of CPU on ${cores} cores, against ${ms(own.cpuMs)} now ` +
      `(${ms(own.cpuMs / cores)} wall if every core were kept busy)`,
  );
  const k10 = kit.get(10000);
  if (k10 !== undefined)
    console.log(
      `10,000 files: ${ms(k10.wallMs)} wall including start-up (target ≤ 900 ms: at most ${ms(900 * cores)} of CPU ` +
        `on ${cores} cores, against ${ms(k10.cpuMs)} now)`,
    );
  console.log(`load average at end: ${loadavg()[0].toFixed(2)}`);
}
