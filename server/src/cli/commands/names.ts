// The names of the `kit` subcommands, in the order `kit --help` lists them: what the command line
// accepts (commands/index.ts loads each by its name) and what `kit` names a code cache after before
// any command's code is loaded (cli/start.ts).
export const COMMAND_NAMES = [
  'check',
  'build',
  'routes',
  'endpoints',
  'inspect',
  'fmt',
  'lsp',
  'init',
  'dev',
  'preview',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];
