// `kit build` beside Hugo, Eleventy and Astro on the same generated site (`peer-sites.ts`: a layout
// with header, nav and footer, a title, four paragraphs, ten links and a component used twice per
// page) at 1,000, 4,000 and 10,000 pages. Each build is a whole process (start-up included) timed
// under GNU time: wall time, CPU (user + system of the process tree) and peak RSS. The tools run
// interleaved, round after round (the order turning each round), so that load from elsewhere on
// the machine falls on all of them alike; the figures are medians of the rounds, every round's
// wall time is printed too, and the ratios to kit come from the same run. After its first build,
// every tool's pages are checked against kit's: the same pages with the same visible text.
//
// Every timed build starts from the same kernel state. On these virtual machines creating and
// deleting files leaves the kernel's caches in a state where the next creations cost more and more
// (measured: the same 4,000 mkdir + write went from 0.07 s to 2.2 s over a dozen builds, and back
// to 0.07 s after dropping the caches). So before each timed build, when the machine allows it
// (root on Linux), the page cache is dropped and then warmed again by a tiny build of the same tool
// and by reading the site's sources: what remains is the tool's own work on a warm machine.
//
// Options (arguments, or the environment for `npm run bench`):
//   --sizes=1000,4000      KIT_BENCH_SIZES       page counts (default 1000,4000,10000)
//   --rounds=3             KIT_BENCH_ROUNDS      timed builds per tool and size (default 5)
//   --tools=kit,hugo       KIT_BENCH_TOOLS       which tools (default kit,hugo,eleventy,astro;
//                                                KIT_BENCH_ASTRO=0 leaves Astro out)
//   --astro-max=4000       KIT_BENCH_ASTRO_MAX   the largest site Astro builds (default: all; Astro
//                                                takes about 3 minutes per build of 10,000 pages)
//   --no-drop-caches       KIT_BENCH_DROP_CACHES=0
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../fixtures/measure.js';
import { runTree } from '../fixtures/usage.js';
import { compareTexts, pageTexts } from './page-text.js';
import type { Tool } from './peer-sites.js';
import { type BuildCommand, ensureGnuTime, type PeerTool, setUpTools } from './peer-tools.js';
import { formatter, loadNow, option } from './common.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
// The installed command: bin/kit.js runs the bundle, as users do.
const cli = join(root, 'bin', 'kit.js');
const work = join(root, '.bench-work', 'build');

