// `kit init [--force] [--kit <spec>] [<dir>]`: a small, working starter site in a new directory.
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Command } from '../command.js';
import { parseArgs, UsageError } from '../args.js';
import { givenKitSpec, installedKitSpec, type KitSpec, kitPackageRoot } from '../init/kit-spec.js';
import { occupants, packageNameFor, writeStarter } from '../init/scaffold.js';
import { version } from '../version.js';
import { KIT_PACKAGE } from '#core/app/package-name.js';
import { writeProjectTypes } from '../page-types-output.js';

/** What the `kit:` line says about the spec written. */
function specNote(kit: KitSpec, v: string): string {
  switch (kit.origin) {
    case 'registry':
      return 'from the registry, as this kit was installed';
    case 'tarball':
      return 'the tarball this kit was installed from';
    case 'resolved':
      return 'where this kit was installed from';
    case 'checkout':
      return 'kit runs from this directory, not from an installed package; --kit <spec> chooses another';
    case 'unknown':
      return (
        'from the registry: no npm lock file says where this kit came from (a global install?); ' +
        `for a tarball, run kit init --kit ./kit-lang-kit-${v}.tgz`
      );
    case 'given':
      return 'given by --kit';
  }
}

export const initCommand: Command = {
  name: 'init',
  summary: 'create a starter site (pages, a blog, a form action, an API, a guard, typed handlers)',
  help: `Usage: kit init [--force] [--kit <spec>] [<dir>]

Writes a small, working site into <dir> (default: the current directory):
package.json with dev, check, build and start scripts, tsconfig.json,
kit.config.ts registering a guard, a layout, a component, a home page, a blog
with a dynamic route and paths, a contact form with a typed action and a
validation error, a JSON API, handlers.ts, .gitignore, a VS Code extension
recommendation and a CI workflow that runs kit check and kit build.

The site depends on @kit-lang/kit the way this kit was installed: ^<version>
from the registry, or file:<absolute path> of the tarball it was installed
from (npx -p ./kit-lang-kit-<version>.tgz kit init), read from npm's lock file
of the tree kit is in.

Options:
  --force       write into a directory that is not empty (files of the starter are replaced)
  --kit <spec>  the dependency spec for @kit-lang/kit instead: a version or range, or
                a tarball or directory (./kit-lang-kit-<version>.tgz, made absolute)

Exit status: 0 when the site was written, 2 for usage errors (a directory that
is not empty without --force).
`,
  async run(argv, io) {
    const { flags, positionals } = parseArgs(argv, { force: 'boolean', kit: 'string' }, 'init');
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
    const kitVersion = version();
    const given = flags.kit === undefined ? undefined : givenKitSpec(flags.kit, io.cwd);
    if (typeof given === 'string') throw new UsageError(`kit init: ${given}`);
    const kit = given ?? installedKitSpec(kitPackageRoot(), KIT_PACKAGE, kitVersion);
    const files = writeStarter(dir, { name: packageNameFor(dir), kitVersion, kitSpec: kit.spec });
    // The page types too, so that the first tsc --noEmit passes before any kit check.
    await writeProjectTypes(dir, io, 'init');
    io.stdout.write(`created ${files.length} files in ${shown}:\n`);
    for (const f of files) io.stdout.write(`  ${f}\n`);
    io.stdout.write(`\n${KIT_PACKAGE}: ${kit.spec} (${specNote(kit, kitVersion)})\n`);
    if (kit.origin === 'tarball' && kit.path && !existsSync(kit.path))
      io.stderr.write(
        `kit init: warning: ${kit.path} is gone, so npm install cannot install kit from it: ` +
          'put it back, or set the dependency with kit init --force --kit <spec>\n',
      );
    const cd = shown === '.' ? '' : `cd ${shown} && `;
    io.stdout.write(`next: ${cd}npm install && npm run check && npm run dev\n`);
    return 0;
  },
};
