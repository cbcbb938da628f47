import { strict as assert } from 'node:assert';
import { fixture } from '#test/helpers/repo.js';
import { hoverAt } from '../helpers/features.js';

const base = fixture('lsp', 'site');
const read = (name: string) => import('node:fs').then((fs) => fs.readFileSync(fixture('lsp', 'site', name), 'utf8'));

/** A fixture file with the marker inserted before the first occurrence of `before` (+ `shift` characters). */
async function marked(name: string, before: string, shift = 0): Promise<string> {
  const text = await read(name);
  const at = text.indexOf(before);
  assert.ok(at >= 0, `${before} not in ${name}`);
  return text.slice(0, at + shift) + '<|>' + text.slice(at + shift);
}

describe('lsp hover', () => {
  it('shows the page row of a route param with its type, render mode, guards and cache', async () => {
    const { markdown, hover } = hoverAt({ 'blog/post.kit': await marked('blog/post.kit', 'page:int', 1) }, { base });
    assert.match(markdown, /\*\*GET\*\* `\/blog\/\{slug\}\/\{page:int\}` — page `blog\.post`/);
    assert.match(markdown, /\*\*`page`: int\*\*/, 'the hovered param is emphasised with its type');
    assert.match(markdown, /`slug`: string/);
    assert.match(markdown, /\| Render \| spa \|/);
    assert.match(markdown, /\| Guards \| `public` \|/);
    assert.equal(hover!.range!.start.line, 3);
  });

  it('shows the effective cache policy with stale-while-revalidate', async () => {
    const { markdown } = hoverAt({ 'home.kit': await marked('home.kit', '"/"', 1) }, { base });
    assert.match(markdown, /`public, max-age=300, stale-while-revalidate=3600`/);
    assert.match(markdown, /\| Layouts \| `main` \|/);
  });

  it('shows an action with inherited guards, CSRF and its bound handler signature', async () => {
    const { markdown } = hoverAt({ 'contact.kit': await marked('contact.kit', 'Send POST', 2) }, { base });
    assert.match(markdown, /\*\*POST\*\* `\/contact\/send` — action `Send` of page `contact`/);
    assert.match(markdown, /`auth\.required`, `role:editor` \(inherited from page `contact`\)/);
    assert.match(markdown, /\| CSRF \| yes/);
    assert.match(markdown, /\| Cache \| `no-store` \|/);
    assert.match(markdown, /bound in `\.\/handlers\.js`: `Send\(ctx: unknown, input: SendInput\): Promise<Response>`/);
  });

  it('shows a GET API without CSRF', async () => {
    const { markdown } = hoverAt({ 'contact.kit': await marked('contact.kit', 'GET "/api/ping"', 1) }, { base });
    assert.match(markdown, /\*\*GET\*\* `\/api\/ping` — api `Ping`/);
    assert.match(markdown, /\| CSRF \| no \(GET\)/);
  });

  it('resolves g:post to the action it posts to', async () => {
    const { markdown } = hoverAt({ 'contact.kit': await marked('contact.kit', 'Send}', 1) }, { base });
    assert.match(markdown, /action `Send`/);
  });

  it('marks a missing handler and where its stub belongs', async () => {
    const text = (await read('contact.kit')).replace(
      'act Send POST "/contact/send"',
      'act Send POST "/contact/send"\nact Arch<|>ive POST "/contact/archive"',
    );
    const { markdown } = hoverAt({ 'contact.kit': text }, { base });
    assert.match(markdown, /`Archive` — missing \(create it in `handlers\.ts`\)/);
  });

  it('explains guard IDs', async () => {
    const { markdown } = hoverAt({ 'contact.kit': await marked('contact.kit', 'role:editor', 2) }, { base });
    assert.match(markdown, /\*\*guard\*\* `role:editor` — role guard/);
  });

  it('shows a component with its props', async () => {
    const { markdown } = hoverAt({ 'home.kit': await marked('home.kit', 'Card heading', 1) }, { base });
    assert.match(markdown, /\*\*component\*\* `Card` \(package `site`\) — `card\.cmp\.kit`/);
    assert.match(markdown, /\| `heading` \| string \(required\) \|/);
    assert.match(markdown, /\| `compact` \| bool = `false` \|/);
  });

  it('shows a layout reference', async () => {
    const { markdown } = hoverAt({ 'home.kit': await marked('home.kit', 'main', 1) }, { base });
    assert.match(markdown, /\*\*layout\*\* `main` — `main\.layout\.kit`/);
  });

  it('shows the param() type and the load function of a server page', async () => {
    const p = hoverAt({ 'blog/post.kit': await marked('blog/post.kit', 'param(', 2) }, { base });
    assert.match(p.markdown, /\*\*param\*\* `page`: int/);
    const s = hoverAt({ 'docs/docs.kit': await marked('docs/docs.kit', 'server {', 1) }, { base, ssr: true });
    assert.match(s.markdown, /`LoadDocs` — bound in `\.\/handlers\.js`/);
    const r = hoverAt({ 'docs/docs.kit': await marked('docs/docs.kit', 'path...', 1) }, { base, ssr: true });
    assert.match(r.markdown, /\*\*`path`: string \(rest\)\*\*/);
    assert.match(r.markdown, /\| Render \| ssr \|/);
  });

  it('shows a g:command contract with its route, CSRF and binding', () => {
    const notes =
      'package notes\n\npage notes\nroute "/notes"\nguard public\n\nview {\n  <form g:command="Sa<|>ve" action="/notes/save"><button>Save</button></form>\n  <p g:query="Count">n</p>\n}\n';
    const handlers =
      'export interface NoteInput { text: string }\nexport async function Save(ctx: unknown, input: NoteInput): Promise<Response> { void ctx; return new Response(input.text); }\n';
    const { markdown } = hoverAt({ 'notes/notes.kit': notes, 'notes/handlers.ts': handlers }, { base });
    assert.match(markdown, /\*\*POST\*\* `\/notes\/save` — g:command `Save` of page `notes`/);
    assert.match(markdown, /\| CSRF \| yes/);
    assert.match(markdown, /`contracts\.command\.notes\.Save` → `Save` — bound in `\.\/handlers\.js`/);
    const q = hoverAt(
      { 'notes/notes.kit': notes.replace('<|>', '').replace('Count', 'Co<|>unt'), 'notes/handlers.ts': handlers },
      { base },
    );
    assert.match(q.markdown, /\*\*GET\*\* `\/notes` — g:query `Count`/);
    assert.match(q.markdown, /`Count` — missing/);
  });

  it('answers null away from anything it knows and for unknown files', async () => {
    assert.equal(hoverAt({ 'home.kit': await marked('home.kit', 'Welcome', 2) }, { base }).hover, null);
    assert.equal(hoverAt({ 'x.kit': null, 'other.kit': 'package site\n<|>' }, {}).hover, null);
  });
});
