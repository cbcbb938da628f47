// `kit build` with its cache (`.kit/cache`) on the build comparison's kit site (`peer-sites.ts`) of
// 10,000 pages, against a clean build of the same site in the same rounds (Hugo and Astro have no
// equivalent: a clean build is the baseline). Each round runs, one after the other:
//   clean     `kit build --no-cache`, the output and the cache removed first     (the baseline)
//   cold      `kit build`, the output and the cache removed first (it writes the cache)
//   no-op     `kit build` again, nothing changed                 target ≤ 0.5 s
//   page      one page's paragraph edited                        target ≤ 0.6 s
//   layout    the layout's footer edited: every page renders again (reported as it is)
//   restore   the output removed, the cache kept (a CI job that restored .kit/cache)
// Each build is a whole process (`bin/kit.js`, start-up included) with the usage probe preloaded:
// wall time, CPU of every thread and of the main thread, peak RSS. Every run is printed, then the
// medians and their ratios to the clean build of the same run. After the first round's page edit,
// the output is compared with a clean build of the same sources, file by file.
//
// Before each timed build the page cache is dropped where the machine allows it (root on Linux),
// then kit is warmed by a tiny build of its own and the sources, the cache and the output are read
// again: the builds run on a warm machine, as a rebuild after an edit does, without what earlier
// builds' file churn left in the kernel's caches (docs/performance.md: "Fair measurement").
//
// Options (arguments, or the environment for `npm run bench`):
//   --sizes=10000      KIT_BENCH_REBUILD_SIZES   page counts (default 10000)
//   --rounds=5         KIT_BENCH_ROUNDS          rounds (default 5)
//   --no-drop-caches   KIT_BENCH_DROP_CACHES=0
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../fixtures/measure.js';
import { runMeasured, type Usage } from '../fixtures/usage.js';
import { writePeerSite } from './peer-sites.js';
import { formatter, loadNow, option } from './common.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const cli = join(root, 'bin', 'kit.js');
const work = join(root, '.bench-work', 'rebuild');

