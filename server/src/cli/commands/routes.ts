// `kit routes [--ssr] [--format json|table] [<files or directories>]`: the versioned route table.
// Also holds what the report commands share: argument handling and loading with error gating.
import { performance } from 'node:perf_hooks';
import { loadProjectAsync, type LoadedProject, threadSettings } from '#core/project/load.js';
import { routeReport } from '#core/report/rows.js';
import { formatTable } from '#core/report/table.js';
import type { Command } from '../command.js';
import { SUMMARIES, type Workspace } from '#core/workspace/workspace.js';
import type { EndpointRecord, RouteRow } from '#core/report/types.js';
import { parseArgs, UsageError, type FlagSpec } from '../args.js';
import { type CliIO, writeText } from '../io.js';
import { commandSources } from '../project-sources.js';
import { reportPos } from '#core/model/report-positions.js';
import { sourceLookup } from '../sources.js';

export type ReportFormat = 'json' | 'table';

export interface ReportArgs {
  ssr: boolean;
  format: ReportFormat;
  inputs: string[];
}

const REPORT_FLAGS = { ssr: 'boolean', format: 'string', json: 'boolean' } as const satisfies FlagSpec;

export function parseReportArgs(argv: string[], command: string, io: CliIO): ReportArgs {
  const { flags, positionals } = parseArgs(argv, REPORT_FLAGS, command);
  const format = flags.format ?? 'json';
  if (format !== 'json' && format !== 'table')
    throw new UsageError(`kit ${command}: --format must be json or table, not "${format}"`);
  // `--json` is what `kit check` and `kit inspect` take; JSON is already the default here.
  if (flags.json && format !== 'json')
    throw new UsageError(`kit ${command}: --json and --format ${format} ask for different outputs`);
  const { inputs, ssr } = commandSources(command, positionals, Boolean(flags.ssr), io);
  return { ssr, format, inputs };
}

/**
 * Loads the sources of a report. Reports describe what a build would serve, so sources with
 * errors give no report: the errors go to stderr and the command exits 1.
 */
export async function loadForReport(
  args: Pick<ReportArgs, 'ssr' | 'inputs'>,
  io: CliIO,
  command: string,
): Promise<LoadedProject | undefined> {
  const project = await loadProjectAsync(args.inputs, { ssr: args.ssr }, io.cwd, {
    policy: SUMMARIES,
    ...threadSettings(io.env),
  });
  const errors = project.workspace.allDiagnostics().filter((d) => d.severity === 'error');
  if (errors.length === 0) return project;
  const source = sourceLookup(project.workspace);
  for (const d of errors) {
    const p = reportPos(source(d.file), d.range.start);
    io.stderr.write(`${d.file}:${p.line}:${p.column}: error ${d.code}: ${d.message}\n`);
  }
  io.stderr.write(
    `kit ${command}: ${errors.length} error${errors.length === 1 ? '' : 's'} in the sources; no report (run kit ` +
      `check for details)\n`,
  );
  return undefined;
}

/** With `KIT_BIND_STATS` set, how much of the run the TypeScript compiler API took (stderr). */
export function bindStats(project: LoadedProject, io: CliIO, command: string, started: number): void {
  if (!io.env.KIT_BIND_STATS) return;
  const s = project.workspace.inspection.binding;
  const total = performance.now() - started;
  const prebound = project.workspace.inspection.prebound;
  io.stderr.write(
    `kit ${command}: ${total.toFixed(0)} ms, of which ${s.compilerMs.toFixed(0)} ms ` +
      `(${((100 * s.compilerMs) / total).toFixed(0)}%) in the TypeScript compiler API; ${s.programs} ts.Program, ` +
      `${s.parsed} modules parsed` +
      (prebound ? `; ${prebound} director${prebound === 1 ? 'y' : 'ies'} bound on a worker thread` : '') +
      '\n',
  );
}

export function writeJson(io: CliIO, value: unknown): void {
  writeText(io.stdout, `${JSON.stringify(value, null, 2)}\n`);
}

/** A report command's run: its arguments, the sources, the report as JSON or as a table of its rows. */
export async function runReport<R>(
  command: Command,
  argv: string[],
  io: CliIO,
  report: (ws: Workspace) => R,
  rows: (report: R) => readonly (RouteRow | EndpointRecord)[],
  notes: (report: R) => readonly { code: string; message: string }[] = () => [],
): Promise<number> {
  const args = parseReportArgs(argv, command.name, io);
  const started = performance.now();
  const project = await loadForReport(args, io, command.name);
  if (!project) return 1;
  const r = report(project.workspace);
  if (args.format === 'table') io.stdout.write(formatTable(rows(r)));
  else writeJson(io, r);
  for (const n of notes(r)) io.stderr.write(`info: ${n.code}: ${n.message}\n`);
  bindStats(project, io, command.name, started);
  return 0;
}

export const routesCommand: Command = {
  name: 'routes',
  summary: 'print the versioned route table (pages and endpoints)',
  help: `Usage: kit routes [--ssr] [--format json|table | --json] [<files or directories>...]

Prints {"version": 1, "routes": [...], "info": [...]}: one row per page route, then
one row per endpoint (actions, APIs, fragments, //kit: comment endpoints, g:command
and g:query contracts), with guards, cache policy, CSRF, handler and binding status.
Each info note is also printed to stderr as "info: <code>: <message>".
With KIT_BIND_STATS=1 the time spent in the TypeScript compiler API (handler
binding) is printed to stderr. Without paths: the sources and ssr of kit.config,
as kit check.

Options:
  --ssr            enable request-time (SSR) rendering: server {} blocks, rest routes
  --format table   print an aligned table sorted by path instead of JSON
  --json           JSON (the default; accepted for symmetry with kit check --json)

Exit status: 0 with a report, 1 when the sources have errors, 2 for usage or I/O errors.
`,
  run(argv, io) {
    return runReport(
      this,
      argv,
      io,
      routeReport,
      (r) => r.routes,
      (r) => r.info,
    );
  },
};
