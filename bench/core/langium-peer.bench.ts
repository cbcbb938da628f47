// `kit check --ssr` side by side with the Langium peer (`../shared/peers/langium`: the same `.kit`
// page language on Langium 4.2.1), on the very same files, in the same run:
//   1. the peer's generator writes workspaces of 1,000, 5,000, 10,000 and 20,000 files (5 deliberate
//      duplicates each);
//   2. Langium's own benchmark builds and validates the 5,000-file one in-process (`build_5000`
//      median: parse + every build phase, text already in memory, no start-up);
//   3. kit checks each workspace as a cold process (`bin/kit.js check --ssr --json`, start-up
//      included), median of three runs; printed with the time per file, so that the curve from 1k
//      to 20k files shows any super-linear step, and the ratio against Langium at 5,000 files.
// The peer is copied into `.bench-work/langium` and installed there once (it needs the npm
// registry); without the peer directory the benchmark says so and stops.
// Environment: KIT_BENCH_SIZES=1000,5000 (kit sizes), KIT_BENCH_LANGIUM_SIZE=5000, KIT_BENCH_RUNS=3.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../fixtures/measure.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const peerSource = join(root, '..', 'shared', 'peers', 'langium');
const work = join(root, '.bench-work', 'langium');
const cli = join(root, 'bin', 'kit.js');
const sizes = (process.env.KIT_BENCH_SIZES ?? '1000,5000,10000,20000').split(',').map(Number);
const langiumSize = Number(process.env.KIT_BENCH_LANGIUM_SIZE ?? 5000);
const runs = Number(process.env.KIT_BENCH_RUNS ?? 3);

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

/** Wall milliseconds of one cold `kit check --ssr --json` of `dir`. */
function kitCheck(dir: string): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, 'check', '--ssr', '--json', dir], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`kit check exited with ${r.status}: ${r.stderr}`);
  const report = JSON.parse(r.stdout) as { diagnostics: { code: string }[] };
  const dups = report.diagnostics.filter((d) => d.code === 'duplicate_route').length;
  if (dups !== 5) throw new Error(`kit check found ${dups} duplicate routes in ${dir}, expected 5`);
  return ms;
}

/** Langium's in-process `build_<n>` median (ms), from the peer's own benchmark. */
function langiumBuild(n: number): number {
  const out = run(
    process.execPath,
    [
      'bench.mjs',
      '--sizes',
      String(n),
      '--runs',
      String(runs),
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
  console.log(`load average at start: ${loadavg()[0].toFixed(2)} (2 cores)`);
  const kit = new Map<number, number>();
  for (const n of sizes) {
    const dir = workspace(n);
    kitCheck(dir); // warm the file cache
    const ms = median(Array.from({ length: runs }, () => kitCheck(dir)));
    kit.set(n, ms);
    console.log(
      `kit check --ssr, ${n} files, cold process: ${ms.toFixed(0)} ms wall, ${((ms * 1000) / n).toFixed(0)} µs per file`,
    );
  }
  workspace(langiumSize);
  const langium = langiumBuild(langiumSize);
  const own = kit.get(langiumSize) ?? kitCheck(workspace(langiumSize));
  console.log(
    `Langium build_${langiumSize} (in-process, no start-up): ${langium.toFixed(0)} ms → kit is ${(langium / own).toFixed(2)}× faster (target ≥ 5×)`,
  );
  const k10 = kit.get(10000);
  if (k10 !== undefined) console.log(`10,000 files: ${k10.toFixed(0)} ms wall including start-up (target ≤ 900 ms)`);
  console.log(`load average at end: ${loadavg()[0].toFixed(2)}`);
}
