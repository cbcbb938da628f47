// Did-you-mean for every part of kit: a bounded edit distance and the closest candidate within a
// typo's reach (declaration keywords, command names and flags, routes, component names). Plain
// functions of strings that load nothing, so the command line's start path may import this module
// alone (an unknown command's did-you-mean runs no parser code).

/** Rows of `editDistance`, reused: it runs once per candidate of every suggestion. */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/**
 * Levenshtein distance, bounded: answers `max + 1` as soon as the distance exceeds `max`. Only the
 * band of cells within `max` of the diagonal can hold a distance of `max` or less, so only it is
 * computed (cells outside count as `max + 1`).
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  // A common prefix or suffix changes no distance, and candidates often share most of theirs
  // (`save-4364` against `save-344`): only the rest goes through the table, read in place.
  let start = 0;
  while (start < a.length && start < b.length && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const lenA = endA - start;
  const lenB = endB - start;
  const over = max + 1;
  if (rowA.length <= lenB) {
    rowA = new Int32Array(lenB * 2 + 2);
    rowB = new Int32Array(lenB * 2 + 2);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= lenB; j++) prev[j] = j <= max ? j : over;
  for (let i = 1; i <= lenA; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(lenB, i + max);
    cur[0] = i <= max ? i : over;
    if (from > 1) cur[from - 1] = over;
    let rowMin = from === 1 ? cur[0] : over;
    const ca = a.charCodeAt(start + i - 1);
    for (let j = from; j <= to; j++) {
      const cost = ca === b.charCodeAt(start + j - 1) ? 0 : 1;
      let v = prev[j - 1] + cost;
      const up = prev[j] + 1;
      if (up < v) v = up;
      const left = cur[j - 1] + 1;
      if (left < v) v = left;
      if (v > over) v = over;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (to < lenB) cur[to + 1] = over;
    if (rowMin > max) return over;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[lenB] > max ? over : prev[lenB];
}

/** How many edits still make a typo of `word`: one for words of up to three characters, two for longer ones. */
export function typoBound(word: string): number {
  return word.length <= 3 ? 1 : 2;
}

/** The edit distance from `word` to `candidate` (case-insensitive) when small enough for a typo (`closestOf`). */
export function typoDistance(word: string, candidate: string): number | undefined {
  const max = typoBound(word);
  const d = editDistance(word.toLowerCase(), candidate.toLowerCase(), max);
  return d > max ? undefined : d;
}

/**
 * The candidate closest to `word` (case-insensitive), if one is close enough to be a typo: at most
 * one edit for words of up to three characters, two for longer ones.
 */
export function closestOf(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDist = Number.POSITIVE_INFINITY;
  for (const k of candidates) {
    const d = typoDistance(word, k);
    if (d !== undefined && d < bestDist) {
      bestDist = d;
      best = k;
    }
  }
  return best;
}