const sizes = (option('sizes', 'KIT_BENCH_SIZES') ?? '1000,4000,10000').split(',').map(Number);
const rounds = Number(option('rounds', 'KIT_BENCH_ROUNDS') ?? 5);
const astroMax = Number(option('astro-max', 'KIT_BENCH_ASTRO_MAX') ?? Number.POSITIVE_INFINITY);
const ALL: Tool[] = ['kit', 'hugo', 'eleventy', 'astro'];
const wanted = ((option('tools', 'KIT_BENCH_TOOLS')?.split(',') ?? ALL) as Tool[]).filter(
  (t) => ALL.includes(t) && !(t === 'astro' && process.env.KIT_BENCH_ASTRO === '0'),
);
const dropCaches = (() => {
  if (process.argv.includes('--no-drop-caches') || process.env.KIT_BENCH_DROP_CACHES === '0') return false;
  try {
    accessSync('/proc/sys/vm/drop_caches', constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

interface Sample {
  wallMs: number;
  cpuMs?: number;
  rssMb?: number;
  load: number;
}

/** Every file under `dir`, depth first, outside installed packages. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

function run(b: BuildCommand): Sample {
  for (const dir of [b.out, ...b.caches]) rmSync(dir, { recursive: true, force: true });
  const load = loadavg()[0];
  const r = runTree(b.cmd, b.args, { cwd: b.cwd, env: b.env ?? process.env, timeout: 1_800_000 });
  if (r.status !== 0) throw new Error(`${b.cmd} ${b.args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, rssMb: r.rssMb, load };
}

/**
 * Brings the kernel to the same state before a timed build: caches dropped (when allowed), then
 * the tool warmed by a tiny build of its own and the site's sources read.
 */
function settle(build: BuildCommand, tiny: BuildCommand): void {
  if (dropCaches) {
    spawnSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
  }
  run(tiny);
  rmSync(tiny.out, { recursive: true, force: true });
  for (const f of filesUnder(build.site)) if (!f.startsWith(build.out)) readFileSync(f);
}

const fmt = formatter(0);

// ---- set-up
const timed = ensureGnuTime();
const tools: PeerTool[] = setUpTools(root, work, cli, wanted);
console.log(
  dropCaches
    ? 'page cache dropped (sync; echo 3 > /proc/sys/vm/drop_caches) and warmed again before every timed build'
    : 'page cache NOT dropped between builds (not permitted here, or turned off): file system times drift upwards',
);
console.log(
  `${rounds} interleaved rounds per size; medians; CPU = user + system of the process tree; ` +
    `${timed ? 'GNU time' : 'no GNU time: wall only'}`,
);
if (tools.some((t) => t.tool === 'astro'))
  console.log(
    Number.isFinite(astroMax)
      ? `astro: sites up to ${fmt(astroMax)} pages only (--astro-max)`
      : 'astro: every size, about 3 minutes per build of 10,000 pages (--astro-max=4000 leaves those out)',
  );
if (!tools.some((t) => t.tool === 'kit')) throw new Error('the comparison needs kit among its tools');

// ---- the rounds
let mismatches = 0;
for (const pages of sizes) {
  const here = tools.filter((t) => t.tool !== 'astro' || pages <= astroMax);
  const builds = new Map(here.map((t) => [t.tool, t.site(pages)]));
  const tinies = new Map(here.map((t) => [t.tool, t.site(3, 'tiny')]));
  const samples = new Map<Tool, Sample[]>(here.map((t) => [t.tool, []]));
  const checks = new Map<Tool, string>();
  console.log(`\n${fmt(pages)} pages (load average at start ${loadNow()})`);
  let kitTexts: Map<string, string> | undefined;
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < here.length; k++) {
      // kit first in the first round: the other tools' pages are checked against its pages.
      const tool = here[(k + r) % here.length].tool;
      const b = builds.get(tool)!;
      settle(b, tinies.get(tool)!);
      samples.get(tool)!.push(run(b));
      if (r === 0) {
        const texts = pageTexts(b.out);
        if (tool === 'kit') {
          kitTexts = texts;
          checks.set(tool, texts.size === pages ? `${fmt(texts.size)} pages` : `${fmt(texts.size)} pages: WRONG`);
        } else {
          const diff = compareTexts(kitTexts!, texts);
          if (diff) mismatches++;
          checks.set(tool, diff ? `DIFFERENT TEXT: ${diff}` : 'same pages, same text');
        }
      }
      rmSync(b.out, { recursive: true, force: true });
    }
  }
  const kit = samples.get('kit')!;
  const med = (xs: Sample[], f: (s: Sample) => number | undefined) => {
    const v = xs.map(f).filter((x): x is number => x !== undefined);
    return v.length ? median(v) : undefined;
  };
  const kitWall = med(kit, (s) => s.wallMs)!;
  const kitCpu = med(kit, (s) => s.cpuMs);
  const kitRss = med(kit, (s) => s.rssMb);
  console.log(
    `${'tool'.padEnd(9)} ${'wall s'.padStart(7)} ${'CPU s'.padStart(7)} ${'RSS MB'.padStart(7)}` +
      ` ${'wall÷kit'.padStart(9)} ${'CPU÷kit'.padStart(8)} ${'RSS÷kit'.padStart(8)}  ${'load'.padStart(4)}  every round's wall s; output`,
  );
  for (const t of here) {
    const xs = samples.get(t.tool)!;
    const wall = med(xs, (s) => s.wallMs)!;
    const cpu = med(xs, (s) => s.cpuMs);
    const rss = med(xs, (s) => s.rssMb);
    const ratio = (a: number | undefined, b: number | undefined) =>
      a === undefined || b === undefined ? '—' : `${fmt(a / b, 2)}×`;
    console.log(
      `${t.tool.padEnd(9)} ${fmt(wall / 1000, 2).padStart(7)} ${fmt(cpu === undefined ? undefined : cpu / 1000, 2).padStart(7)}` +
        ` ${fmt(rss).padStart(7)} ${ratio(wall, kitWall).padStart(9)} ${ratio(cpu, kitCpu).padStart(8)}` +
        ` ${ratio(rss, kitRss).padStart(8)}  ${fmt(median(xs.map((s) => s.load)), 1).padStart(4)}` +
        `  ${xs.map((s) => fmt(s.wallMs / 1000, 2)).join(' ')}; ${checks.get(t.tool)}`,
    );
  }
  const hugo = samples.get('hugo');
  if (hugo) {
    // Round by round: each ratio from two builds next to each other in time.
    const perRound = kit.map((s, i) => s.wallMs / hugo[i].wallMs);
    const hugoRss = med(hugo, (s) => s.rssMb);
    console.log(
      `kit ÷ hugo: wall ${fmt(kitWall / med(hugo, (s) => s.wallMs)!, 2)}× (round by round ` +
        `${perRound.map((x) => fmt(x, 2)).join(' ')}; target ≤ 1.5×), peak RSS ` +
        `${kitRss && hugoRss ? `${fmt(kitRss / hugoRss, 2)}×` : '—'} (target ≤ 1×)`,
    );
  }
  console.log(`load average at end ${loadNow()}`);
  for (const b of [...builds.values(), ...tinies.values()]) rmSync(b.out, { recursive: true, force: true });
}
if (existsSync(work) && process.env.KIT_BENCH_KEEP !== '1') rmSync(work, { recursive: true, force: true });
if (mismatches) {
  console.log(`\n${mismatches} output(s) differ from kit's: their figures are not comparable`);
  process.exitCode = 1;
}
