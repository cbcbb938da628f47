import { strict as assert } from 'node:assert';
import { fixture } from '#test/helpers/repo.js';
import { foldsOf, symbolsOf, tokensOf, workspaceSymbolsFor } from '../helpers/features.js';

const base = fixture('lsp', 'site');

describe('lsp document symbols', () => {
  it('outlines a page: route, guards, endpoints and view under the page', () => {
    const [root] = symbolsOf('contact.kit', {}, { base });
    assert.equal(root.name, 'page contact');
    assert.equal(root.detail, '/contact (spa)');
    assert.deepEqual(
      root.children!.map((c) => c.name),
      ['contact', '/contact', 'auth.required, role:editor', 'main', 'Send', 'Ping', 'view'],
    );
    assert.equal(root.children!.find((c) => c.name === 'Send')!.detail, 'act POST /contact/send');
  });

  it('lists component calls inside a view and props of a component', () => {
    const [home] = symbolsOf('home.kit', {}, { base });
    assert.deepEqual(
      home.children!.find((c) => c.name === 'view')!.children!.map((c) => c.name),
      ['<Card>', '<ui.Button>'],
    );
    const [card] = symbolsOf('card.cmp.kit', {}, { base });
    assert.equal(card.name, 'component Card');
    assert.deepEqual(
      card.children!.find((c) => c.name === 'props')!.children!.map((c) => `${c.name} ${c.detail}`),
      ['heading string', 'compact bool'],
    );
  });
});

describe('lsp workspace symbols', () => {
  it('finds every route under a typed path', () => {
    const names = workspaceSymbolsFor('/blog', {}, { base }).map((s) => s.name);
    assert.deepEqual(names, ['GET /blog/{slug}/{page:int}']);
    assert.deepEqual(
      workspaceSymbolsFor('/', {}, { base })
        .map((s) => s.name)
        .sort(),
      [
        'GET /',
        'GET /api/ping',
        'GET /blog/{slug}/{page:int}',
        'GET /contact',
        'GET /docs/{path...}',
        'POST /contact/send',
      ],
    );
  });

  it('finds pages, components and handlers by name', () => {
    const names = workspaceSymbolsFor('card', {}, { base }).map((s) => s.name);
    assert.ok(names.includes('Card'));
    assert.ok(workspaceSymbolsFor('Ping', {}, { base }).some((s) => s.name === 'GET /api/ping'));
  });
});

describe('lsp folding ranges', () => {
  it('folds blocks (keeping the closing brace visible) and multi-line elements', () => {
    const folds = foldsOf('contact.kit', {}, { base }).map((f) => `${f.startLine}-${f.endLine}`);
    assert.deepEqual(folds, ['10-15', '11-13']);
    const card = foldsOf('card.cmp.kit', {}, { base }).map((f) => `${f.startLine}-${f.endLine}`);
    assert.deepEqual(card, ['4-6', '9-13', '10-12']);
  });

  it('folds runs of comment lines', () => {
    const folds = foldsOf('x.kit', { 'x.kit': '// one\n// two\n// three\npackage site\n' });
    assert.deepEqual(folds, [{ startLine: 0, endLine: 2, kind: 'comment' }]);
  });
});

describe('lsp semantic tokens', () => {
  it('marks keywords, route params and their types, guards and layouts', () => {
    const t = tokensOf('blog/post.kit', {}, { base });
    assert.deepEqual(t.slice(0, 10), [
      'keyword:package',
      'keyword:page',
      'namespace:blog.post+decl',
      'keyword:route',
      'parameter:slug',
      'parameter:page',
      'type:int',
      'keyword:guard',
      'decorator:public',
      'keyword:layout',
    ]);
  });

  it('marks methods, handler symbols, g:post references and component tags', () => {
    const contact = tokensOf('contact.kit', {}, { base });
    for (const t of [
      'function:Send+decl',
      'enumMember:POST',
      'enumMember:GET',
      'function:Send',
      'decorator:role:editor',
    ])
      assert.ok(contact.includes(t), t);
    const home = tokensOf('home.kit', {}, { base });
    assert.deepEqual(
      home.filter((t) => t.startsWith('class:')),
      ['class:Card', 'class:Card', 'class:ui.Button'],
    );
  });
});
