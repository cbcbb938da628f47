// `kit endpoints [--ssr] [--format json|table] [<files or directories>]`: endpoint records only.
import { endpointReport } from '#core/report/rows.js';
import type { Command } from '../command.js';
import { runReport } from './routes.js';

export const endpointsCommand: Command = {
  name: 'endpoints',
  summary: 'print the versioned endpoint records with handler bindings',
  help: `Usage: kit endpoints [--ssr] [--format json|table | --json] [<files or directories>...]

Prints {"version": 1, "endpoints": [...]}: the endpoint rows of kit routes (same
fields, same values) plus the backend binding (module import path, function,
signature, input type and fields) and, for g:command/g:query, the contract.
Without paths: the sources and ssr of kit.config, as kit check.

Options:
  --ssr            enable request-time (SSR) rendering: server {} blocks, rest routes
  --format table   print an aligned table sorted by path instead of JSON
  --json           JSON (the default; accepted for symmetry with kit check --json)

Exit status: 0 with a report, 1 when the sources have errors, 2 for usage or I/O errors.
`,
  run(argv, io) {
    return runReport(this, argv, io, endpointReport, (r) => r.endpoints);
  },
};
