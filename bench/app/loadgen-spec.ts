// `node loadgen-spec.js '<json>'`: one autocannon run from its own process for a request spec
// (method, headers, body, a fixed number of requests) and its figures as the last stdout line:
// `{total, rps, p50, p99, non2xx, errors}`.
import { createRequire } from 'node:module';

interface Spec {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  amount: number;
}

interface Result {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
// autocannon ships no type declarations; this is the part of its API the bench uses.
const autocannon = createRequire(import.meta.url)('autocannon') as (
  opts: Spec & { pipelining: number },
) => Promise<Result>;

const spec = JSON.parse(process.argv[2]) as Spec;
const r = await autocannon({ ...spec, pipelining: 1 });
console.log(
  JSON.stringify({
    total: r.requests.total,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  }),
);
