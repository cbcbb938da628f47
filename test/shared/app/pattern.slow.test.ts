// The linear-time `pattern` matcher against the platform's RegExp: on random patterns of the HTML
// subset it runs (classes, escapes, groups, alternation, counted and open repetition, anchors, word
// boundaries, lookarounds) and random values it must agree with `^(?:p)$` compiled with the `v`
// flag; patterns RegExp refuses are `invalid`, backreferences and oversized repetitions are
// `unsupported`; and values that make a backtracker run for minutes are answered in one pass.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { compilePattern, MATCH_STEP_BUDGET, MAX_PATTERN_STATES, type LinearPattern } from '#shared/app/pattern.js';

function linear(source: string): LinearPattern {
  const c = compilePattern(source);
  assert.ok(c.ok, `${source} compiles: ${c.ok ? '' : c.message}`);
  return c.pattern;
}

/**
 * The platform's RegExp for `source`, as the HTML attribute compiles it. Node 20's V8 answers wrong
 * for a negated class before its own character in a repeated group with the `v` flag
 * (`/^(?:[^a]a)+$/v` refuses "1a", which `/u` and later engines match), so `[^a]` is written as
 * the same set the long way: one code point that is not `a`.
 */
function reference(source: string): RegExp {
  return new RegExp(`^(?:${source.replaceAll('[^a]', '(?:(?!a)[\\s\\S])')})$`, 'v');
}

function agrees(source: string, values: readonly string[]): void {
  const re = reference(source);
  const p = linear(source);
  for (const v of values) assert.equal(p.test(v), re.test(v), `${source} on ${JSON.stringify(v)}`);
}

// Pieces of patterns over a small alphabet, so random values often match.
const piece = fc.constantFrom(
  'a',
  'b',
  'c',
  '-',
  '.',
  '\\d',
  '\\w',
  '\\s',
  '[ab]',
  '[^a]',
  '[a-c\\-]',
  '[\\w--[b]]',
  '[[ab]&&[bc]]',
  '[\\q{ab|c}]',
  '[\\q{}x]',
  '\\p{L}',
  '\\u{61}',
  '\\x62',
  '😀',
);
const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{0,2}', '{1,}', '*?', '+?', '{1,3}?');
const LOOKS = ['(?=', '(?!', '(?<=', '(?<!'];
const { alt: pattern } = fc.letrec<{ alt: string; seq: string; term: string }>((tie) => ({
  alt: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((s) => s.join('|')),
  seq: fc.array(tie('term'), { maxLength: 4 }).map((t) => t.join('')),
  // Groups nest two deep at most: deeper nests of quantified groups made the reference RegExp (a
  // backtracker) run for many minutes on some ten-character values, and a synchronous test cannot
  // be timed out.
  term: fc.oneof(
    { depthSize: 'small', maxDepth: 2, withCrossShrink: true },
    fc.tuple(piece, quantifier).map(([p, q]) => p + q),
    fc.constantFrom('^', '$', '\\b', '\\B'),
    fc
      .tuple(fc.constantFrom('(', '(?:', '(?<g>', '(?=', '(?!', '(?<=', '(?<!'), tie('alt'), quantifier)
      // Lookarounds take no quantifier in unicode mode.
      .map(([open, body, q]) => `${open}${body})${LOOKS.includes(open) ? '' : q}`),
  ),
}));
const value = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-', ' ', '1', '😀', '\n'), maxLength: 10 });

