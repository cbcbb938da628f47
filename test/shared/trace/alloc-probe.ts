// Run by alloc.test.ts in a child process with --expose-gc and a large young generation: measures the heap
// allocated per disabled start/end pair over a million calls and whether any collection ran meanwhile.
import { GCProfiler } from 'node:v8';
import { alwaysOff, background, newTracer, withSampler, withValue, type Context } from '../../../shared/trace/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('alloc-probe needs --expose-gc');
const tracer = newTracer(withSampler(alwaysOff()));
const CALLS = 1_000_000;
let last: Context = background();

function loop(ctx: Context, n: number): void {
  for (let i = 0; i < n; i++) {
    const [c, span] = tracer.start(ctx, 'disabled');
    span.end();
    last = c;
  }
}

const results: Record<string, { bytesPerCall: number; collections: number }> = {};
for (const [name, ctx] of [
  ['background', background()],
  ['request context', withValue(background(), 'k', 'v')],
] as const) {
  // Warm up with many calls (not one long loop) so the measured call enters fully optimised code: before
  // optimisation, array destructuring allocates an iterator per call.
  for (let k = 0; k < 100; k++) loop(ctx, 10_000);
  await new Promise((r) => setTimeout(r, 50)); // let background compilation finish
  // Up to five rounds, keep the smallest: a per-call allocation (at least 16 bytes per object) shows in every
  // round, while a one-off (re)compilation of the loop adds a few kilobytes of code to one round only.
  let best = Infinity;
  let collectionsSeen = 0;
  for (let round = 0; round < 5 && best > 0.01; round++) {
    gc();
    // GCProfiler reports every collection of the window synchronously (heapUsed read across one would lie).
    const profiler = new GCProfiler();
    profiler.start();
    const before = process.memoryUsage().heapUsed;
    loop(ctx, CALLS);
    const after = process.memoryUsage().heapUsed;
    const collections = profiler.stop().statistics.length;
    // A round with a collection is not a measurement (and would show any allocation as freed).
    if (collections > 0) collectionsSeen = collections;
    else if ((after - before) / CALLS < best) best = (after - before) / CALLS;
  }
  results[name] = { bytesPerCall: best, collections: best === Infinity ? collectionsSeen : 0 };
}
if (last !== last) throw new Error('unreachable');
process.stdout.write(JSON.stringify(results));
