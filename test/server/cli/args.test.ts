// The flag parser of every `kit` command (server/src/cli/args.ts): Node's `util.parseArgs` reads the
// arguments, kit's checks word the errors. The commands' own tests run it end to end; these hold
// the cases they do not reach.
import { strict as assert } from 'node:assert';
import { parseArgs, UsageError } from '#cli/args.js';

const SPEC = { ssr: 'boolean', json: 'boolean', format: 'string', h: 'boolean' } as const;

function usage(argv: string[]): string {
  try {
    parseArgs(argv, SPEC, 'check');
  } catch (e) {
    assert.ok(e instanceof UsageError, `not a UsageError: ${String(e)}`);
    return e.message;
  }
  assert.fail(`${argv.join(' ')} was accepted`);
}

describe('cli: flag parsing', () => {
  it('types the flags by their spec and keeps positionals in order', () => {
    const { flags, positionals } = parseArgs(['a', '--ssr', 'b', '--format', 'table', 'c'], SPEC, 'check');
    const format: string | undefined = flags.format;
    const ssr: boolean | undefined = flags.ssr;
    assert.equal(format, 'table');
    assert.equal(ssr, true);
    assert.equal(flags.json, undefined);
    assert.deepEqual(positionals, ['a', 'b', 'c']);
  });

  it('takes --flag=value, the last of a repeated flag, and everything after -- as positionals', () => {
    const { flags, positionals } = parseArgs(
      ['--format=json', '--format', 'table', '-', '--', '--ssr', '-x'],
      SPEC,
      'check',
    );
    assert.equal(flags.format, 'table');
    assert.equal(flags.ssr, undefined);
    assert.deepEqual(positionals, ['-', '--ssr', '-x']);
  });

  it('reads a one-letter flag in its short and long forms', () => {
    assert.equal(parseArgs(['-h'], SPEC, 'check').flags.h, true);
    assert.equal(parseArgs(['--h'], SPEC, 'check').flags.h, true);
  });

  it('takes the next argument as a string flag value, even one that starts with a dash', () => {
    assert.equal(parseArgs(['--format', '--json'], SPEC, 'check').flags.format, '--json');
  });

  it('names an unknown flag as typed, with the nearest known one', () => {
    assert.equal(usage(['--jsn']), 'kit check: unknown flag --jsn; did you mean --json? (see kit check --help)');
    assert.equal(usage(['--jsn=1']), 'kit check: unknown flag --jsn; did you mean --json? (see kit check --help)');
    assert.equal(usage(['--bogus']), 'kit check: unknown flag --bogus (see kit check --help)');
    assert.equal(usage(['-z']), 'kit check: unknown flag -z; did you mean -h? (see kit check --help)');
    assert.equal(usage(['--q']), 'kit check: unknown flag --q; did you mean -h? (see kit check --help)');
  });

  it('reports a long flag written with one dash whole, and suggests its two-dash form', () => {
    assert.equal(usage(['-json']), 'kit check: unknown flag -json; did you mean --json? (see kit check --help)');
  });

  it('refuses a value for a boolean flag and a string flag without one', () => {
    assert.equal(usage(['--json=yes']), 'kit check: flag --json takes no value');
    assert.equal(usage(['--format']), 'kit check: flag --format needs a value');
    assert.equal(usage(['--format=']), 'kit check: flag --format needs a value');
  });

  it('does not take a flag from the object prototype', () => {
    assert.equal(usage(['--constructor']), 'kit check: unknown flag --constructor (see kit check --help)');
  });
});
