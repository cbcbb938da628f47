// Document highlights and linked editing of tag pairs over stdio, against `kit lsp --stdio` on the
// editor-features fixture: what each answers at a place, and that an edit changes the answer.
import { strict as assert } from 'node:assert';
import type { DocumentHighlight, LinkedEditingRanges, Position } from 'vscode-languageserver-protocol';
import { StdioSession } from '../helpers/stdio-session.js';

const KIND = { 1: 'text', 2: 'read', 3: 'write' } as const;

describe('lsp document highlights (stdio)', function () {
  this.timeout(60000);
  let s: StdioSession;
  before(async () => {
    s = await StdioSession.start(['lsp', 'features'], { settings: { ssr: true } });
    for (const f of ['shop/cart.kit', 'shop/list.kit', 'shop/price.cmp.kit']) await s.open(f);
  });
  after(() => s.stop());

  /** `text@line:kind` of each highlight, in document order. */
  async function highlights(file: string, at: Position): Promise<string[]> {
    const hs =
      (await s.request<DocumentHighlight[] | null>('textDocument/documentHighlight', {
        textDocument: { uri: s.uri(file) },
        position: at,
      })) ?? [];
    return hs
      .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character)
      .map((h) => `${s.textOf(file, h.range)}@${h.range.start.line + 1}:${KIND[(h.kind ?? 1) as 1 | 2 | 3]}`);
  }

  it('an action symbol: its declaration (write) and its g:post forms (read)', async () => {
    const expected = ['Checkout@11:write', 'Checkout@29:read', 'Checkout@30:read'];
    assert.deepEqual(await highlights('shop/cart.kit', s.at('shop/cart.kit', 'Checkout}', 3)), expected);
    assert.deepEqual(await highlights('shop/cart.kit', s.at('shop/cart.kit', 'act Checkout', 5)), expected);
  });

  it('a g:for variable: its loop only, with the collection of an inner loop of the same name read outside it', async () => {
    // The outer `item`: declared by the outer loop, read by {item.title} and by the inner loop's collection.
    assert.deepEqual(await highlights('shop/cart.kit', s.at('shop/cart.kit', 'item.title', 1)), [
      'item@22:write',
      'item@23:read',
      'item@24:read',
    ]);
    // The inner `item` hides the outer one inside its element.
    assert.deepEqual(await highlights('shop/cart.kit', s.at('shop/cart.kit', '{item}', 2)), [
      'item@24:write',
      'item@24:read',
    ]);
  });

  it('server {} fields: the field (write) and every read of its first name', async () => {
    assert.deepEqual(await highlights('shop/cart.kit', s.at('shop/cart.kit', 'user.name}', 2)), [
      'user@8:write',
      'user@20:read',
    ]);
    assert.deepEqual(await highlights('shop/cart.kit', s.at('shop/cart.kit', 'items, user', 1)), [
      'items@8:write',
      'items@22:read',
      'items@23:read',
    ]);
  });

  it('route params: the pattern and paths {} fields (write), param("…") and names reading them (read)', async () => {
    const slug = ['slug@4:write', 'slug@10:write', 'slug@11:write', 'slug@16:read', 'slug@17:read', 'slug@17:read'];
    assert.deepEqual(await highlights('shop/list.kit', s.at('shop/list.kit', '{slug}"', 2)), slug);
    assert.deepEqual(await highlights('shop/list.kit', s.at('shop/list.kit', 'slug\\"', 1)), slug);
    assert.deepEqual(await highlights('shop/list.kit', s.at('shop/list.kit', 'slug: "hats"', 1)), slug);
    // A page rendered per request reads its params with param() only; an endpoint's own params are its own.
    assert.deepEqual(await highlights('shop/cart.kit', s.at('shop/cart.kit', 'param("id")', 8)), [
      'id@4:write',
      'id@27:read',
    ]);
    assert.deepEqual(await highlights('shop/cart.kit', s.at('shop/cart.kit', '{id:int}/checkout', 2)), ['id@11:write']);
    assert.deepEqual(await highlights('shop/cart.kit', s.at('shop/cart.kit', 'param(\\"row', 9)), [
      'row@14:write',
      'row@15:read',
    ]);
  });

  it('component props in the component; component calls and declarations', async () => {
    assert.deepEqual(await highlights('shop/price.cmp.kit', s.at('shop/price.cmp.kit', '{amount}', 2)), [
      'amount@6:write',
      'amount@12:read',
    ]);
    assert.deepEqual(await highlights('shop/price.cmp.kit', s.at('shop/price.cmp.kit', 'Price', 2)), ['Price@3:write']);
    // An aliased component: the local name of every opening and closing tag.
    assert.deepEqual(await highlights('shop/list.kit', s.at('shop/list.kit', 'Badge', 1)), [
      'Badge@19:read',
      'Badge@20:read',
      'Badge@20:read',
    ]);
  });

  it('an element: its opening and closing tag names; a guard: its word', async () => {
    assert.deepEqual(await highlights('shop/list.kit', s.at('shop/list.kit', '<section', 3)), [
      'section@15:text',
      'section@21:text',
    ]);
    assert.deepEqual(await highlights('shop/list.kit', s.at('shop/list.kit', '</div></div>', 4)), [
      'div@18:text',
      'div@18:text',
    ]);
    assert.deepEqual(await highlights('shop/cart.kit', s.at('shop/cart.kit', 'role:editor', 2)), [
      'role:editor@5:text',
    ]);
    assert.deepEqual(await highlights('shop/cart.kit', s.at('shop/cart.kit', 'Cart {', 1)), []);
  });

  it('follows edits: a third form posting the action is highlighted too', async () => {
    const file = 'shop/cart.kit';
    const text = s.text(file).replace('  </main>', '    <form g:post={Checkout}></form>\n  </main>');
    await s.replace(file, text, 2);
    assert.deepEqual(await highlights(file, s.at(file, 'act Checkout', 5)), [
      'Checkout@11:write',
      'Checkout@29:read',
      'Checkout@30:read',
      'Checkout@31:read',
    ]);
  });
});

