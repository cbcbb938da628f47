// Every `kit` subcommand, in the order `kit --help` lists them (commands/names.ts). Modules load on demand: a command
// pays only for its own imports (the language server and the TypeScript binder are heavy), so
// `kit check` and `kit --version` start fast.
import type { Command } from '../command.js';
import { COMMAND_NAMES, type CommandName } from './names.js';

export interface CommandEntry {
  name: CommandName;
  load(): Promise<Command>;
}

const LOADERS: Record<CommandName, () => Promise<Command>> = {
  check: async () => (await import('./check.js')).checkCommand,
  build: async () => (await import('./build.js')).buildCommand,
  routes: async () => (await import('./routes.js')).routesCommand,
  endpoints: async () => (await import('./endpoints.js')).endpointsCommand,
  inspect: async () => (await import('./inspect.js')).inspectCommand,
  fmt: async () => (await import('./fmt.js')).fmtCommand,
  lsp: async () => (await import('./lsp.js')).lspCommand,
  init: async () => (await import('./init.js')).initCommand,
  dev: async () => (await import('./dev.js')).devCommand,
  preview: async () => (await import('./preview.js')).previewCommand,
};

export const COMMANDS: readonly CommandEntry[] = COMMAND_NAMES.map((name) => ({ name, load: LOADERS[name] }));

/** Every command, loaded (for `kit --help` and tests). */
export async function loadAllCommands(): Promise<Command[]> {
  return Promise.all(COMMANDS.map((c) => c.load()));
}
