// A small, strict argument parser: known flags only, clear errors naming the offending argument.
import { closestOf } from '../../../grammar/src/keywords.js';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface FlagSpec {
  /** `boolean` flags take no value; `string` flags take the next argument or `--flag=value`. */
  [name: string]: 'boolean' | 'string';
}

export interface ParsedArgs {
  flags: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parseArgs(argv: string[], spec: FlagSpec, command: string): ParsedArgs {
  const flags: ParsedArgs['flags'] = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--') || (a.startsWith('-') && a.length > 1 && a !== '-')) {
      const eq = a.indexOf('=');
      const name = (eq >= 0 ? a.slice(0, eq) : a).replace(/^--?/, '');
      const kind = spec[name];
      if (!kind) {
        const near = closestOf(name, Object.keys(spec));
        const hint = near ? `; did you mean --${near}?` : '';
        throw new UsageError(
          `kit ${command}: unknown flag ${a.slice(0, eq >= 0 ? eq : a.length)}${hint} (see kit ${command} --help)`,
        );
      }
      if (kind === 'boolean') {
        if (eq >= 0) throw new UsageError(`kit ${command}: flag --${name} takes no value`);
        flags[name] = true;
      } else {
        const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
        if (value === undefined || value === '') throw new UsageError(`kit ${command}: flag --${name} needs a value`);
        flags[name] = value;
      }
      continue;
    }
    positionals.push(a);
  }
  return { flags, positionals };
}
