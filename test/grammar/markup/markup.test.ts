// View markup and the expression language, as unit tables.
import assert from 'node:assert/strict';
import {
  letBinding,
  parseKit,
  reparseKit,
  type Attribute,
  type Element,
  type Expr,
  type MarkupNode,
} from '#grammar/index.js';
import { assertRangesConsistent, decl, elements, slice } from '../helpers.js';

function view(markup: string): { source: string; body: MarkupNode[]; codes: string[] } {
  const source = `view {\n${markup}\n}\n`;
  const file = parseKit(source, 'x.page.kit');
  assertRangesConsistent(source, file);
  return { source, body: decl(file, 'view').body, codes: file.diagnostics.map((d) => d.code) };
}

/** An expression as a compact S-expression. */
function show(e: Expr): string {
  switch (e.type) {
    case 'path':
      return e.path.join('.');
    case 'param':
      return `param(${JSON.stringify(e.name.value)})`;
    case 'literal':
      return JSON.stringify(e.value);
    case 'not':
      return `!${show(e.expr)}`;
    case 'binary':
      return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'for':
      return `for ${e.item.text}${e.index ? ',' + e.index.text : ''} in ${show(e.collection)}`;
    case 'invalid':
      return `invalid(${e.text})`;
  }
}

function exprOf(source: string): { expr: Expr; source: string; codes: string[] } {
  const v = view(`<p a={${source}}></p>`);
  const a = (elements(v.body)[0] as Element).attrs[0];
  assert.ok(a.value?.type === 'expr');
  return { expr: a.value.expr, source: v.source, codes: v.codes };
}

describe('grammar: view markup', () => {
  it('void elements take no children, written <br> or <br />', () => {
    const v = view('<p>a<br>b<br />c<input name="q"><hr/></p>');
    assert.deepEqual(v.codes, []);
    const p = elements(v.body)[0];
    const kids = elements(p.children);
    assert.deepEqual(
      kids.map((k) => [k.name, k.selfClosing, k.children.length]),
      [
        ['br', false, 0],
        ['br', true, 0],
        ['input', false, 0],
        ['hr', true, 0],
      ],
    );
    assert.deepEqual(
      p.children.filter((c) => c.type === 'text').map((c) => c.type === 'text' && c.value),
      ['a', 'b', 'c'],
    );
  });

  it('component calls: Name and alias.Name', () => {
    const v = view('<ui.Button label="Go" /><Card><p>x</p></Card><my-widget></my-widget>');
    assert.deepEqual(v.codes, []);
    assert.deepEqual(
      elements(v.body).map((e) => [e.name, e.isComponent, e.alias, e.localName]),
      [
        ['ui.Button', true, 'ui', 'Button'],
        ['Card', true, undefined, 'Card'],
        ['my-widget', false, undefined, 'my-widget'],
      ],
    );
  });

  it('attribute forms: boolean, string, expression, shorthands and directive names', () => {
    const v = view(
      '<form .a .b-c #main g:on:submit.prevent={save} aria-label="Send {n} items" data-x required g:on:input.debounce(300ms)={x}></form>',
    );
    assert.deepEqual(v.codes, []);
    const attrs = elements(v.body)[0].attrs;
    const summary = (a: Attribute) => [a.name, a.form, a.value?.type ?? 'none', slice(v.source, a.range)];
    assert.deepEqual(attrs.map(summary), [
      ['class', 'class-shorthand', 'string', '.a'],
      ['class', 'class-shorthand', 'string', '.b-c'],
      ['id', 'id-shorthand', 'string', '#main'],
      ['g:on:submit.prevent', 'normal', 'expr', 'g:on:submit.prevent={save}'],
      ['aria-label', 'normal', 'string', 'aria-label="Send {n} items"'],
      ['data-x', 'normal', 'none', 'data-x'],
      ['required', 'normal', 'none', 'required'],
      ['g:on:input.debounce(300ms)', 'normal', 'expr', 'g:on:input.debounce(300ms)={x}'],
    ]);
    const label = attrs[4].value;
    assert.ok(label?.type === 'string');
    assert.deepEqual(
      label.parts.map((p) => [p.type, slice(v.source, p.range)]),
      [
        ['text', 'Send '],
        ['interp', '{n}'],
        ['text', ' items'],
      ],
    );
    assert.equal(slice(v.source, label.innerRange), 'Send {n} items');
  });

  it('let: attributes of slot content are their own form, also after an incremental re-parse', () => {
    const markup =
      '<Table rows={xs} let:row>\n  <template g:slot="cell" let:value let:bad={x}>{value}</template>\n</Table>';
    const v = view(markup);
    assert.deepEqual(v.codes, []);
    const call = elements(v.body)[0];
    const template = elements(call.children)[0];
    const lets = (el: Element) => el.attrs.filter((a) => a.form === 'let').map((a) => [letBinding(a), a.value?.type]);
    assert.deepEqual(lets(call), [['row', undefined]]);
    assert.deepEqual(lets(template), [
      ['value', undefined],
      ['bad', 'expr'],
    ]);
    assert.equal(letBinding(template.attrs[0]), undefined);
    const file = parseKit(v.source, 'x.page.kit');
    const next = v.source.replace('let:value', 'let:item');
    assert.deepStrictEqual(reparseKit(file, v.source, next), parseKit(next, 'x.page.kit'));
  });

  it('resolves escapes in quoted values before reading interpolations, mapping ranges back', () => {
    const v = view('<a title="say \\"hi\\" to {param(\\"who\\")}!"></a>');
    assert.deepEqual(v.codes, []);
    const title = elements(v.body)[0].attrs[0].value;
    assert.ok(title?.type === 'string');
    assert.deepEqual(
      title.parts.map((p) => [p.type, p.type === 'text' ? p.value : '', slice(v.source, p.range)]),
      [
        ['text', 'say "hi" to ', 'say \\"hi\\" to '],
        ['interp', '', '{param(\\"who\\")}'],
        ['text', '!', '!'],
      ],
    );
  });

  it('does not judge script tags, on* handlers or javascript: URLs (the core does)', () => {
    const v = view('<script>alert(1)</script><a href="javascript:x()" onclick="y()">x</a>');
    assert.deepEqual(v.codes, []);
    assert.deepEqual(
      elements(v.body).map((e) => e.name),
      ['script', 'a'],
    );
  });

  it('keeps raw text and HTML comments', () => {
    const v = view('  <p>a &amp; b</p>\n  <!-- note -->');
    const [p, comment] = v.body.filter((n) => n.type !== 'text');
    assert.ok(p.type === 'element' && p.children[0].type === 'text');
    assert.equal(p.children[0].value, 'a &amp; b');
    assert.ok(comment.type === 'comment');
    assert.equal(comment.value, ' note ');
    assert.equal(slice(v.source, comment.range), '<!-- note -->');
    assert.equal(v.body[0].type === 'text' && v.body[0].value, '  ');
  });

  it('ranges of an element: whole, open tag, name and close name', () => {
    const v = view('<section class="x">\n  <h2>T</h2>\n</section>');
    const s = elements(v.body)[0];
    assert.equal(slice(v.source, s.range), '<section class="x">\n  <h2>T</h2>\n</section>');
    assert.equal(slice(v.source, s.openRange), '<section class="x">');
    assert.equal(slice(v.source, s.nameRange), 'section');
    assert.equal(slice(v.source, s.closeNameRange!), 'section');
  });

  it('an unclosed element keeps its children and ends with the last of them', () => {
    const v = view('<div><p>x</p>');
    assert.deepEqual(v.codes, ['view_parse_error']);
    const div = elements(v.body)[0];
    assert.equal(elements(div.children)[0].name, 'p');
    assert.equal(slice(v.source, div.range), '<div><p>x</p>\n');
  });
});

