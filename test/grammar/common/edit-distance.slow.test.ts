// `editDistance` (bounded, banded, common ends stripped) against the textbook Levenshtein table.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { editDistance } from '#grammar/index.js';

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

describe('grammar: editDistance', () => {
  it('is the Levenshtein distance when it is at most max, else max + 1', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-', '1', '2'), maxLength: 12 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        const d = levenshtein(a, b);
        assert.equal(editDistance(a, b, max), d <= max ? d : max + 1, `${a} / ${b} / ${max}`);
      }),
      { numRuns: 20_000 },
    );
  });

  it('answers for shared prefixes and suffixes as for the rest', () => {
    assert.equal(editDistance('save-4364', 'save-344', 2), 2);
    assert.equal(editDistance('blog-post', 'blog-psot', 2), 2);
    assert.equal(editDistance('abc', 'abc', 0), 0);
    assert.equal(editDistance('xabcx', 'xbcx', 1), 1);
    assert.equal(editDistance('prefix-aaaa', 'prefix-bbbb', 2), 3);
  });
});
