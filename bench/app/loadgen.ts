// The load generator process of the app benchmarks: `node loadgen.js <url> <connections> <seconds>`
// runs autocannon against one URL and prints `{rps, total, p50, non2xx, errors}` as its last line.
import { createRequire } from 'node:module';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
// autocannon ships no type declarations; this is the part of its API the bench uses.
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: {
  url: string;
  connections: number;
  duration: number;
  pipelining: number;
}) => Promise<AutocannonResult>;

const [url, connections, seconds] = process.argv.slice(2);
const result = await autocannon({ url, connections: Number(connections), duration: Number(seconds), pipelining: 1 });
console.log(
  JSON.stringify({
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }),
);
