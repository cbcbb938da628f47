// Command-line flags: Node's `util.parseArgs` reads the arguments (long and short flags, `--flag=value`,
// `--` and positionals) and this module holds them to a command's flags with kit's messages: an
// unknown flag gets a did-you-mean, a flag's misuse names the flag. Known flags only: a typo is an
// error, never a positional.
import { parseArgs as nodeParseArgs } from 'node:util';
import { closestOf } from '#grammar/index.js';
import { UsageError } from './usage-error.js';

export { UsageError } from './usage-error.js';

/** A command's flags: `boolean` flags take no value; `string` flags take the next argument or `--flag=value`. */
export interface FlagSpec {
  readonly [name: string]: 'boolean' | 'string';
}

/** The flags given: a string flag's value, true for a boolean flag; a flag not given is absent. */
export type Flags<S extends FlagSpec> = { -readonly [K in keyof S]?: S[K] extends 'string' ? string : boolean };

export interface ParsedArgs<S extends FlagSpec> {
  flags: Flags<S>;
  positionals: string[];
}

/**
 * The flags and positionals of `argv` for `kit <command>`. A one-letter flag is also its short form
 * (`h`: `-h` and `--h`). Throws a `UsageError` for an unknown flag, a boolean flag given a value
 * and a string flag without one. The last of a repeated flag wins.
 */
export function parseArgs<const S extends FlagSpec>(argv: readonly string[], spec: S, command: string): ParsedArgs<S> {
  const options: Record<string, { type: 'boolean' | 'string'; short?: string }> = {};
  for (const [name, type] of Object.entries(spec)) options[name] = name.length === 1 ? { type, short: name } : { type };
  // Not strict: every argument comes back as a token, and the checks below word the errors.
  const { tokens } = nodeParseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const kind = Object.hasOwn(spec, token.name) ? spec[token.name] : undefined;
    if (kind === undefined) throw unknownFlag(argv[token.index], token.rawName, spec, command);
    if (kind === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`kit ${command}: flag --${token.name} takes no value`);
      flags[token.name] = true;
    } else {
      if (token.value === undefined || token.value === '')
        throw new UsageError(`kit ${command}: flag --${token.name} needs a value`);
      flags[token.name] = token.value;
    }
  }
  return { flags: flags as Flags<S>, positionals };
}

/**
 * The error for a flag `spec` does not have, with the flag as typed (without its value) and the
 * nearest known flag. `-json` reads as the short flags `-j -s -o -n`: it is reported whole, and
 * `--json` suggested.
 */
function unknownFlag(arg: string, rawName: string, spec: FlagSpec, command: string): UsageError {
  const whole = /^-[^-=]{2,}/.exec(arg)?.[0];
  const shown = whole ?? rawName;
  const near = closestOf(shown.replace(/^--?/, ''), Object.keys(spec));
  const hint = near ? `; did you mean ${near.length === 1 ? '-' : '--'}${near}?` : '';
  return new UsageError(`kit ${command}: unknown flag ${shown}${hint} (see kit ${command} --help)`);
}
