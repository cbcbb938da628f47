import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { fixture } from '#test/helpers/repo.js';
import { definitionAt, referencesAt, renameAt } from '../helpers/features.js';
import { RenameError } from '#lsp/features/navigation.js';

const base = fixture('lsp', 'site');
function marked(name: string, before: string, shift = 1, dir = base): string {
  const text = readFileSync(`${dir}/${name}`, 'utf8');
  const at = text.indexOf(before);
  assert.ok(at >= 0, `${before} not in ${name}`);
  return text.slice(0, at + shift) + '<|>' + text.slice(at + shift);
}

describe('lsp definition', () => {
  it('goes from an endpoint symbol to the exported TypeScript function', () => {
    const d = definitionAt({ 'contact.kit': marked('contact.kit', 'Send POST') }, { base });
    assert.deepEqual(d.files, ['handlers.ts']);
    assert.deepEqual(d.texts, ['Send']);
  });

  it('goes from g:post={X} to the act line', () => {
    const d = definitionAt({ 'contact.kit': marked('contact.kit', 'Send}') }, { base });
    assert.deepEqual(d.texts, ['act Send POST "/contact/send"']);
  });

  it('goes from a component call to the component, also through a use alias', () => {
    assert.deepEqual(definitionAt({ 'home.kit': marked('home.kit', 'Card heading') }, { base }).files, [
      'card.cmp.kit',
    ]);
    const ui = definitionAt({ 'home.kit': marked('home.kit', 'Button', 2) }, { base });
    assert.deepEqual(ui.files, ['ui/button.cmp.kit']);
    assert.deepEqual(ui.texts, ['Button']);
  });

  it('goes from a layout name to the layout file', () => {
    assert.deepEqual(definitionAt({ 'home.kit': marked('home.kit', 'main') }, { base }).files, ['main.layout.kit']);
  });

  it('goes from server {} to Load<PageID>', () => {
    const d = definitionAt({ 'docs/docs.kit': marked('docs/docs.kit', 'server') }, { base });
    assert.deepEqual(d.files, ['docs/handlers.ts']);
    assert.deepEqual(d.texts, ['LoadDocs']);
  });

  it('goes from a conflicting route to its first declaration', () => {
    const dir = fixture('lsp', 'conflicts');
    const d = definitionAt({ 'b.kit': marked('b.kit', '/blog/{id}', 2, dir) }, { base: dir });
    assert.deepEqual(d.files, ['a.kit']);
    assert.match(d.texts[0], /^route "\/blog\/\{slug\}"/);
  });
});

describe('lsp references', () => {
  it('finds every call of a component across files, with its declaration', () => {
    const r = referencesAt({ 'card.cmp.kit': marked('card.cmp.kit', 'Card') }, { base });
    assert.deepEqual(r.places, ['card.cmp.kit:3:11', 'home.kit:16:6', 'home.kit:18:7']);
    assert.ok(r.texts.every((t) => t === 'Card'));
  });

  it('finds the pages using a layout', () => {
    const r = referencesAt({ 'home.kit': marked('home.kit', 'main') }, { base, includeDeclaration: false });
    assert.deepEqual(r.places, ['blog/post.kit:6:8', 'contact.kit:6:8', 'home.kit:6:8']);
  });

  it('finds an endpoint symbol in its declaration, its g:post forms and its TypeScript export', () => {
    const r = referencesAt({ 'contact.kit': marked('contact.kit', 'Send POST') }, { base });
    assert.deepEqual(r.places, ['contact.kit:12:17', 'contact.kit:8:5', 'handlers.ts:6:23']);
  });

  it('finds a page ID and its load function', () => {
    const r = referencesAt({ 'docs/docs.kit': marked('docs/docs.kit', 'docs\nroute', 1) }, { base });
    assert.deepEqual(r.places, ['docs/docs.kit:3:6', 'docs/handlers.ts:2:23']);
  });
});

describe('lsp rename', () => {
  it('renames a component: declaration and every opening and closing tag', () => {
    const r = renameAt({ 'home.kit': marked('home.kit', 'Card heading') }, 'Panel', { base });
    assert.equal(r.prepared?.placeholder, 'Card');
    assert.match(r.result.get('card.cmp.kit')!, /^component Panel$/m);
    assert.match(r.result.get('home.kit')!, /<Panel heading="Latest">[^]*<\/Panel>/);
    assert.ok(!r.result.get('home.kit')!.includes('Card'));
  });

  it('renames only the local part of an aliased component', () => {
    const r = renameAt({ 'home.kit': marked('home.kit', 'Button', 2) }, 'Knob', { base });
    assert.match(r.result.get('home.kit')!, /<ui\.Knob label="Go" \/>/);
    assert.match(r.result.get('ui/button.cmp.kit')!, /^component Knob$/m);
  });

  it('renames an endpoint symbol, its g:post references and the TypeScript export', () => {
    const r = renameAt({ 'contact.kit': marked('contact.kit', 'Send}') }, 'Deliver', { base });
    assert.match(r.result.get('contact.kit')!, /act Deliver POST/);
    assert.match(r.result.get('contact.kit')!, /g:post=\{Deliver\}/);
    assert.match(r.result.get('handlers.ts')!, /export async function Deliver\(ctx: unknown, input: SendInput\)/);
  });

  it('refuses names that would not bind and places that cannot be renamed', () => {
    assert.throws(
      () => renameAt({ 'contact.kit': marked('contact.kit', 'Send POST') }, 'deliver', { base }),
      RenameError,
    );
    assert.throws(() => renameAt({ 'home.kit': marked('home.kit', 'Card heading') }, 'my-card', { base }), RenameError);
    assert.throws(() => renameAt({ 'home.kit': marked('home.kit', '"/"') }, 'X', { base }), RenameError);
  });
});
