// `kit check [--ssr] [--json | --format human|json|github|sarif] [<files or directories>]`
import { loadProjectAsync, threadSettings } from '#core/project/load.js';
import { SUMMARIES } from '#core/workspace/workspace.js';
import type { Command } from '../command.js';
import { parseArgs, UsageError } from '../args.js';
import { useColor, writeText } from '../io.js';
import { checkHuman, checkJsonParts } from '../format/check-output.js';
import { checkGithub, checkSarif } from '../format/ci-output.js';
import { version } from '../version.js';
import { sourceLookup } from '../sources.js';
import { writeTypes } from '../page-types-output.js';
import { commandSources } from '../project-sources.js';

export const checkCommand: Command = {
  name: 'check',
  summary: 'validate .kit sources and print diagnostics',
  help: `Usage: kit check [--ssr] [--json | --format human|json|github|sarif] [<files or directories>...]

Validates .kit files (directories are searched recursively, skipping node_modules
and dot folders) together with the handler modules beside them. Without paths it
reads the sources of the project's kit.config.ts (found here or up to the project
root: its sources setting, else site/ beside it, else its folder), with its ssr.

Options:
  --ssr    enable request-time (SSR) rendering: server {} blocks, rest routes
           (what ssr = true in kit.config sets)
  --json   print {"version": 1, "diagnostics": [...]} instead of text
  --format human (the default), json (as --json), github (GitHub Actions
           annotations: ::error file=...,line=...::message) or sarif (SARIF 2.1.0)

Exit status: 0 without errors, 1 with errors, 2 for usage or I/O errors.
`,
  async run(argv, io) {
    const { flags, positionals } = parseArgs(argv, { ssr: 'boolean', json: 'boolean', format: 'string' }, 'check');
    const format = flags.format ?? (flags.json ? 'json' : 'human');
    if (!['human', 'json', 'github', 'sarif'].includes(format))
      throw new UsageError(`kit check: --format must be human, json, github or sarif, not "${format}"`);
    if (flags.json && format !== 'json')
      throw new UsageError(`kit check: --json and --format ${format} ask for different outputs`);
    const { inputs, ssr } = commandSources('check', positionals, Boolean(flags.ssr), io);
    const project = await loadProjectAsync(inputs, { ssr }, io.cwd, {
      policy: SUMMARIES,
      ...threadSettings(io.env),
    });
    const diags = project.workspace.allDiagnostics();
    writeTypes(project.workspace, io, 'check');
    const source = sourceLookup(project.workspace);
    if (format === 'json') for (const part of checkJsonParts(diags, source)) writeText(io.stdout, part);
    else if (format === 'github') writeText(io.stdout, checkGithub(diags, source));
    else if (format === 'sarif') writeText(io.stdout, checkSarif(diags, source, version()));
    else writeText(io.stdout, checkHuman(diags, source, project.kitFiles.length, useColor(io)));
    return diags.some((d) => d.severity === 'error') ? 1 : 0;
  },
};