describe('grammar: expressions', () => {
  const table: [string, string][] = [
    ['name', 'name'],
    [' a.b.c ', 'a.b.c'],
    ['param("slug")', 'param("slug")'],
    ['"text"', '"text"'],
    ['42', '42'],
    ['2.5', '2.5'],
    ['true', 'true'],
    ['false', 'false'],
    ['!a', '!a'],
    ['!!a.b', '!!a.b'],
    ['a == b', '(a == b)'],
    ['a != "x"', '(a != "x")'],
    ['a < 3', '(a < 3)'],
    ['a <= 3', '(a <= 3)'],
    ['a > 3', '(a > 3)'],
    ['a >= 3', '(a >= 3)'],
    ['a && b || c', '((a && b) || c)'],
    ['a || b && c', '(a || (b && c))'],
    ['a == 1 && !b', '((a == 1) && !b)'],
    ['(a || b) && c', '((a || b) && c)'],
    ['(a)', 'a'],
    ['x in xs', 'for x in xs'],
    ['item, i in page.items', 'for item,i in page.items'],
    ['a b', 'invalid(a b)'],
    ['a ==', 'invalid(a ==)'],
    ['foo(1)', 'invalid(foo(1))'],
    ['', 'invalid()'],
    ['a == b == c', 'invalid(a == b == c)'],
    ['x.in', 'invalid(x.in)'],
  ];
  for (const [src, expected] of table) {
    it(`{${src}} → ${expected}`, () => {
      const { expr, source, codes } = exprOf(src);
      assert.equal(show(expr), expected);
      assert.deepEqual(codes, expected.startsWith('invalid') ? ['invalid_expression'] : []);
      if (!expected.startsWith('invalid')) assert.equal(slice(source, expr.range), src.trim());
    });
  }

  it('parts of a for expression have their own ranges', () => {
    const { expr, source } = exprOf('item, i in items');
    assert.ok(expr.type === 'for');
    assert.equal(slice(source, expr.item.range), 'item');
    assert.equal(slice(source, expr.index!.range), 'i');
    assert.equal(slice(source, expr.collection.range), 'items');
  });
});
