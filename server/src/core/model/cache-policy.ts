// Revalidation windows and the effective Cache-Control policy of a page.

/** Go's duration units, in nanoseconds. */
const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX_DURATION_NS = 2n ** 63n - 1n;
// µ (micro sign) and μ (Greek mu) escaped: the bundled CLI stays ASCII text (test/bin/kit.e2e.test.ts).
const TERM = /([0-9]*)(?:\.([0-9]*))?(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/y;

/**
 * Whole seconds from `300` or any Go duration (`time.ParseDuration`: `60s`, `5m`, `1h30m`, `1.5m`,
 * `.5m`, `2000ms`) that is a positive whole number of seconds; undefined when invalid. Arithmetic
 * is exact (nanoseconds as bigints), as Go's is.
 */
export function parseRevalidate(text: string): number | undefined {
  if (/^[0-9]+$/.test(text)) {
    const n = Number(text);
    return n > 0 && Number.isSafeInteger(n) ? n : undefined;
  }
  let at = text.startsWith('+') ? 1 : 0;
  if (at >= text.length) return undefined;
  let total = 0n;
  while (at < text.length) {
    TERM.lastIndex = at;
    const m = TERM.exec(text);
    if (!m || (m[1] === '' && !m[2])) return undefined;
    const unit = UNIT_NS[m[3]];
    const whole = m[1] === '' ? 0n : BigInt(m[1]);
    const fraction = m[2] ?? '';
    // Go keeps the fraction's whole nanoseconds and drops the rest.
    const frac = fraction === '' ? 0n : (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    total += whole * unit + frac;
    if (total > MAX_DURATION_NS) return undefined;
    at = TERM.lastIndex;
  }
  if (total <= 0n || total % 1_000_000_000n !== 0n) return undefined;
  const seconds = Number(total / 1_000_000_000n);
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}

/** The page's declared `cache` value with `, stale-while-revalidate=<seconds>` when `revalidate` is set. */
export function effectiveCachePolicy(cache: string | undefined, revalidate: string | undefined): string | undefined {
  if (cache === undefined) return undefined;
  const seconds = revalidate === undefined ? undefined : parseRevalidate(revalidate);
  return seconds === undefined ? cache : `${cache}, stale-while-revalidate=${seconds}`;
}
