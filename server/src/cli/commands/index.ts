// Every `kit` subcommand, in the order `kit --help` lists them.
import type { Command } from '../command.js';
import { checkCommand } from './check.js';

export const COMMANDS: readonly Command[] = [checkCommand];
