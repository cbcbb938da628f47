// The `kit` command line: a thin door onto the core. Usage and I/O errors exit 2 with one clear
// line; anything unexpected is an internal error, reported without a stack unless KIT_DEBUG is set.
import { SourceError } from '#core/project/discover.js';
import { UsageError } from './usage-error.js';
import type { Command } from './command.js';
import { COMMANDS, loadAllCommands } from './commands/index.js';
import type { CliIO } from './io.js';
import { asksVersion, version } from './version.js';
import { closestOf } from '#grammar/common/typos.js';

async function mainHelp(): Promise<string> {
  const commands = await loadAllCommands();
  const width = Math.max(...commands.map((c) => c.name.length));
  return `kit ${version()} — check, report and build .kit web sources

Usage: kit <command> [options] <files or directories>

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run "kit <command> --help" for a command's options.
Options: --help, --version
`;
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    if (first === 'help' && rest[0]) return runCli([rest[0], '--help'], io);
    io.stdout.write(await mainHelp());
    return first === undefined ? 2 : 0;
  }
  if (asksVersion(first)) {
    io.stdout.write(`kit ${version()}\n`);
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === first);
  if (!entry) {
    const names = COMMANDS.map((c) => c.name);
    const near = closestOf(first, names);
    const hint = near ? `; did you mean "${near}"?` : '';
    io.stderr.write(`kit: unknown command "${first}"${hint} (commands: ${names.join(', ')})\n`);
    return 2;
  }
  const command: Command = await entry.load();
  // `--help` (or `-h`) anywhere before `--` asks for the command's help, whatever else is given.
  const end = rest.indexOf('--');
  const options = end < 0 ? rest : rest.slice(0, end);
  if (options.includes('--help') || options.includes('-h')) {
    io.stdout.write(command.help);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof SourceError) {
      io.stderr.write(`${e.message.startsWith('kit') ? '' : `kit ${command.name}: `}${e.message}\n`);
      return 2;
    }
    const err = e as Error;
    io.stderr.write(`kit ${command.name}: internal error: ${err?.message ?? String(e)}\n`);
    if (io.env.KIT_DEBUG) io.stderr.write(`${err?.stack ?? ''}\n`);
    return 70;
  }
}
