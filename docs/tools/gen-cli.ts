// docs/cli.md's reference part, generated from the command line's own `--help` texts: the command
// list of `kit --help`, then each command's flags (read from its usage line and its Options
// section) and its whole help text. A flag added to a command's help and not to the page fails
// the doc tests until `npm run docs` is run.
import { loadAllCommands } from '#cli/commands/index.js';
import { runCli } from '#cli/run.js';

export interface Flag {
  flag: string;
  meaning: string;
}

/** Flags of one help text: each `--flag` of the Usage line and of the Options section, with its meaning. */
export function helpFlags(help: string): Flag[] {
  const flags = new Map<string, string>();
  const lines = help.split('\n');
  const usage = lines.find((l) => l.startsWith('Usage:')) ?? '';
  const start = lines.findIndex((l) => /^Options:/.test(l));
  if (start >= 0) {
    let last: string | undefined;
    for (const line of lines.slice(start + 1)) {
      if (line.trim() === '') break;
      const m = /^ {2}(--?[a-z][\w-]*)(.*)$/.exec(line);
      if (m) {
        last = m[1];
        // `--port N  port to listen on`: a value placeholder, then the meaning after two spaces.
        const v = /^ (\S+) {2,}(.*)$/.exec(m[2]);
        flags.set(last, v ? `\`${v[1]}\`: ${v[2]}` : m[2].trim());
      } else if (last) flags.set(last, `${flags.get(last)} ${line.trim()}`.trim());
    }
  }
  for (const m of usage.matchAll(/(?<![\w-])(--[a-z][\w-]*)/g)) if (!flags.has(m[1])) flags.set(m[1], '');
  return [...flags].map(([flag, meaning]) => ({ flag, meaning }));
}

async function capture(argv: string[]): Promise<string> {
  let out = '';
  const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => true }, env: {}, cwd: '.' };
  await runCli(argv, io);
  return out;
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');

/** The generated part of docs/cli.md. */
export async function cliReference(): Promise<string> {
  const commands = await loadAllCommands();
  const parts: string[] = [];
  parts.push('| Command | What it does |', '|---|---|');
  for (const c of commands) parts.push(`| [\`kit ${c.name}\`](#kit-${c.name}) | ${cell(c.summary)} |`);
  parts.push(
    '',
    "`kit --help` lists the commands, `kit <command> --help` prints a command's help, `kit --version` the version.",
  );
  parts.push('', '```text', (await capture(['--help'])).trimEnd(), '```');
  for (const c of commands) {
    parts.push('', `## kit ${c.name}`, '', `${c.summary[0].toUpperCase()}${c.summary.slice(1)}.`, '');
    const flags = helpFlags(c.help);
    if (flags.length) {
      parts.push('| Flag | Meaning |', '|---|---|');
      for (const f of flags) parts.push(`| \`${f.flag}\` | ${cell(f.meaning) || 'see the usage line'} |`);
    } else parts.push('No flags.');
    parts.push('', '```text', c.help.trimEnd(), '```');
  }
  return parts.join('\n');
}
