// `kit fmt [--check | --write] <files or directories>`
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatKit } from '#core/format/format-kit.js';
import { discoverSources, SourceError } from '#core/project/discover.js';
import { readSourceFile } from '#core/project/read-source.js';
import type { Command } from '../command.js';
import { parseArgs, UsageError } from '../args.js';
import { reportPos } from '#core/model/report-positions.js';

export const fmtCommand: Command = {
  name: 'fmt',
  summary: 'format .kit sources (2-space blocks, one space between tokens)',
  help: `Usage: kit fmt [--check | --write] <files or directories>...

Formats .kit files: declarations at column 0 with single spaces between tokens,
block bodies indented two spaces per level, one blank line at most between
declarations, one line break at the end. Formatting never changes meaning:
files with syntax errors are left untouched and reported.

Without a flag the formatted text of the one given file is printed.

Options:
  --check  list the files that are not formatted; exit 1 if there are any
  --write  rewrite the files that are not formatted, listing each one

Exit status: 0 when every file is (or now is) formatted, 1 when a file is not
formatted (--check) or could not be formatted, 2 for usage or I/O errors.
`,
  async run(argv, io) {
    const { flags, positionals } = parseArgs(argv, { check: 'boolean', write: 'boolean' }, 'fmt');
    if (flags.check && flags.write) throw new UsageError('kit fmt: --check and --write cannot be combined');
    if (positionals.length === 0) throw new UsageError('kit fmt: no files or directories given (see kit fmt --help)');
    const { kitFiles } = discoverSources(positionals, io.cwd);
    if (!flags.check && !flags.write && kitFiles.length !== 1) {
      throw new UsageError(
        `kit fmt: printing needs exactly one .kit file (found ${kitFiles.length}); use --check or --write for several`,
      );
    }
    let failed = 0;
    let unformatted = 0;
    for (const file of kitFiles) {
      const abs = resolve(io.cwd, file);
      // Regular files within the size cap only, as every command reads them.
      const { text, diagnostics: encoding } = readSourceFile(abs, file);
      // Bytes that are not UTF-8 would be written back as U+FFFD: such a file is left as it is.
      const result = encoding.length
        ? { kind: 'syntax_errors' as const, diagnostics: encoding }
        : formatKit(text, file);
      if (result.kind === 'syntax_errors') {
        failed++;
        // In line order, as kit check reports: the parser finds markup errors after a view's end.
        const inOrder = [...result.diagnostics].sort(
          (a, b) => a.range.start.offset - b.range.start.offset || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
        );
        for (const d of inOrder) {
          const p = reportPos(text, d.range.start);
          io.stderr.write(`${file}:${p.line}:${p.column}: error ${d.code}: ${d.message} (file left unformatted)\n`);
        }
        continue;
      }
      if (result.kind === 'unsafe') {
        failed++;
        io.stderr.write(`${result.message}\n`);
        continue;
      }
      if (!flags.check && !flags.write) {
        io.stdout.write(result.text);
        continue;
      }
      if (!result.changed) continue;
      unformatted++;
      if (flags.check) {
        io.stdout.write(`${file}\n`);
        continue;
      }
      try {
        writeFileSync(abs, result.text);
      } catch (e) {
        throw new SourceError(`cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
      }
      io.stdout.write(`formatted ${file}\n`);
    }
    if (flags.check && unformatted)
      io.stderr.write(
        `${unformatted} of ${kitFiles.length} file${kitFiles.length === 1 ? '' : 's'} not formatted; run kit fmt ` +
          `--write\n`,
      );
    return failed || (flags.check && unformatted) ? 1 : 0;
  },
};