describe('pattern: the linear matcher', () => {
  it('agrees with RegExp on hand-picked patterns, Unicode and class strings included', () => {
    agrees('(a+)+b', ['aab', 'aaaa', 'b', '']);
    agrees('[A-Z][A-Z][A-Z]-[0-9]+', ['ABC-1', 'abc', 'ABC-']);
    agrees('(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{8,}', ['Passw0rd', 'password', 'PASSW0RD', 'Pw0', 'Passwörd1']);
    agrees('(?<=a)b|ab', ['ab', 'b']);
    agrees('a(?!b).', ['ac', 'ab', 'a']);
    agrees('\\bfoo\\b.*', ['foo bar', 'foobar', 'foo']);
    agrees('[\\q{abc|d}x]+', ['abcdx', 'abx', '', 'dd']);
    agrees('[\\q{}a]b', ['b', 'ab', 'aab']);
    agrees('\\p{RGI_Emoji}+', ['👩🏻‍❤️‍💋‍👨🏼😀', 'a', '🏴󠁧󠁢󠁥󠁮󠁧󠁿']);
    agrees('\\uD83D\\uDE00|\\u{1F601}', ['😀', '😁', '\uD83D']);
    agrees('.', ['😀', '\n', 'ab', '\uD800', '\u2028']);
    agrees('a{2,3}', ['a', 'aa', 'aaa', 'aaaa']);
    agrees('(a|)*b', ['b', 'aab']);
    agrees('(?:(?=a)a)*', ['aaa', 'aab', '']);
    agrees('x(?<!x)', ['x']);
    agrees('[^a-c]', ['d', 'a', '😀']);
    agrees('(?<year>\\d{4})-(?:0[1-9]|1[0-2])', ['2024-01', '2024-13', '24-01']);
    agrees('^a$|b', ['a', 'b', 'ab']);
    agrees('(?=(?!a)).', ['a', 'b']);
    agrees('[\\p{L}--[a-z]]+', ['ABC', 'abc', 'Ωß']);
  });

  it('agrees with RegExp on random patterns and values', () => {
    fc.assert(
      fc.property(pattern, fc.array(value, { minLength: 1, maxLength: 8 }), (source, values) => {
        let re: RegExp;
        try {
          re = reference(source);
        } catch {
          // Not a pattern browsers accept: the matcher must say invalid, nothing more.
          const c = compilePattern(source);
          return !c.ok && c.problem === 'invalid';
        }
        const p = linear(source);
        for (const v of values) assert.equal(p.test(v), re.test(v), `${source} on ${JSON.stringify(v)}`);
        return true;
      }),
      { numRuns: 1500 },
    );
  });

  it('calls what RegExp refuses invalid, and backreferences and huge repetitions unsupported', () => {
    for (const bad of ['[a-', '(a', 'a**', '[a-z0-9._-]', '\\', 'a{2,1}', '(?i:a)']) {
      const c = compilePattern(bad);
      assert.ok(!c.ok && c.problem === 'invalid', `${bad} is invalid`);
    }
    for (const slow of ['(a+)\\1', '(?<x>a)\\k<x>', `a{${MAX_PATTERN_STATES + 1}}`, '(?:a{100}){100}']) {
      const c = compilePattern(slow);
      assert.ok(!c.ok && c.problem === 'unsupported', `${slow} is unsupported`);
      assert.match(c.message, /backreference|states|repetition/);
    }
  });

  it('reads values that make a backtracker run for minutes in one pass', () => {
    // Each of these takes RegExp longer than the test's whole timeout at these lengths.
    const hostile = 'a'.repeat(100_000) + '!';
    for (const source of ['(a+)+b', '(a|a)*b', '(a*)*b', '(?:a|aa)+b', '(\\w+\\s?)+$x', '.*.*.*=.*x'])
      assert.equal(linear(source).test(hostile), false, source);
    assert.equal(linear('(a+)+b').test('a'.repeat(100_000) + 'b'), true);
  });

  it('stops a check at its step budget: what would take longer is a mismatch', () => {
    // A hundred live states per code point past the first hundred: a thousand a's take some 200,000 steps.
    const many = linear('a*a{100}');
    const value = 'a'.repeat(1000);
    assert.equal(many.test(value), true);
    assert.equal(many.test(value, 10_000), false);
    // A megabyte would take 200 million steps: the default budget ends it.
    assert.equal(many.test('a'.repeat(1 << 20)), false);
    assert.ok(MATCH_STEP_BUDGET >= 10_000_000);
  });
});
