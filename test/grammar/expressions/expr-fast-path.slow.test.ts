// The expression reader's shortcut for common shapes must build exactly what the grammar builds.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readCommonExpr } from '#grammar/expressions/expr-common.js';
import { parseExprWithGrammar } from '#grammar/expressions/expr-parser.js';
import { PosMaker, computeLineStarts } from '#grammar/common/text-lines.js';

function both(inner: string, offsets?: number[]) {
  const doc = `  {${inner}}  `;
  const pm = new PosMaker(computeLineStarts(doc), doc.length);
  const map = offsets ? (i: number) => offsets[i] : (i: number) => 3 + i;
  return { fast: readCommonExpr(inner, map, pm, doc), slow: parseExprWithGrammar(inner, map, pm, doc) };
}

describe('grammar: expression shortcut', () => {
  const table = [
    'a',
    ' a.b.c ',
    '\ta',
    'param("slug")',
    ' param ( "x-y" ) ',
    'item in items',
    'item, i in page.items',
    'x ,i  in  a.b',
    'param in xs',
    'x in param',
    'true',
    ' false\t',
    '42',
    ' 1.5 ',
  ];
  for (const inner of table) {
    it(`{${inner}} takes the shortcut and equals the grammar`, () => {
      const { fast, slow } = both(inner);
      assert.ok(fast, 'shortcut taken');
      assert.deepStrictEqual(fast, slow.expr);
    });
  }

  for (const inner of [
    'true false',
    '1.',
    '-1',
    '1 2',
    'a.in',
    'in in xs',
    'x in true',
    'param("a\\"b")',
    'a == b',
    'x in (xs)',
    'f(1)',
    '',
  ]) {
    it(`{${inner}} is left to the grammar`, () => {
      assert.equal(both(inner).fast, undefined);
    });
  }

  it('agrees with the grammar on random inputs built from expression pieces', () => {
    const piece = fc.constantFrom(
      'a',
      'b.c',
      'param',
      'in',
      'true',
      'false',
      '12',
      '1.5',
      'x1',
      '$y',
      '_',
      ',',
      '(',
      ')',
      '"s"',
      ' ',
      '\t',
      '.',
      '!',
      '==',
      'param("q")',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 7 }), (parts) => {
        const inner = parts.join('');
        const { fast, slow } = both(inner);
        if (fast !== undefined) assert.deepStrictEqual(fast, slow.expr);
      }),
      { numRuns: 3000 },
    );
  });
});
