// What the build benchmarks share: their options (`--name=value` on the command line, else the
// environment variable `npm run bench` passes, as it gives no arguments), how they print figures,
// and the load average they print beside them.
import { loadavg } from 'node:os';

export function option(name: string, env: string): string | undefined {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : process.env[env];
}

/** A number formatter with `digits` decimals unless told otherwise; `—` for none. */
export const formatter =
  (digits: number) =>
  (n: number | undefined, d = digits): string =>
    n === undefined || Number.isNaN(n)
      ? '—'
      : n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

/** The load averages over 1, 5 and 15 minutes, as printed. */
export const loadNow = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
