// The hand-written markup scanner against Chevrotain's lexer over the same token definitions: the
// same tokens (type, image, offset, object shape) and no errors, for every fixture's text and for
// random bodies built from the characters and fragments where the two could part ways.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { chevrotainMarkupLexer } from '../../grammar/src/markup-lexer.js';
import { scanMarkup } from '../../grammar/src/markup-scanner.js';
import type { ILexingResult } from 'chevrotain';
import { fixture } from '../helpers/repo.js';

function shape(r: ILexingResult): unknown {
  return {
    tokens: r.tokens.map((t) => [t.tokenType.name, t.image, t.startOffset, t.tokenTypeIdx, Object.keys(t).join()]),
    errors: r.errors.length,
  };
}

const pieceArb = fc.constantFrom(
  '<',
  '/',
  '>',
  '!',
  '-',
  '.',
  '#',
  ':',
  '=',
  '"',
  "'",
  '\\',
  '{',
  '}',
  '(',
  ')',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\f',
  '\v',
  '\uFEFF',
  '\u00a0',
  '\u{1F600}',
  'é',
  '<!--',
  '-->',
  '<!-',
  '</',
  '</div>',
  '</div \t>',
  '</ div',
  '</a x>',
  '<div',
  '<ui.Card',
  '<1a',
  '<{x}',
  '/>',
  ' href="/x"',
  '"a\\"b"',
  '"\\',
  "'q'",
  '{a.b}',
  '{"x}"}',
  '{"a\\',
  '{#if x}',
  '{/if',
  '{:else}',
  '{@html x}',
  ' .c',
  ' #i',
  '.:-',
  ' g:on:input.debounce(300ms)',
  '(a.b',
  '@x',
  '$y',
  '_z',
  'text',
);

describe('grammar: markup scanner', () => {
  it('gives the tokens of Chevrotain’s lexer for every fixture', () => {
    const files = (readdirSync(fixture(), { recursive: true }) as string[]).filter((n) => n.endsWith('.kit'));
    assert.ok(files.length > 100, `${files.length} fixtures`);
    for (const f of files) {
      const text = readFileSync(fixture(f), 'utf8');
      assert.deepEqual(shape(scanMarkup(text)), shape(chevrotainMarkupLexer.tokenize(text)), f);
    }
  });

  it('gives the tokens of Chevrotain’s lexer for random bodies, and no errors', () => {
    fc.assert(
      fc.property(fc.array(pieceArb, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        const mine = scanMarkup(text);
        assert.equal(mine.errors.length, 0);
        assert.deepEqual(shape(mine), shape(chevrotainMarkupLexer.tokenize(text)));
      }),
      { numRuns: 20_000 },
    );
  });
});
