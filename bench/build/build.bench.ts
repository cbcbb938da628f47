// `kit build --out` on generated sites of 250, 1,000, 4,000 and 10,000 pages (each with a layout,
// two components and a link), timed as a child process (wall time including Node start-up) with
// its peak RSS; beside it the floor of the file system: a bare Node loop creating the same
// directories and writing the same bytes; then Astro on the equivalent site in the same run, and
// the ratio.
//
// Every timed run starts from the same kernel state. On these virtual machines creating and
// deleting files leaves the kernel's caches in a state where the next creations cost more and more
// (measured: the same 4,000 mkdir + write went from 0.07 s to 2.2 s over a dozen builds, and back
// to 0.07 s after dropping the caches). So before each timed run, when the machine allows it (root
// on Linux), the caches are dropped and then warmed again by a tiny build of the same tool and by
// reading the site's sources: what remains is the tool's own work on a warm machine.
//
// Environment: KIT_BENCH_SIZES=250,1000 (kit sizes), KIT_BENCH_RUNS=3 (timed runs per size, after one
// warm-up), KIT_BENCH_ASTRO=0 (skip Astro), KIT_BENCH_ASTRO_SIZES=250,1000,4000, KIT_BENCH_DROP_CACHES=0
// (never drop the caches).
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from '../fixtures/measure.js';
import { runMeasured } from '../fixtures/usage.js';
import { astroSite, kitSite } from './site-gen.js';

const here = dirname(fileURLToPath(import.meta.url));
// The installed command: bin/kit.js runs the bundle, as users do.
const cli = join(here, '..', '..', '..', 'bin', 'kit.js');

function repoRoot(): string {
  let dir = here;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === '@kit-lang/kit')
      return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
}

const root = repoRoot();
const work = join(root, '.bench-work', 'build');
const sizes = (process.env.KIT_BENCH_SIZES ?? '250,1000,4000,10000').split(',').map(Number);
const runs = Number(process.env.KIT_BENCH_RUNS ?? 3);
const astroSizes = (process.env.KIT_BENCH_ASTRO_SIZES ?? '250,1000,4000').split(',').map(Number);

mkdirSync(work, { recursive: true });

interface Sample {
  ms: number;
  cpuMs: number;
  rssMb: number;
}

