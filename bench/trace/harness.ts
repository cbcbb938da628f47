// Benchmark harness for the trace benchmarks: every case runs in its own child process (fresh heap and JIT,
// fixed young generation so allocation per operation can be read from heapUsed), several repetitions after
// warm-up, median reported. The parent prints each figure next to its baseline and the ratio.
import { spawnSync } from 'node:child_process';
import { GCProfiler } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { median } from '../fixtures/measure.js';

export interface Figure {
  /** CPU nanoseconds per operation (median): process user+system time, so a busy machine that takes the
   * CPU away from the benchmark does not inflate the figure. */
  ns: number;
  /** Wall-clock nanoseconds per operation (median), for reference. */
  wallNs: number;
  /** Heap bytes allocated per operation (median). */
  bytes: number;
}

const CHILD_FLAGS = ['--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64'];

/** In a child process: the case name passed by `runCases`, or null in the parent. */
export function caseArg(): string | null {
  const a = process.argv.find((x) => x.startsWith('--case='));
  return a === undefined ? null : a.slice('--case='.length);
}

/** Runs each named case of the calling bench file in its own process and returns the figures it printed. */
export function runCases<T>(benchUrl: string, cases: readonly string[]): Record<string, T> {
  const file = fileURLToPath(benchUrl);
  const out: Record<string, T> = {};
  for (const name of cases) {
    const r = spawnSync(process.execPath, [...CHILD_FLAGS, file, `--case=${name}`], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`case ${name} failed (${r.status}):\n${r.stderr}`);
    const line = r.stdout.trim().split('\n').pop()!;
    out[name] = JSON.parse(line) as T;
  }
  return out;
}

/** Child side: prints the figure as the last line of stdout. */
export function report(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n');
}

/**
 * Heap bytes per operation of `batch(n)`, read from heapUsed around a window in which no garbage collection
 * ran (checked with v8.GCProfiler, which reports every collection synchronously; the window shrinks until
 * one fits the young generation). Reading heapUsed across a collection would under-count.
 */
async function allocationPerOp(batch: (n: number) => void | Promise<void>, ops: number): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  for (let n = ops; n >= 500; n = Math.floor(n / 2)) {
    gc();
    const profiler = new GCProfiler();
    profiler.start();
    const h0 = process.memoryUsage().heapUsed;
    await batch(n);
    const h1 = process.memoryUsage().heapUsed;
    const collections = profiler.stop().statistics.length;
    if (collections === 0) return (h1 - h0) / n;
  }
  throw new Error('could not find a window without garbage collection');
}

/**
 * Measures `batch(n)` (which performs n operations, possibly asynchronously) after warm-up: CPU time per
 * operation over `reps` runs of `ops` operations (garbage collection included, as in real use), and heap
 * bytes per operation over GC-free windows of `allocOps` operations (default up to 20,000; the few KB that
 * reading the heap itself allocates are spread over the window); medians.
 */
export async function measure(
  batch: (n: number) => void | Promise<void>,
  opts: { ops?: number; reps?: number; warmup?: number; allocOps?: number } = {},
): Promise<Figure> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  const ops = opts.ops ?? 200_000;
  const reps = opts.reps ?? 9;
  for (let i = 0; i < (opts.warmup ?? 3); i++) await batch(ops);
  const times: number[] = [];
  const walls: number[] = [];
  const bytes: number[] = [];
  for (let r = 0; r < reps; r++) {
    gc();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await batch(ops);
    const t1 = process.hrtime.bigint();
    const c1 = process.cpuUsage(c0);
    times.push(((c1.user + c1.system) * 1000) / ops);
    walls.push(Number(t1 - t0) / ops);
    bytes.push(await allocationPerOp(batch, opts.allocOps ?? Math.min(ops, 20_000)));
  }
  return { ns: median(times), wallNs: median(walls), bytes: Math.max(0, median(bytes)) };
}

function fmt(n: number, unit: string): string {
  return `${n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toString()} ${unit}`;
}

/** Prints `label: kit … | baseline … | ratio`. `higherIsBetter` flips the ratio for throughput figures. */
export function printComparison(
  label: string,
  kit: number,
  baseline: number,
  unit: string,
  baselineName: string,
  higherIsBetter = false,
): void {
  const ratio = higherIsBetter ? kit / baseline : baseline / Math.max(kit, 1e-9);
  const better = higherIsBetter ? 'kit/baseline' : 'baseline/kit';
  console.log(
    `${label.padEnd(44)} kit ${fmt(kit, unit).padStart(12)}   ${baselineName} ${fmt(baseline, unit).padStart(12)}   ${better} = ${ratio.toFixed(2)}x`,
  );
}

/** Load average now, printed so noisy runs can be recognised. */
export async function loadNote(): Promise<string> {
  const { loadavg, cpus } = await import('node:os');
  return `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${cpus().length} CPUs`;
}
