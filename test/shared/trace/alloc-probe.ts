// Run by alloc.e2e.test.ts in a child process with --expose-gc and a large young generation: measures the heap
// allocated per disabled start/end pair over a million calls and whether any collection ran meanwhile.
import { type Allocation, bytesPerCall } from '../../helpers/alloc.js';
import { alwaysOff, background, newTracer, withSampler, withValue, type Context } from '#shared/trace/index.js';

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

const results: Record<string, Allocation> = {};
for (const [name, ctx] of [
  ['background', background()],
  ['request context', withValue(background(), 'k', 'v')],
] as const) {
  results[name] = await bytesPerCall((n) => loop(ctx, n), CALLS);
}
if (last !== last) throw new Error('unreachable');
process.stdout.write(JSON.stringify(results));