const dropCaches = (() => {
  if (process.env.KIT_BENCH_DROP_CACHES === '0') return false;
  try {
    accessSync('/proc/sys/vm/drop_caches', constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

/** Every file under `dir`, depth first. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

/**
 * Brings the kernel to the same state before a timed run: caches dropped (when allowed), then the
 * tool warmed by `warm` and the site's sources read.
 */
function settle(site: string, warm: () => void): void {
  if (dropCaches) {
    spawnSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
  }
  warm();
  for (const f of filesUnder(site))
    if (!f.includes('node_modules') && !f.includes(`${join('astro', 'dist')}`)) readFileSync(f);
}

const tinySite = join(work, 'kit-tiny');
kitSite(tinySite, 2);
const warmKit = () => {
  const out = join(work, 'kit-tiny-out');
  spawnSync(process.execPath, [cli, 'build', '--out', out, tinySite], { encoding: 'utf8' });
  rmSync(out, { recursive: true, force: true });
};

function timeKit(site: string, out: string): Sample {
  rmSync(out, { recursive: true, force: true });
  settle(site, warmKit);
  const r = runMeasured([cli, 'build', '--out', out, site]);
  if (r.status !== 0) throw new Error(`kit build failed (${r.status}): ${r.stderr}`);
  return { ms: r.usage.wallMs, cpuMs: r.usage.cpuMs, rssMb: r.usage.rssMb };
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

/**
 * The file-system floor of an output: a bare loop that creates the directories of `built` and
 * writes its files (the same bytes, in the same order kit writes them: depth first) into a fresh
 * directory beside it, from the same kernel state as a timed build. Milliseconds.
 */
function bareWrite(site: string, built: string): number {
  const files = filesUnder(built).map((f) => ({ rel: relative(built, f), bytes: readFileSync(f) }));
  const dest = `${built}-bare`;
  rmSync(dest, { recursive: true, force: true });
  settle(site, warmKit);
  const t0 = performance.now();
  const made = new Set<string>();
  mkdirSync(dest);
  for (const f of files) {
    const dir = dirname(f.rel);
    if (dir !== '.' && !made.has(dir)) {
      mkdirSync(join(dest, dir), { recursive: true });
      made.add(dir);
    }
    writeFileSync(join(dest, f.rel), f.bytes);
  }
  const ms = performance.now() - t0;
  rmSync(dest, { recursive: true, force: true });
  return ms;
}

console.log(
  dropCaches
    ? 'kernel caches dropped and warmed again before every timed run'
    : 'kernel caches NOT dropped between runs (not permitted here, or KIT_BENCH_DROP_CACHES=0): file system times drift upwards run after run',
);

console.log(
  `kit build --out: generated sites, wall time of the child process including start-up, median of ${runs} runs after a warm-up`,
);
console.log(
  `${'pages'.padStart(7)} ${'wall s'.padStart(8)} ${'CPU s'.padStart(7)} ${'pages/s'.padStart(9)} ${'marginal pages/s'.padStart(17)} ${'peak RSS MB'.padStart(12)} ${'MB per 1k pages'.padStart(16)} ${'bare write s'.padStart(13)}`,
);
const kitResults = new Map<number, Sample>();
let prev: { pages: number; ms: number } | undefined;
for (const n of sizes) {
  const site = join(work, `kit-${n}`);
  const out = join(work, `kit-${n}-out`);
  kitSite(site, n);
  timeKit(site, out);
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(timeKit(site, out));
  const ms = median(samples.map((s) => s.ms));
  const rss = median(samples.map((s) => s.rssMb));
  const cpu = median(samples.map((s) => s.cpuMs));
  kitResults.set(n, { ms, cpuMs: cpu, rssMb: rss });
  const marginal = prev ? (n - prev.pages) / ((ms - prev.ms) / 1000) : NaN;
  const bare = median([0, 1, 2].map(() => bareWrite(site, out)));
  console.log(
    `${fmt(n).padStart(7)} ${fmt(ms / 1000, 2).padStart(8)} ${fmt(cpu / 1000, 2).padStart(7)} ${fmt(n / (ms / 1000)).padStart(9)} ${(prev ? fmt(marginal) : '—').padStart(17)} ${fmt(rss, 1).padStart(12)} ${fmt((rss / n) * 1000, 1).padStart(16)} ${fmt(bare / 1000, 2).padStart(13)}`,
  );
  prev = { pages: n, ms };
  rmSync(out, { recursive: true, force: true });
}
const k4 = kitResults.get(4000);
if (k4)
  console.log(
    `targets: 4,000 pages in ${fmt(k4.ms / 1000, 2)} s (goal < 1 s); published anchors for 4,000 pages: Hugo 0.68 s, Eleventy 1.94 s, Astro 22.9 s`,
  );

// ---- Astro, installed on demand into .bench-work/astro (never in CI)
function astro(): void {
  if (process.env.KIT_BENCH_ASTRO === '0') {
    console.log('astro: skipped (KIT_BENCH_ASTRO=0)');
    return;
  }
  const dir = join(root, '.bench-work', 'astro');
  mkdirSync(dir, { recursive: true });
  for (const f of ['package.json', 'astro.config.mjs']) copyFileSync(join(root, 'bench', 'astro', f), join(dir, f));
  const astroBin = join(dir, 'node_modules', 'astro', 'astro.js');
  if (!existsSync(astroBin)) {
    console.log('astro: installing into .bench-work/astro (once) ...');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (r.status !== 0 || !existsSync(astroBin)) {
      console.log(
        `astro: skipped — could not install it from the npm registry (${(r.stderr || r.error?.message || 'unknown error').trim().split('\n').pop()})`,
      );
      return;
    }
  }
  const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };
  // A tiny build first: Astro's own start-up caches (Vite, content layer) are then warm.
  astroSite(dir, 10);
  spawnSync(process.execPath, [astroBin, 'build', '--silent'], { cwd: dir, env, encoding: 'utf8' });
  console.log('astro build on the equivalent site (one timed run per size), same machine, same run:');
  for (const n of astroSizes) {
    astroSite(dir, n);
    rmSync(join(dir, 'dist'), { recursive: true, force: true });
    settle(join(dir, 'src'), () => {
      // Astro's modules back in the page cache: a build of the tiny site, kept apart from this one.
      const tiny = join(work, 'astro-tiny');
      rmSync(tiny, { recursive: true, force: true });
      mkdirSync(tiny);
      for (const f of ['package.json', 'astro.config.mjs']) copyFileSync(join(dir, f), join(tiny, f));
      astroSite(tiny, 2);
      spawnSync('ln', ['-s', join(dir, 'node_modules'), join(tiny, 'node_modules')]);
      spawnSync(process.execPath, [astroBin, 'build', '--silent'], { cwd: tiny, env, encoding: 'utf8' });
    });
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [astroBin, 'build', '--silent'], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 900_000,
    });
    const ms = performance.now() - t0;
    if (r.status !== 0) {
      console.log(
        `astro: build of ${fmt(n)} pages failed: ${(r.stderr || '').trim().split('\n').slice(-3).join(' | ')}`,
      );
      continue;
    }
    const kit = kitResults.get(n);
    const ratio = kit ? `; kit is ${fmt(ms / kit.ms, 1)}× faster (goal ≥ 25× at every size)` : '';
    console.log(
      `  ${fmt(n).padStart(6)} pages: astro ${fmt(ms / 1000, 2)} s (${fmt(n / (ms / 1000))} pages/s)${kit ? `, kit ${fmt(kit.ms / 1000, 2)} s` : ''}${ratio}`,
    );
  }
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
}
astro();