describe('lsp linked editing of tag pairs (stdio)', function () {
  this.timeout(60000);
  let s: StdioSession;
  before(async () => {
    s = await StdioSession.start(['lsp', 'features'], { settings: { ssr: true } });
    await s.open('shop/list.kit');
  });
  after(() => s.stop());

  const linked = (at: Position) =>
    s.request<LinkedEditingRanges | null>('textDocument/linkedEditingRange', {
      textDocument: { uri: s.uri('shop/list.kit') },
      position: at,
    });

  it('links an opening tag name with its closing one, from either side', async () => {
    const file = 'shop/list.kit';
    for (const at of [s.at(file, '<section', 1), s.at(file, '<section', 8), s.at(file, '</section', 4)]) {
      const r = await linked(at);
      assert.ok(r, JSON.stringify(at));
      assert.deepEqual(
        r.ranges.map((x) => s.place(file, x)),
        [`${file}:15:4`, `${file}:21:5`],
      );
      assert.deepEqual(
        r.ranges.map((x) => s.textOf(file, x)),
        ['section', 'section'],
      );
      const word = new RegExp(`^(?:${r.wordPattern})$`);
      for (const name of ['section', 'ui.Badge', 'my-element', 'h2']) assert.match(name, word);
      for (const name of ['', '1x', 'a b', 'a>b']) assert.doesNotMatch(name, word);
    }
  });

  it('picks the innermost pair of nested elements of the same name, and an aliased component pair', async () => {
    const file = 'shop/list.kit';
    const inner = await linked(s.at(file, '</div></div>', 3));
    assert.deepEqual(
      inner?.ranges.map((x) => x.start.character),
      [s.at(file, '<div><span', 1).character, s.at(file, '</div></div>', 2).character],
    );
    const badge = await linked(s.at(file, '</ui.Badge', 5));
    assert.deepEqual(
      badge?.ranges.map((x) => s.textOf(file, x)),
      ['ui.Badge', 'ui.Badge'],
    );
  });

  it('answers nothing for a self-closing tag, text, attributes or outside markup', async () => {
    const file = 'shop/list.kit';
    for (const at of [
      s.at(file, '<ui.Badge text="new"', 3),
      s.at(file, 'Deep', 1),
      s.at(file, 'data-slug', 2),
      s.at(file, 'route', 1),
    ])
      assert.equal(await linked(at), null, JSON.stringify(at));
  });

  it('follows edits: a renamed pair is linked under its new name', async () => {
    const file = 'shop/list.kit';
    await s.replace(file, s.text(file).replaceAll('section>', 'article>'), 2);
    const r = await linked(s.at(file, '</article', 3));
    assert.deepEqual(
      r?.ranges.map((x) => s.textOf(file, x)),
      ['article', 'article'],
    );
  });
});
