// `kit endpoints [--ssr] [--format json|table] <files or directories>`: endpoint records only.
import { performance } from 'node:perf_hooks';
import { endpointReport } from '../../core/report/rows.js';
import { formatTable } from '../../core/report/table.js';
import type { Command } from '../command.js';
import { bindStats, loadForReport, parseReportArgs, writeJson } from './routes.js';

export const endpointsCommand: Command = {
  name: 'endpoints',
  summary: 'print the versioned endpoint records with handler bindings',
  help: `Usage: kit endpoints [--ssr] [--format json|table | --json] <files or directories>...

Prints {"version": 1, "endpoints": [...]}: the endpoint rows of kit routes (same
fields, same values) plus the backend binding (module import path, function,
signature, input type and fields) and, for g:command/g:query, the contract.

Options:
  --ssr            enable request-time (SSR) rendering: server {} blocks, rest routes
  --format table   print an aligned table sorted by path instead of JSON
  --json           JSON (the default; accepted for symmetry with kit check --json)

Exit status: 0 with a report, 1 when the sources have errors, 2 for usage or I/O errors.
`,
  async run(argv, io) {
    const args = parseReportArgs(argv, 'endpoints');
    if (args.help) {
      io.stdout.write(this.help);
      return 0;
    }
    const started = performance.now();
    const project = loadForReport(args, io, 'endpoints');
    if (!project) return 1;
    const report = endpointReport(project.workspace);
    if (args.format === 'table') io.stdout.write(formatTable(report.endpoints));
    else writeJson(io, report);
    bindStats(project, io, 'endpoints', started);
    return 0;
  },
};
