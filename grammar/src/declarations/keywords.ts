// The words kit deliberately rejects at the top level of a file, with the nudges their diagnostics
// give, and the did-you-mean of a mistyped declaration keyword. The keywords themselves are language
// facts (shared/language/facts.ts), which the language server and the rules read as well.
import { DECLARATION_KEYWORD_SET, DECLARATION_KEYWORDS } from '#shared/language/facts.js';
import { closestOf } from '../common/typos.js';

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

/** The declaration keyword closest to `word` (case-insensitive), if any is close enough to be a typo. */
export function closestKeyword(word: string): string | undefined {
  const w = word.toLowerCase();
  return DECLARATION_KEYWORD_SET.has(w) ? w : closestOf(w, DECLARATION_KEYWORDS);
}
