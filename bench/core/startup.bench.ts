// `kit` start-up (issue 16): medians of cold runs (each a new process) of `node -e 0`, `kit --version`,
// an unknown command and an unknown flag (the did-you-mean paths), `kit check` on an empty directory,
// `kit check` on a 10-file site and `kit build --out` on a 10-page site, interleaved in one run so
// that the machine's state weighs on all alike, each printed with its difference to `node -e 0`
// (Node's own start-up, which kit cannot cut).
// The kit measured is bin/kit.js (the bundle, through V8's code cache: the unmeasured first round
// writes the cache, as a user's first run does). KIT_BENCH_COMPARE names another build's entry (an
// earlier commit's `bin/kit.js` or `out/server/src/cli/main.js`, say), measured the same way in the
// same run for before/after figures. KIT_BENCH_RUNS: runs per case (default 15, at least 15).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSite, writeSite } from '../fixtures/site-generator.js';
import { kitSite } from '../build/site-gen.js';
import { median } from '../fixtures/measure.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const bin = join(root, 'bin', 'kit.js');
const compare = process.env.KIT_BENCH_COMPARE ? resolve(process.env.KIT_BENCH_COMPARE) : undefined;
const RUNS = Math.max(15, Number(process.env.KIT_BENCH_RUNS ?? 15));

interface Case {
  label: string;
  args: string[];
  /** Exit statuses that count as success (`kit check` exits 1 when it finds errors). */
  ok: number[];
}

const work = mkdtempSync(join(tmpdir(), 'kit-startup-bench-'));
const empty = join(work, 'empty');
mkdirSync(empty);
const small = join(work, 'site10');
writeSite(small, generateSite(7)); // three shared files and seven pages: ten .kit files
const pages = join(work, 'pages10');
kitSite(pages, 10); // the build benchmark's site (a layout, two components), which builds cleanly

function kitCases(entry: string, name: string): Case[] {
  return [
    { label: `${name} --version`, args: [entry, '--version'], ok: [0] },
    { label: `${name} chekc (unknown command)`, args: [entry, 'chekc'], ok: [2] },
    { label: `${name} check --jsn (unknown flag)`, args: [entry, 'check', '--jsn'], ok: [2] },
    { label: `${name} check <empty dir>`, args: [entry, 'check', empty], ok: [0] },
    { label: `${name} check <10 files>`, args: [entry, 'check', small], ok: [0, 1] },
    {
      label: `${name} build --out <10 pages>`,
      args: [entry, 'build', '--out', join(work, `out-${name.replace(/\W/g, '')}`), pages],
      ok: [0],
    },
  ];
}

const cases: Case[] = [
  { label: 'node -e 0', args: ['-e', '0'], ok: [0] },
  ...(compare ? kitCases(compare, 'compared') : []),
  ...kitCases(bin, 'kit'),
];

function wallMs(c: Case): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, c.args, { cwd: work, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (!c.ok.includes(r.status ?? -1)) throw new Error(`${c.label} exited with ${r.status}: ${r.stderr}`);
  return ms;
}

try {
  const times = new Map<Case, number[]>(cases.map((c) => [c, []]));
  // One unmeasured round: the page cache holds every file read, kit's code cache is written.
  for (const c of cases) wallMs(c);
  for (let r = 0; r < RUNS; r++) for (const c of cases) times.get(c)?.push(wallMs(c));
  const node = median(times.get(cases[0]) ?? []);
  const width = Math.max(...cases.map((c) => c.label.length));
  console.log(`start-up, median of ${RUNS} cold runs each (wall ms; difference to node -e 0):`);
  for (const c of cases) {
    const m = median(times.get(c) ?? []);
    const diff = c === cases[0] ? '' : `  (+${(m - node).toFixed(0)} ms)`;
    console.log(`  ${c.label.padEnd(width)}  ${m.toFixed(0).padStart(5)} ms${diff}`);
  }
  if (compare) console.log(`  compared: ${compare}`);
  console.log('  target: kit check on an empty directory ≤ 70 ms wall, where node -e 0 takes ~40 ms');
} finally {
  rmSync(work, { recursive: true, force: true });
}
