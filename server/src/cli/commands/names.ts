// The `kit` subcommands, in the order `kit --help` lists them: what the command line accepts
// (commands/index.ts loads each by its name), what `kit` names a code cache after before any
// command's code is loaded (cli/start.ts), and whether a command runs once and exits (its helper
// threads then yield to the main thread, cli/thread-priority.ts) or serves until stopped.
const COMMAND_TABLE = [
  { name: 'check', oneShot: true },
  { name: 'build', oneShot: true },
  { name: 'routes', oneShot: true },
  { name: 'endpoints', oneShot: true },
  { name: 'inspect', oneShot: true },
  { name: 'fmt', oneShot: true },
  { name: 'lsp', oneShot: false },
  // Asks questions and may install packages: not a command whose first second counts.
  { name: 'init', oneShot: false },
  { name: 'dev', oneShot: false },
  { name: 'preview', oneShot: false },
] as const;

export type CommandName = (typeof COMMAND_TABLE)[number]['name'];

export const COMMAND_NAMES: readonly CommandName[] = COMMAND_TABLE.map((c) => c.name);

/** The commands that run once and exit (the others serve until stopped, or ask questions). */
export const ONE_SHOT_COMMANDS: ReadonlySet<string> = new Set<string>(
  COMMAND_TABLE.filter((c) => c.oneShot).map((c) => c.name),
);
