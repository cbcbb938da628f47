// The words of the language: top-level keywords, void elements and the words kit deliberately
// rejects, with the nudges their diagnostics give.

/** Every keyword that starts a top-level declaration (`go` starts `go server {`). */
export const DECLARATION_KEYWORDS: readonly string[] = Object.freeze([
  'package',
  'page',
  'route',
  'render',
  'guard',
  'layout',
  'cache',
  'revalidate',
  'title',
  'description',
  'canonical',
  'css',
  'js',
  'asset',
  'wasm',
  'error',
  'use',
  'component',
  'props',
  'paths',
  'server',
  'go',
  'act',
  'api',
  'fragment',
  'view',
  'style',
]);

export const DECLARATION_KEYWORD_SET: ReadonlySet<string> = new Set(DECLARATION_KEYWORDS);

export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/** Blocks of the original language that kit does not support, with the message for each. */
export const UNSUPPORTED_BLOCKS: ReadonlyMap<string, string> = new Map([
  ['load', '`load {}` was renamed `server {}`: write `server {` with `=> { field, a.b }` lines'],
  [
    'build',
    '`build {}` blocks are not supported by kit; use `paths {}` for concrete paths and `server {}` for ' +
      'request-time data',
  ],
  ['go', 'inline `go {}` blocks are not supported by kit; only `go server {}` (or `server {}`) is'],
  ['go client', '`go client {}` blocks are not supported by kit'],
  ['client', '`client {}` blocks are not supported by kit'],
  ['exports', '`exports {}` blocks are not supported by kit'],
  ['emits', '`emits {}` blocks are not supported by kit'],
  ['state', '`state` declarations are not supported by kit'],
  ['js', 'inline `js {}` blocks are not supported by kit; reference a module with `js "./file.js"`'],
  ['store', '`store` declarations are not supported by kit'],
]);

/** Declarations of the original language that kit leaves out (reported as unknown, with a reason). */
export const FOREIGN_DECLARATIONS: ReadonlySet<string> = new Set([
  'image',
  'robots',
  'noindex',
  'jsonld',
  'preload',
  'prefetch',
  'import',
]);

/** Levenshtein distance, bounded: answers `max + 1` as soon as the distance exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/**
 * The candidate closest to `word` (case-insensitive), if one is close enough to be a typo: at most
 * one edit for words of up to three characters, two for longer ones.
 */
export function closestOf(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  const max = w.length <= 3 ? 1 : 2;
  let best: string | undefined;
  let bestDist = max + 1;
  for (const k of candidates) {
    const d = editDistance(w, k.toLowerCase(), max);
    if (d < bestDist) {
      bestDist = d;
      best = k;
    }
  }
  return best;
}

/** The declaration keyword closest to `word` (case-insensitive), if any is close enough to be a typo. */
export function closestKeyword(word: string): string | undefined {
  const w = word.toLowerCase();
  return DECLARATION_KEYWORD_SET.has(w) ? w : closestOf(w, DECLARATION_KEYWORDS);
}
