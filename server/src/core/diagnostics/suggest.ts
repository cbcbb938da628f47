// "Did you mean": the one way a diagnostic names the closest known name to a misspelt one.
// The keywords module alone: the grammar's barrel would load Chevrotain (a binding worker needs none).
import { closestOf } from '#grammar/index.js';

/** `; did you mean "x"?` when a candidate is close enough to be a typo of `word`, else ''. */
export function didYouMean(word: string, candidates: Iterable<string>, quote = (s: string) => `"${s}"`): string {
  const near = closestOf(word, candidates);
  return near === undefined || near === word ? '' : `; did you mean ${quote(near)}?`;
}
