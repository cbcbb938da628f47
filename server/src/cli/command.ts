// The shape of a `kit` subcommand: its name, summary, help text and the function `run.ts` calls.
import type { CliIO } from './io.js';

export interface Command {
  name: string;
  summary: string;
  /** Full `--help` text. */
  help: string;
  run(argv: string[], io: CliIO): Promise<number>;
}
