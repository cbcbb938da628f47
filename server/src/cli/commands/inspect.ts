// `kit inspect <ir|endpoint-graph|asset-graph|tree> [--json] [--ssr] [<files or directories>]`
// Debugging views of the workspace. They describe sources as they are, errors included.
import { loadProjectAsync, threadSettings } from '#core/project/load.js';
import { assetGraph } from '#core/report/asset-graph.js';
import { endpointGraph } from '#core/report/endpoint-graph.js';
import { inspectIr } from '#core/report/ir.js';
import { sourceTree } from '#core/report/tree.js';
import type { Workspace } from '#core/workspace/workspace.js';
import type { Command } from '../command.js';
import { parseArgs, UsageError } from '../args.js';
import { writeJson } from './routes.js';
import { commandSources } from '../project-sources.js';

const TARGETS: Record<string, (ws: Workspace) => unknown> = {
  ir: inspectIr,
  'endpoint-graph': endpointGraph,
  'asset-graph': assetGraph,
  tree: sourceTree,
};

export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'print the compiler IR, the endpoint or asset graph, or the source tree as JSON',
  help: `Usage: kit inspect <target> [--json] [--ssr] [<files or directories>...]

Targets:
  ir               the typed compiler IR (for debugging; not a report schema)
  endpoint-graph   pages, routes, endpoints, handlers, guards, contracts, dispatching elements
  asset-graph      which page, component or layout declared which CSS, JS, asset or WASM
  tree             the unified source tree with renders_component edges

Output is JSON ({"version": 1, ...} for the graphs and the tree); --json is accepted
for symmetry. Without files: the sources and ssr of kit.config, as kit check, and
without a kit.config the current directory.

Options:
  --ssr    enable request-time (SSR) rendering: server {} blocks, rest routes
`,
  async run(argv, io) {
    const { flags, positionals } = parseArgs(argv, { json: 'boolean', ssr: 'boolean' }, 'inspect');
    const [target, ...inputs] = positionals;
    if (!target) throw new UsageError(`kit inspect: no target given; use one of ${Object.keys(TARGETS).join(', ')}`);
    const build = TARGETS[target];
    if (!build)
      throw new UsageError(`kit inspect: unknown target "${target}"; use one of ${Object.keys(TARGETS).join(', ')}`);
    const sources = commandSources('inspect', inputs, Boolean(flags.ssr), io, ['.']);
    const project = await loadProjectAsync(sources.inputs, { ssr: sources.ssr }, io.cwd, threadSettings(io.env));
    writeJson(io, build(project.workspace));
    return 0;
  },
};
