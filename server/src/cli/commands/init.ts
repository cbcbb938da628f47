// `kit init [--force] [<dir>]`: a small, working starter site in a new directory.
import { isAbsolute, relative, resolve } from 'node:path';
import type { Command } from '../command.js';
import { parseArgs, UsageError } from '../args.js';
import { occupants, packageNameFor, writeStarter } from '../init/scaffold.js';
import { version } from '../version.js';
import { writeProjectTypes } from '../page-types-output.js';

export const initCommand: Command = {
  name: 'init',
  summary: 'create a starter site (pages, a blog, a form action, an API, a guard, typed handlers)',
  help: `Usage: kit init [--force] [<dir>]

Writes a small, working site into <dir> (default: the current directory):
package.json with dev, check, build and start scripts, tsconfig.json,
kit.config.ts registering a guard, a layout, a component, a home page, a blog
with a dynamic route and paths, a contact form with a typed action and a
validation error, a JSON API, handlers.ts, .gitignore, a VS Code extension
recommendation and a CI workflow that runs kit check and kit build.

Options:
  --force  write into a directory that is not empty (files of the starter are replaced)

Exit status: 0 when the site was written, 2 for usage errors (a directory that
is not empty without --force).
`,
  async run(argv, io) {
    const { flags, positionals } = parseArgs(argv, { force: 'boolean' }, 'init');
    if (positionals.length > 1) throw new UsageError('kit init: give at most one directory (see kit init --help)');
    const dir = resolve(io.cwd, positionals[0] ?? '.');
    const rel = relative(io.cwd, dir);
    const shown = rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? dir : rel;
    const present = occupants(dir);
    if (present.length && !flags.force)
      throw new UsageError(
        `kit init: ${shown} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', ...' : ''}); ` +
          'choose an empty directory or pass --force',
      );
    const files = writeStarter(dir, { name: packageNameFor(dir), kitVersion: version() });
    // The page types too, so that the first tsc --noEmit passes before any kit check.
    await writeProjectTypes(dir, io, 'init');
    io.stdout.write(`created ${files.length} files in ${shown}:\n`);
    for (const f of files) io.stdout.write(`  ${f}\n`);
    const cd = shown === '.' ? '' : `cd ${shown} && `;
    io.stdout.write(`\nnext: ${cd}npm install && npm run check && npm run dev\n`);
    return 0;
  },
};
