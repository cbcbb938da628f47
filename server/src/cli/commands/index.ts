// Every `kit` subcommand, in the order `kit --help` lists them. Modules load on demand: a command
// pays only for its own imports (the language server and the TypeScript binder are heavy), so
// `kit check` and `kit --version` start fast.
import type { Command } from '../command.js';

export interface CommandEntry {
  name: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'check', load: async () => (await import('./check.js')).checkCommand },
  { name: 'build', load: async () => (await import('./build.js')).buildCommand },
  { name: 'routes', load: async () => (await import('./routes.js')).routesCommand },
  { name: 'endpoints', load: async () => (await import('./endpoints.js')).endpointsCommand },
  { name: 'inspect', load: async () => (await import('./inspect.js')).inspectCommand },
  { name: 'fmt', load: async () => (await import('./fmt.js')).fmtCommand },
  { name: 'lsp', load: async () => (await import('./lsp.js')).lspCommand },
  { name: 'init', load: async () => (await import('./init.js')).initCommand },
  { name: 'dev', load: async () => (await import('./dev.js')).devCommand },
  { name: 'preview', load: async () => (await import('./preview.js')).previewCommand },
];

/** Every command, loaded (for `kit --help` and tests). */
export async function loadAllCommands(): Promise<Command[]> {
  return Promise.all(COMMANDS.map((c) => c.load()));
}
