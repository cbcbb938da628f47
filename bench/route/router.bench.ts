// Route lookup at 10 and at 10,000 routes, kit's compiled router beside find-my-way (Fastify's
// router) on the same routes and the same mixed request list. Target: <= 1.5x growth from 10 to
// 10,000 routes and < 300 ns per lookup at 10,000.
//
// Three figures per size:
//   kit lookup    router.lookup(method, segments) on pre-split decoded segments (the router alone);
//   kit full      checkRequestTarget(rawTarget) + lookup: the whole per-request path work,
//                 comparable to find-my-way, which parses the raw URL itself;
//   find-my-way   router.find(method, rawTarget).
import FindMyWay from 'find-my-way';
import { checkRequestTarget, compileRouter } from '#shared/route/index.js';
import { median } from '../fixtures/measure.js';

type Kind = 'static' | 'slug' | 'typed' | 'rest' | 'multi';
const KINDS: Kind[] = ['static', 'slug', 'typed', 'rest', 'multi'];

function pattern(kind: Kind, i: number): string {
  switch (kind) {
    case 'static':
      return `/section${i}/about`;
    case 'slug':
      return `/blog${i}/{slug}`;
    case 'typed':
      return `/users${i}/{id:int}`;
    case 'rest':
      return `/files${i}/{path...}`;
    case 'multi':
      return `/org${i}/{org}/repo/{repo}/issues/{num:int}`;
  }
}

function request(kind: Kind, i: number, n: number): string {
  switch (kind) {
    case 'static':
      return `/section${i}/about`;
    case 'slug':
      return `/blog${i}/post-${n % 97}`;
    case 'typed':
      return `/users${i}/${1000 + n}`;
    case 'rest':
      return `/files${i}/docs/2024/report-${n % 13}.pdf`;
    case 'multi':
      return `/org${i}/acme/repo/kit/issues/${n % 500}`;
  }
}

// find-my-way syntax: {x} and {x:type} become :x, a final rest becomes *.
function toFindMyWay(p: string): string {
  return p.replace(/\{(\w+)\.\.\.\}$/, '*').replace(/\{(\w+)(?::\w+)?\}/g, ':$1');
}

function build(routeCount: number) {
  const perKind = routeCount / KINDS.length;
  const patterns: string[] = [];
  for (let i = 0; i < perKind; i++) for (const k of KINDS) patterns.push(pattern(k, i));
  // A fixed pseudo-random mixed request list (LCG), ~1 in 20 a miss.
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const targets: string[] = [];
  for (let n = 0; n < 2000; n++) {
    if (n % 20 === 19) {
      targets.push(`/missing${n}/nowhere`);
      continue;
    }
    const kind = KINDS[Math.floor(rand() * KINDS.length)];
    targets.push(request(kind, Math.floor(rand() * perKind), n));
  }
  const { router, errors } = compileRouter(patterns.map((p) => ({ method: 'GET', pattern: p, value: p })));
  if (errors.length) throw new Error('route registration failed: ' + errors[0].message);
  const fmw = FindMyWay();
  for (const p of patterns) fmw.on('GET', toFindMyWay(p), () => undefined, { pattern: p });
  const segments = targets.map((t) => {
    const r = checkRequestTarget(t);
    if (!r.ok) throw new Error('bench target rejected: ' + t);
    return r.segments;
  });
  // Both routers must agree on which route answers before their speed means anything.
  for (let n = 0; n < targets.length; n++) {
    const ours = router.lookup('GET', segments[n])?.value;
    const theirs = (fmw.find('GET', targets[n])?.store as { pattern?: string } | undefined)?.pattern;
    if (ours !== theirs) throw new Error(`routers disagree on ${targets[n]}: kit ${ours}, find-my-way ${theirs}`);
  }
  return { router, fmw, targets, segments, routes: patterns.length };
}

let sink = 0;

// CPU time of this process rather than wall time: the machine is shared (2 cores), and time spent
// descheduled says nothing about the router. The three implementations are measured in turns
// within each round so that any remaining interference hits all of them alike.
function cpuNs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) * 1000;
}

type Runner = (n: number) => void;

function measure(count: number, runners: Runner[], rounds = 21, batch = 100_000): number[] {
  for (const run of runners) for (let w = 0; w < batch * 3; w++) run(w % count);
  const results: number[][] = runners.map(() => []);
  for (let r = 0; r < rounds; r++) {
    runners.forEach((run, idx) => {
      const start = process.cpuUsage();
      for (let k = 0; k < batch; k++) run((k + r * 7919) % count);
      results[idx].push(cpuNs(start) / batch);
    });
  }
  return results.map(median);
}

function figures(routeCount: number, distinct: number) {
  const b = build(routeCount);
  const count = Math.min(distinct, b.targets.length);
  const [lookup, full, fmw] = measure(count, [
    (n) => {
      sink += b.router.lookup('GET', b.segments[n]) ? 1 : 0;
    },
    (n) => {
      const t = checkRequestTarget(b.targets[n]);
      if (t.ok) sink += b.router.lookup('GET', t.segments) ? 1 : 0;
    },
    (n) => {
      sink += b.fmw.find('GET', b.targets[n]) ? 1 : 0;
    },
  ]);
  return { routes: b.routes, lookup, full, fmw };
}

const fmt = (ns: number) => `${ns.toFixed(0).padStart(5)} ns`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

console.log(
  'route lookup: median CPU ns per lookup (static, {slug}, typed, rest and multi-segment routes in equal parts; 5% misses)',
);
console.log(
  '  kit lookup = router.lookup on decoded segments; kit full = checkRequestTarget + lookup from the raw target; find-my-way = find(method, raw target)',
);
for (const [label, distinct] of [
  ['2,000 distinct targets spread over all routes (at 10,000 routes the working set leaves the CPU caches)', 2000],
  ['100 distinct targets (working set stays in cache)', 100],
] as const) {
  const small = figures(10, distinct);
  const large = figures(10_000, distinct);
  console.log(`request list: ${label}`);
  for (const f of [small, large]) {
    console.log(
      `  ${String(f.routes).padStart(6)} routes: kit lookup ${fmt(f.lookup)} | kit full ${fmt(f.full)} | find-my-way ${fmt(f.fmw)} | kit lookup / find-my-way ${ratio(f.lookup, f.fmw)} | kit full / find-my-way ${ratio(f.full, f.fmw)}`,
    );
  }
  console.log(
    `  growth 10 -> 10,000 routes: kit lookup ${ratio(large.lookup, small.lookup)} | kit full ${ratio(large.full, small.full)} | find-my-way ${ratio(large.fmw, small.fmw)}   (target <= 1.50x; at 10,000 routes < 300 ns)`,
  );
}
if (sink === 42) console.log('');