const sizes = (option('sizes', 'KIT_BENCH_REBUILD_SIZES') ?? '10000').split(',').map(Number);
const rounds = Number(option('rounds', 'KIT_BENCH_ROUNDS') ?? 5);
const dropCaches = (() => {
  if (process.argv.includes('--no-drop-caches') || process.env.KIT_BENCH_DROP_CACHES === '0') return false;
  try {
    accessSync('/proc/sys/vm/drop_caches', constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

const SCENARIOS = ['clean', 'cold', 'no-op', 'page', 'layout', 'restore'] as const;
type Scenario = (typeof SCENARIOS)[number];
const TARGET: Partial<Record<Scenario, number>> = { 'no-op': 500, page: 600 };

interface Sample extends Usage {
  load: number;
  summary: string;
}

const fmt = formatter(2);

/** Reads every file under `dir` (stats only, with `statOnly`): the kernel's caches warm again. */
function warm(dir: string, statOnly = false): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) warm(p, statOnly);
    else if (statOnly) statSync(p);
    else readFileSync(p);
  }
}

/** A one-page project kit builds before each timed build, so that kit itself is read and warm. */
const tiny = join(work, 'tiny');

function build(project: string, ...args: string[]): Sample {
  if (dropCaches) {
    spawnSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
  }
  const warmUp = runMeasured([cli, 'build', '--out', 'dist', 'site'], { cwd: tiny });
  if (warmUp.status !== 0) throw new Error(`the warm-up build failed: ${warmUp.stderr}`);
  warm(join(project, 'site'));
  warm(join(project, '.kit'));
  warm(join(project, 'dist'), true);
  const load = loadavg()[0];
  const r = runMeasured([cli, 'build', ...args, '--out', 'dist', 'site'], { cwd: project });
  if (r.status !== 0) throw new Error(`kit build ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { ...r.usage, load, summary: r.stdout.trim() };
}

/** Every file of a tree and its bytes. */
function tree(dir: string, rel = '', out = new Map<string, string>()): Map<string, string> {
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) tree(dir, r, out);
    else out.set(r, readFileSync(join(dir, r), 'latin1'));
  }
  return out;
}

function sameTrees(a: string, b: string): string | undefined {
  const x = tree(a);
  const y = tree(b);
  if (x.size !== y.size) return `${x.size} files against ${y.size}`;
  for (const [f, bytes] of x) if (y.get(f) !== bytes) return `${f} differs`;
  return undefined;
}

console.log(
  dropCaches
    ? 'page cache dropped before every timed build, then the sources, the cache and the output read again'
    : 'page cache NOT dropped between builds (not permitted here, or turned off)',
);
console.log(`${rounds} rounds; medians; CPU = user + system of every thread; main = the main thread's CPU`);

let failed = false;
rmSync(tiny, { recursive: true, force: true });
mkdirSync(tiny, { recursive: true });
writeFileSync(join(tiny, 'package.json'), '{ "name": "rebuild-bench-tiny", "private": true }\n');
writePeerSite('kit', join(tiny, 'site'), 1);
for (const pages of sizes) {
  const project = join(work, `site-${pages}`);
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "name": "rebuild-bench", "private": true }\n');
  writePeerSite('kit', join(project, 'site'), pages);
  const page = join(project, 'site', `p${Math.ceil(pages / 2)}.kit`);
  const layout = join(project, 'site', 'main.layout.kit');
  const pageText = readFileSync(page, 'utf8');
  const layoutText = readFileSync(layout, 'utf8');
  const samples = new Map<Scenario, Sample[]>(SCENARIOS.map((s) => [s, []]));
  console.log(`\n${fmt(pages, 0)} pages (load average at start ${loadNow()})`);
  for (let r = 0; r < rounds; r++) {
    const fresh = () => {
      rmSync(join(project, 'dist'), { recursive: true, force: true });
      rmSync(join(project, '.kit'), { recursive: true, force: true });
    };
    const edits: Record<Scenario, () => void> = {
      clean: fresh,
      cold: fresh,
      'no-op': () => {},
      page: () => writeFileSync(page, pageText.replace('opens with', `opens (round ${r}) with`)),
      layout: () => writeFileSync(layout, layoutText.replace('Generated for', `Generated (round ${r}) for`)),
      restore: () => rmSync(join(project, 'dist'), { recursive: true, force: true }),
    };
    for (const s of SCENARIOS) {
      edits[s]();
      const sample = build(project, ...(s === 'clean' ? ['--no-cache'] : []));
      samples.get(s)!.push(sample);
      console.log(
        `  round ${r + 1} ${s.padEnd(8)} wall ${fmt(sample.wallMs / 1000)} s, CPU ${fmt(sample.cpuMs / 1000)} s` +
          ` (main ${fmt(sample.mainCpuMs === undefined ? undefined : sample.mainCpuMs / 1000)}),` +
          ` RSS ${fmt(sample.rssMb, 0)} MB, load ${fmt(sample.load, 1)}: ${sample.summary}`,
      );
      if (r === 0 && s === 'page') {
        const check = join(work, 'check');
        rmSync(check, { recursive: true, force: true });
        const clean = runMeasured([cli, 'build', '--no-cache', '--out', check, 'site'], { cwd: project });
        const diff =
          clean.status === 0 ? sameTrees(join(project, 'dist'), check) : `clean build failed: ${clean.stderr}`;
        console.log(`  the edited build against a clean one: ${diff ?? 'the same files, byte for byte'}`);
        if (diff) failed = true;
        rmSync(check, { recursive: true, force: true });
      }
    }
    // Back to the first sources for the next round's clean build.
    writeFileSync(page, pageText);
    writeFileSync(layout, layoutText);
  }
  const med = (s: Scenario, f: (x: Sample) => number | undefined) => {
    const v = samples
      .get(s)!
      .map(f)
      .filter((x): x is number => x !== undefined);
    return v.length ? median(v) : undefined;
  };
  const cleanWall = med('clean', (x) => x.wallMs)!;
  const cleanCpu = med('clean', (x) => x.cpuMs)!;
  console.log(
    `${'build'.padEnd(8)} ${'wall s'.padStart(7)} ${'CPU s'.padStart(7)} ${'main s'.padStart(7)} ${'RSS MB'.padStart(7)}` +
      ` ${'wall÷clean'.padStart(10)} ${'CPU÷clean'.padStart(10)} ${'load'.padStart(5)}  target`,
  );
  for (const s of SCENARIOS) {
    const wall = med(s, (x) => x.wallMs)!;
    const cpu = med(s, (x) => x.cpuMs)!;
    const main = med(s, (x) => x.mainCpuMs);
    const target = TARGET[s];
    console.log(
      `${s.padEnd(8)} ${fmt(wall / 1000).padStart(7)} ${fmt(cpu / 1000).padStart(7)}` +
        ` ${fmt(main === undefined ? undefined : main / 1000).padStart(7)} ${fmt(
          med(s, (x) => x.rssMb),
          0,
        ).padStart(7)}` +
        ` ${`${fmt(wall / cleanWall, 3)}×`.padStart(10)} ${`${fmt(cpu / cleanCpu, 3)}×`.padStart(10)}` +
        ` ${fmt(
          med(s, (x) => x.load),
          1,
        ).padStart(5)}` +
        `  ${target === undefined ? '' : `wall ≤ ${fmt(target / 1000, 1)} s: ${wall <= target ? 'met' : 'NOT met'}`}`,
    );
  }
  console.log(`load average at end ${loadNow()}`);
}
if (existsSync(work) && process.env.KIT_BENCH_KEEP !== '1') rmSync(work, { recursive: true, force: true });
if (failed) process.exitCode = 1;
