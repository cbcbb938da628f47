// `kit routes` speed (issue 5): the 10,000-page generated workspace with one handler module per
// directory of ten pages, reported with binding included (target < 3 s): the real command as a
// child process (wall time from spawn to exit, start-up included), then the same steps in one
// process, split up. Prints the share of time spent in the TypeScript compiler API and, as the
// same-run baseline, parsing the same files (every `.kit` file with the kit parser, every module
// with the TypeScript parser).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseKit } from '#grammar/index.js';
import { loadProject } from '#core/project/load.js';
import { SUMMARIES } from '#core/workspace/workspace.js';
import { routeReport } from '#core/report/rows.js';
import { typescript } from '#core/bind/ts.js';
import { generateSite, writeSite } from '../fixtures/site-generator.js';
import { median, time } from '../fixtures/measure.js';

/** CPU milliseconds (user + system) of this process: steadier than wall time on a busy machine. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const gc = (globalThis as { gc?: () => void }).gc;
const PAGES = 10000;
const files = generateSite(PAGES, { handlers: true });
const dir = mkdtempSync(join(tmpdir(), 'kit-routes-bench-'));
try {
  writeSite(dir, files);
  const kitCount = files.filter((f) => f.path.endsWith('.kit')).length;
  const modules = files.filter((f) => f.path.endsWith('.ts'));
  console.log(
    `${kitCount} .kit files, ${modules.length} handler modules (${files.reduce((a, f) => a + f.text.length, 0) / 1e6} MB)`,
  );

  // The command itself, cold, as CI runs it (median of three).
  const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'src', 'cli', 'main.js');
  const command: number[] = [];
  let commandBytes = 0;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    const c = spawnSync(process.execPath, [cli, 'routes', '--ssr', dir], { encoding: 'utf8', maxBuffer: 1 << 30 });
    command.push(performance.now() - t0);
    if (c.status !== 0) throw new Error(`kit routes exited with ${c.status}: ${c.stderr.slice(0, 500)}`);
    commandBytes = c.stdout.length;
  }
  console.log(
    `kit routes --ssr <dir> as a child process: ${median(command).toFixed(0)} ms wall including start-up (median of 3; target < 3000 ms), ${(commandBytes / 1e6).toFixed(1)} MB of JSON`,
  );

  const runs: {
    total: number;
    cpu: number;
    load: number;
    report: number;
    compiler: number;
    programs: number;
    rows: number;
    bytes: number;
    bound: number;
    unsupported: number;
  }[] = [];
  for (let r = 0; r < 4; r++) {
    gc?.();
    let compiler = 0;
    let programs = 0;
    let rows = 0;
    let bytes = 0;
    let bound = 0;
    let unsupported = 0;
    let load = 0;
    let reportMs = 0;
    const cpu0 = cpuMs();
    const total = time(() => {
      // What `kit routes --ssr <dir>` does: load, check (errors gate the report), project, print.
      let p: ReturnType<typeof loadProject> | undefined;
      load = time(() => {
        p = loadProject([dir], { ssr: true }, process.cwd(), { policy: SUMMARIES });
        p.workspace.allDiagnostics();
      });
      let report: ReturnType<typeof routeReport> | undefined;
      reportMs = time(() => {
        report = routeReport(p!.workspace);
      });
      if (!p || !report) return;
      bytes = JSON.stringify(report, null, 2).length;
      rows = report.routes.length;
      for (const row of report.routes) {
        if (row.bindingStatus === 'bound') bound++;
        else if (row.bindingStatus === 'unsupported_signature') unsupported++;
      }
      const stats = p.workspace.inspection.binding;
      compiler = stats.compilerMs;
      programs = stats.programs;
    });
    runs.push({
      total,
      cpu: cpuMs() - cpu0,
      load,
      report: reportMs,
      compiler,
      programs,
      rows,
      bytes,
      bound,
      unsupported,
    });
  }
  const cold = runs[0];
  const warm = runs.slice(1);
  const warmTotal = median(warm.map((r) => r.total));
  const warmCompiler = median(warm.map((r) => r.compiler));

  // Baseline, same run: parse every file of the workspace (texts read from disk, as the run does).
  const texts = files.map((f) => ({ path: join(dir, f.path), text: readFileSync(join(dir, f.path), 'utf8') }));
  const ts = typescript();
  const parseRuns: number[] = [];
  const parseCpu: number[] = [];
  for (let r = 0; r < 4; r++) {
    const c0 = cpuMs();
    parseRuns.push(
      time(() => {
        for (const f of texts) {
          if (f.path.endsWith('.kit')) parseKit(f.text, f.path);
          else ts.createSourceFile(f.path, f.text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
        }
      }),
    );
    parseCpu.push(cpuMs() - c0);
  }
  const parseMs = median(parseRuns.slice(1));
  const parseCpuMs = median(parseCpu.slice(1));
  const warmCpu = median(warm.map((r) => r.cpu));

  console.log(
    `kit routes, ${cold.rows} rows (${(cold.bytes / 1e6).toFixed(1)} MB JSON), ${cold.bound} bound / ${cold.unsupported} unsupported, ${cold.programs} ts.Program per run`,
  );
  console.log(
    `  first run in the process (includes loading typescript): ${cold.total.toFixed(0)} ms wall, ${cold.cpu.toFixed(0)} ms CPU (target < 3000 ms); load+check+bind ${cold.load.toFixed(0)} ms, report ${cold.report.toFixed(0)} ms; TypeScript compiler API ${cold.compiler.toFixed(0)} ms = ${((100 * cold.compiler) / cold.total).toFixed(0)}% of the run`,
  );
  console.log(
    `  warm runs (median of ${warm.length}): ${warmTotal.toFixed(0)} ms wall, ${warmCpu.toFixed(0)} ms CPU; TypeScript compiler API ${warmCompiler.toFixed(0)} ms = ${((100 * warmCompiler) / warmTotal).toFixed(0)}%`,
  );
  console.log(
    `  baseline, same run: parse-only of the same files ${parseMs.toFixed(0)} ms wall, ${parseCpuMs.toFixed(0)} ms CPU → routes/parse ratio ${(warmTotal / parseMs).toFixed(2)} (warm), ${(cold.total / parseMs).toFixed(2)} (first run)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
