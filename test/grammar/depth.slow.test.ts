// Nesting limits of the parser: elements nest at most MAX_MARKUP_DEPTH deep (the element that
// crosses it gets markup_too_deep and stays out of the tree), expressions at most
// MAX_EXPRESSION_DEPTH; incremental re-parsing agrees with a fresh parse around the limit.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_EXPRESSION_DEPTH } from '#grammar/expressions/expr-depth.js';
import { MAX_MARKUP_DEPTH, type MarkupNode, parseKit, reparseKit } from '#grammar/index.js';

/** The deepest element of a tree, measured without recursion. */
function treeDepth(nodes: readonly MarkupNode[]): number {
  let max = 0;
  const stack: [readonly MarkupNode[], number][] = [[nodes, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    for (const n of top[0]) {
      if (n.type !== 'element') continue;
      max = Math.max(max, top[1]);
      stack.push([n.children, top[1] + 1]);
    }
  }
  return max;
}

/** The opening tags a nesting is built from: plain elements, components, directives, templates. */
const OPEN = ['<div>', '<Card>', '<p g:if={x}>', '<template g:slot="s">', '<li .a #b>'];
const close = (open: string) => `</${/^<([\w.]+)/.exec(open)![1]}>`;

function nested(opens: string[], inner = 'x'): string {
  const closes = [...opens].reverse().map(close).join('');
  return `route "/deep"\nguard public\n\nview {\n${opens.join('')}${inner}${closes}\n}\n`;
}

const viewOf = (text: string) => {
  const file = parseKit(text, 'deep.kit');
  const view = file.declarations.find((d) => d.kind === 'view');
  return { file, body: view && view.kind === 'view' ? view.body : [] };
};

describe('grammar: nesting limits', () => {
  it('any nesting: markup_too_deep exactly past the limit, at the crossing tag, tree within it (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...OPEN), { minLength: 1, maxLength: 1200 }),
        fc.constantFrom('x', '<br>', '{a && !b}', '<span>y</span>'),
        (opens, inner) => {
          const text = nested(opens, inner);
          const { file, body } = viewOf(text);
          const deep = file.diagnostics.filter((d) => d.code === 'markup_too_deep');
          const total = opens.length + (inner.startsWith('<') ? 1 : 0);
          assert.equal(deep.length, total > MAX_MARKUP_DEPTH ? 1 : 0, `depth ${total}`);
          assert.deepEqual(
            file.diagnostics.filter((d) => d.code !== 'markup_too_deep'),
            [],
          );
          assert.equal(treeDepth(body), Math.min(total, MAX_MARKUP_DEPTH));
          if (deep.length && opens.length > MAX_MARKUP_DEPTH) {
            // The name of the 257th opening tag.
            const at = text.indexOf('view {\n') + 7 + opens.slice(0, MAX_MARKUP_DEPTH).join('').length + 1;
            assert.equal(deep[0].range.start.offset, at);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('10,000 levels parse without recursion trouble, and the message names the limit', () => {
    const { file, body } = viewOf(nested(Array(10_000).fill('<div>')));
    assert.deepEqual(
      file.diagnostics.map((d) => [d.code, d.range.start.line]),
      [['markup_too_deep', 4]],
    );
    assert.match(file.diagnostics[0].message, /`<div>` nests deeper than 256 elements/);
    assert.equal(treeDepth(body), MAX_MARKUP_DEPTH);
  });

  it('content after the cut element is read again at its own depth', () => {
    const opens = Array(MAX_MARKUP_DEPTH + 3).fill('<div>');
    const text = nested(opens).replace('\n}\n', '\n<p>after</p>\n}\n');
    const { file, body } = viewOf(text);
    assert.deepEqual(
      file.diagnostics.map((d) => d.code),
      ['markup_too_deep'],
    );
    assert.ok(body.some((n) => n.type === 'element' && n.name === 'p'));
  });

  it('an edit near the limit re-parses to what a fresh parse gives (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_MARKUP_DEPTH - 3, max: MAX_MARKUP_DEPTH + 3 }),
        fc.constantFrom('<b>y</b>', '<i><b>y</b></i>', '', 'z', '</div>', '<div>'),
        (depth, insert) => {
          const text = nested(Array(depth).fill('<div>'));
          const file = parseKit(text, 'deep.kit');
          const at = text.indexOf('>x<') + 1;
          const next = text.slice(0, at) + insert + text.slice(at);
          assert.deepStrictEqual(reparseKit(file, text, next), parseKit(next, 'deep.kit'));
        },
      ),
      { numRuns: 60 },
    );
  });

  it(`expressions nest at most ${MAX_EXPRESSION_DEPTH} levels: !, parentheses and operator chains`, () => {
    const expr = (e: string) => {
      const file = parseKit(`route "/e"\nguard public\n\nview {\n  <p>{${e}}</p>\n}\n`, 'e.kit');
      return file.diagnostics.map((d) => [d.code, d.message.replace(/^.*: /, ''), d.range.start.column]);
    };
    const n = MAX_EXPRESSION_DEPTH;
    const chain = (k: number, op: string) =>
      Array(k + 1)
        .fill('a')
        .join(` ${op} `);
    for (const ok of ['!'.repeat(n) + 'a', `${'('.repeat(n)}a${')'.repeat(n)}`, chain(n, '&&'), chain(n, '||')])
      assert.deepEqual(expr(ok), [], ok.slice(0, 20));
    const tooDeep = 'it nests deeper than 64 levels; split the condition';
    assert.deepEqual(expr('!'.repeat(n + 1) + 'a'), [['invalid_expression', tooDeep, 6 + n]]);
    assert.deepEqual(expr(`${'('.repeat(10_000)}a${')'.repeat(10_000)}`), [['invalid_expression', tooDeep, 6 + n]]);
    assert.deepEqual(expr('(!'.repeat(n / 2) + '!a' + ')'.repeat(n / 2)), [['invalid_expression', tooDeep, 6 + n]]);
    assert.deepEqual(expr(chain(n + 1, '&&')), [['invalid_expression', tooDeep, 6]]);
    assert.deepEqual(expr(chain(50_000, '||')), [['invalid_expression', tooDeep, 6]]);
  });
});
