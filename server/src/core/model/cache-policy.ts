// Revalidation windows and the effective Cache-Control policy of a page.

const UNIT_SECONDS: Record<string, number> = { h: 3600, m: 60, s: 1 };

/**
 * Whole seconds from `300` or a Go-style duration (`60s`, `5m`, `1h`, `1m30s`, `1.5m`) that is a
 * positive whole number of seconds; undefined when invalid.
 */
export function parseRevalidate(text: string): number | undefined {
  if (/^[0-9]+$/.test(text)) {
    const n = Number(text);
    return n > 0 && Number.isSafeInteger(n) ? n : undefined;
  }
  const re = /([0-9]+(?:\.[0-9]+)?)(h|m|s)/y;
  let total = 0;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_SECONDS[m[2]];
    at = re.lastIndex;
  }
  if (at === 0) return undefined;
  // Fractions must still add up to whole seconds (1.5m is 90 s; 1.5s is not whole).
  const rounded = Math.round(total * 1e6) / 1e6;
  if (!Number.isInteger(rounded) || rounded <= 0 || !Number.isSafeInteger(rounded)) return undefined;
  return rounded;
}

/** The page's declared `cache` value with `, stale-while-revalidate=<seconds>` when `revalidate` is set. */
export function effectiveCachePolicy(cache: string | undefined, revalidate: string | undefined): string | undefined {
  if (cache === undefined) return undefined;
  const seconds = revalidate === undefined ? undefined : parseRevalidate(revalidate);
  return seconds === undefined ? cache : `${cache}, stale-while-revalidate=${seconds}`;
}
