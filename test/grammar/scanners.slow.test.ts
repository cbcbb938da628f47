// The hand-written scanners against Chevrotain's lexers over the same token definitions (markup
// bodies, the inside of `{...}`, quoted attribute values, declaration lines): the same tokens and comments (type, image, offset, object shape) and
// no errors, for every fixture's text and for random text built from the characters and fragments
// where the two could part ways.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { ILexingResult } from 'chevrotain';
import { chevrotainDeclLexer } from '#grammar/declarations/decl-lexer.js';
import { scanDecl } from '#grammar/declarations/decl-scanner.js';
import { chevrotainMarkupLexer } from '#grammar/markup/markup-lexer.js';
import { markupLexer, scanMarkup } from '#grammar/markup/markup-scanner.js';
import { fixture } from '../helpers/repo.js';

function shape(r: ILexingResult): unknown {
  const tokens = (list: typeof r.tokens) =>
    list.map((t) => [t.tokenType.name, t.image, t.startOffset, t.tokenTypeIdx, Object.keys(t).join()]);
  const groups = Object.fromEntries(Object.entries(r.groups).map(([k, v]) => [k, tokens(v)]));
  return { tokens: tokens(r.tokens), groups, errors: r.errors.length };
}

/** White space of every kind and characters outside ASCII: where a scanner and a regular expression could part ways. */
const BLANKS_AND_UNICODE = [' ', '\t', '\n', '\r\n', '\f', '\v', '\uFEFF', '\u00a0', '\u{1F600}', 'é'];

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

  ...BLANKS_AND_UNICODE,
);

const declPieceArb = fc.constantFrom(
  'error',
  'errors',
  'error.html',
  'error:',
  'error:x',
  'cors',
  'corsx',
  'Error',
  '\r',
  '//',
  '// c',
  '/',
  '/x',
  'a//b',
  '"',
  '"s"',
  '"a\\"b"',
  '"\\',
  '\\',
  '=',
  '=>',
  '>',
  '{',
  '}',
  ',',
  ':',
  'role:admin',
  'x:',
  ':y',
  '.',
  '$',
  '-',
  '_',
  '5m',
  './pkg',
  '(',
  '@',
  'route "/a/{slug}"',
  'act Save POST "/s" error "/e.html"',

  ...BLANKS_AND_UNICODE,
);

const exprPieceArb = fc.constantFrom(
  '.',
  '...',
  '....',
  '(',
  ')',
  ',',
  '=',
  '==',
  '!',
  '!=',
  '&',
  '&&',
  '|',
  '||',
  '<',
  '<=',
  '>',
  '>=',
  '"',
  '"s"',
  '"a\\"b"',
  '"\\',
  '\\',
  '1',
  '1.5',
  '1.',
  'true',
  'trueish',
  'false',
  'falsey',
  'in',
  'items',
  '$x',
  '_y',
  'param',
  '{',
  '}',
  '{#if}',
  '{x}',
  '{"a}"}',
  '@',
  '#',
  '-',

  ...BLANKS_AND_UNICODE,
);

describe('grammar: scanners', () => {
  it('give the tokens of Chevrotain’s lexers for every fixture', () => {
    const files = (readdirSync(fixture(), { recursive: true }) as string[]).filter((n) => n.endsWith('.kit'));
    assert.ok(files.length > 100, `${files.length} fixtures`);
    for (const f of files) {
      const text = readFileSync(fixture(f), 'utf8');
      assert.deepEqual(shape(scanMarkup(text)), shape(chevrotainMarkupLexer.tokenize(text)), f);
      assert.deepEqual(shape(scanDecl(text)), shape(chevrotainDeclLexer.tokenize(text)), f);
    }
  });

  /** On texts joined from `pieces`: `mine` answers without errors and as `theirs` does. */
  function agree(
    pieces: fc.Arbitrary<string>,
    mine: (text: string) => ILexingResult,
    theirs: (text: string) => ILexingResult,
    runs: number,
  ): void {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const result = mine(text);
        assert.equal(result.errors.length, 0);
        assert.deepEqual(shape(result), shape(theirs(text)));
      }),
      { numRuns: runs },
    );
  }

  it('markup: the tokens of Chevrotain’s lexer for random bodies, and no errors', () => {
    agree(pieceArb, scanMarkup, (text) => chevrotainMarkupLexer.tokenize(text), 20_000);
  });

  it('declarations: the tokens and comments of Chevrotain’s lexer for random lines, and no errors', () => {
    agree(declPieceArb, scanDecl, (text) => chevrotainDeclLexer.tokenize(text), 20_000);
  });

  for (const mode of ['expr', 'attr'] as const) {
    it(`markup, ${mode} mode: the tokens of Chevrotain’s lexer for random text, and no errors`, () => {
      const lex = (text: string) => markupLexer.tokenize(text, mode);
      agree(exprPieceArb, lex, (text) => chevrotainMarkupLexer.tokenize(text, mode), 10_000);
    });
  }
});
