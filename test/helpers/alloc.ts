// Measuring what a loop allocates, for the allocation probes (run in a child process with
// --expose-gc and a large young generation, so that no collection hides an allocation), and
// running such a probe from a test.
import { spawnSync } from 'node:child_process';
import { GCProfiler } from 'node:v8';

export interface Allocation {
  /** Heap bytes per call of the smallest clean round (Infinity when every round saw a collection). */
  bytesPerCall: number;
  /** Collections seen when no round was clean (0 otherwise). */
  collections: number;
}

/**
 * Bytes per call of `loop(calls)`. Warm-up first, in many short loops, so the measured call runs
 * fully optimised code (before optimisation, array destructuring allocates an iterator per call).
 * Then up to five rounds, keeping the smallest: a per-call allocation (at least 16 bytes per
 * object) shows in every round, while a one-off (re)compilation of the loop adds a few kilobytes
 * of code to one round only.
 */
export async function bytesPerCall(loop: (n: number) => void, calls: number): Promise<Allocation> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('allocation probes need --expose-gc');
  for (let k = 0; k < 100; k++) loop(Math.max(1, Math.floor(calls / 100)));
  backgroundCompilation();
  let best = Infinity;
  let collectionsSeen = 0;
  for (let round = 0; round < 5 && best > 0.01; round++) {
    gc();
    // GCProfiler reports every collection of the window synchronously (heapUsed read across one would lie).
    const profiler = new GCProfiler();
    profiler.start();
    const before = process.memoryUsage().heapUsed;
    loop(calls);
    const after = process.memoryUsage().heapUsed;
    const collections = profiler.stop().statistics.length;
    // A round with a collection is not a measurement (and would show any allocation as freed).
    if (collections > 0) collectionsSeen = collections;
    else if ((after - before) / calls < best) best = (after - before) / calls;
  }
  return { bytesPerCall: best, collections: best === Infinity ? collectionsSeen : 0 };
}

/**
 * Until the optimising compiler's background jobs are done and their code installed, so that no
 * (re)compilation lands inside a measured round. V8 answers that itself under --allow-natives-syntax
 * (which `runProbe` passes); the syntax is not JavaScript, hence the Function constructor.
 */
function backgroundCompilation(): void {
  if (!process.execArgv.includes('--allow-natives-syntax'))
    throw new Error('allocation probes need --allow-natives-syntax (run them with runProbe)');
  new Function('%WaitForBackgroundOptimization(); %FinalizeOptimization();')();
}

/** Runs a compiled probe script with the flags `bytesPerCall` needs; returns what it printed (JSON). */
export function runProbe(script: string): unknown {
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', '--allow-natives-syntax', '--min-semi-space-size=64', '--max-semi-space-size=64', script],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`${script} failed (${r.status}):\n${r.stderr}`);
  return JSON.parse(r.stdout);
}
