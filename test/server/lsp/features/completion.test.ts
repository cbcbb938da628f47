import { strict as assert } from 'node:assert';
import { fixture } from '#test/helpers/repo.js';
import { completionAt } from '../helpers/features.js';

const base = fixture('lsp', 'site');
const page = (body: string) => `package site\n\npage t\nroute "/t"\n${body}\n`;

describe('lsp completion', () => {
  it('offers declaration keywords valid at the cursor, without the ones already declared', () => {
    const { labels } = completionAt({ 't.kit': page('gu<|>') }, { base });
    for (const k of ['guard', 'act', 'api', 'view', 'paths', 'server', 'title', 'cache'])
      assert.ok(labels.includes(k), k);
    for (const k of ['route', 'page', 'package', 'component', 'props']) assert.ok(!labels.includes(k), k);
    const cmp = completionAt({ 'x.cmp.kit': 'package site\n\ncomponent X\n<|>\n' }, { base }).labels;
    assert.ok(cmp.includes('props') && !cmp.includes('route') && !cmp.includes('act'));
  });

  it('offers the guard IDs used in the workspace', () => {
    const { labels, items } = completionAt({ 't.kit': page('guard public, <|>') }, { base });
    assert.deepEqual(labels, ['auth.required', 'public', 'role:editor']);
    assert.equal(items[0].textEdit && 'range' in items[0].textEdit ? items[0].textEdit.range.start.character : -1, 14);
  });

  it('offers HTTP methods per endpoint kind', () => {
    assert.deepEqual(completionAt({ 't.kit': page('act Save <|>') }, { base }).labels, ['POST']);
    assert.deepEqual(completionAt({ 't.kit': page('api Data P<|>') }, { base }).labels, [
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
    ]);
  });

  it('offers the exported handlers of sibling modules after act/api, minus declared ones', () => {
    const { labels } = completionAt(
      { 'contact.kit': 'package site\n\npage contact\nroute "/contact"\nguard public\nact Send POST "/s"\napi <|>\n' },
      { base },
    );
    assert.deepEqual(labels, ['Extra', 'Ping']);
  });

  it('offers param types inside {name:', () => {
    assert.deepEqual(completionAt({ 't.kit': 'package site\n\nroute "/t/{id:<|>"\n' }, { base }).labels, [
      'string',
      'int',
      'int64',
      'uint',
      'uint64',
      'bool',
      'float64',
    ]);
  });

  it('offers layout IDs and render modes', () => {
    assert.deepEqual(completionAt({ 't.kit': page('layout <|>') }, { base }).labels, ['main']);
    assert.deepEqual(completionAt({ 't.kit': page('render s<|>') }, { base }).labels, ['spa', 'ssr', 'hybrid']);
  });

  it('offers components with their alias, g: directives and action names inside views', () => {
    const view = (line: string) =>
      `package site\n\nuse ui "ui"\npage t\nroute "/t"\nact Save POST "/t/save"\n\nview {\n  ${line}\n}\n`;
    assert.deepEqual(completionAt({ 't.kit': view('<C<|>') }, { base }).labels, [
      'Card',
      'Nav',
      'slot',
      'template',
      'ui.Button',
    ]);
    const attrs = completionAt({ 't.kit': view('<form g:<|>') }, { base }).labels;
    for (const d of ['g:post', 'g:target', 'g:swap', 'g:if', 'g:for', 'g:lane', 'g:message:required'])
      assert.ok(attrs.includes(d), d);
    assert.deepEqual(completionAt({ 't.kit': view('<form g:post={<|>') }, { base }).labels, ['Save']);
    assert.deepEqual(completionAt({ 't.kit': view('<p>{param("<|>")}</p>') }, { base }).labels, []);
  });

  it('offers prop types inside props {}', () => {
    assert.deepEqual(
      completionAt({ 'x.cmp.kit': 'package site\n\ncomponent X\n\nprops {\n  title <|>\n}\n' }, { base }).labels,
      ['string', 'int', 'float', 'bool'],
    );
  });
});
