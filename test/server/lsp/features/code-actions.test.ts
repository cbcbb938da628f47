import { strict as assert } from 'node:assert';
import { fixture } from '#test/helpers/repo.js';
import { codeActionsAt, setup } from '../helpers/features.js';

const base = fixture('lsp', 'site');

function codes(files: Record<string, string>, path: string): string[] {
  const s = setup(files, { base });
  return s.ws.diagnosticsFor(path).map((d) => d.code);
}

describe('lsp code actions', () => {
  it('adds guard public to a guardless page, which clears missing_page_guard', () => {
    const src = 'package site\n\npage <|>t\nroute "/t"\n\nview {\n  <p>x</p>\n}\n';
    const r = codeActionsAt({ 't.kit': src }, { base });
    const out = r.apply('Add `guard public`').get('t.kit')!;
    assert.equal(out, 'package site\n\npage t\nroute "/t"\nguard public\n\nview {\n  <p>x</p>\n}\n');
    assert.ok(!codes({ 't.kit': out }, 't.kit').includes('missing_page_guard'));
  });

  it('removes a trailing slash', () => {
    const r = codeActionsAt(
      { 't.kit': 'package site\n\npage t\nroute "/t/x/<|>"\nguard public\n\nview {\n  <p>x</p>\n}\n' },
      { base },
    );
    assert.match(r.apply('Remove the trailing slash').get('t.kit')!, /route "\/t\/x"\n/);
  });

  it('adds a paths {} skeleton or server {} to a dynamic SPA page', () => {
    const src = 'package site\n\npage t\nroute "/t/{<|>id}/{n:int}"\nguard public\n\nview {\n  <p>x</p>\n}\n';
    const r = codeActionsAt({ 't.kit': src }, { base });
    const paths = r.apply('Add a `paths {}` block').get('t.kit')!;
    assert.match(paths, /paths \{\n {2}=> \{ id: "", n: "" \}\n\}\n\nview \{/);
    assert.ok(!codes({ 't.kit': paths }, 't.kit').includes('spa_dynamic_route_missing_paths'));
    const server = r.apply('Render at request time with `server {}`').get('t.kit')!;
    assert.match(server, /server \{\n\}\n\nview \{/);
    assert.ok(!codes({ 't.kit': server }, 't.kit').includes('spa_dynamic_route_missing_paths'));
  });

  it('renders a guarded SPA page at request time (render ssr or server {}), which clears the error', () => {
    const src = 'package site\n\npage t\nroute "/t"\nguard <|>auth.required\n\nview {\n  <p>x</p>\n}\n';
    const r = codeActionsAt({ 't.kit': src }, { base });
    const render = r.apply('Render at request time: add `render ssr`').get('t.kit')!;
    assert.equal(render, src.replace('<|>', '').replace('auth.required\n', 'auth.required\nrender ssr\n'));
    assert.ok(!codes({ 't.kit': render }, 't.kit').includes('guard_requires_request_render'));
    const server = r.apply('Render at request time: add `server {}`').get('t.kit')!;
    assert.match(server, /server \{\n\}\n\nview \{/);
    assert.ok(!codes({ 't.kit': server }, 't.kit').includes('guard_requires_request_render'));
    const explicit = codeActionsAt({ 't.kit': src.replace('guard <|>', 'render spa\nguard <|>') }, { base });
    const changed = explicit.apply('Render at request time: `render ssr`').get('t.kit')!;
    assert.match(changed, /^render ssr\nguard auth\.required$/m);
    assert.ok(!codes({ 't.kit': changed }, 't.kit').includes('guard_requires_request_render'));
  });

  it('creates a missing handler stub with a supported signature in the sibling module', () => {
    const src =
      'package site\n\npage contact\nroute "/contact"\nguard public\n\nact Send POST "/contact/send"\napi Arc<|>hive DELETE "/contact/archive"\n\nview {\n  <p>x</p>\n}\n';
    const r = codeActionsAt({ 'contact.kit': src }, { base });
    const out = r.apply('Create Archive in handlers.ts');
    const ts = out.get('handlers.ts')!;
    assert.match(ts, /\n\nexport async function Archive\(ctx: unknown, request: Request\): Promise<Response> \{/);
    // The stub binds: the new module gives a bound handler.
    const after = setup({ 'contact.kit': src.replace('<|>', ''), 'handlers.ts': ts }, { base });
    const b = after.ws.bindingFor('contact.kit')!.handlers.find((h) => h.name === 'Archive')!;
    assert.equal(b.status, 'bound');
    assert.equal(b.signature, 'api');
  });

  it('creates the module when the directory has none', () => {
    const src =
      'package site\n\npage notes\nroute "/notes"\nguard public\n\nact Sa<|>ve POST "/notes/save"\n\nview {\n  <p>x</p>\n}\n';
    const r = codeActionsAt({ 'notes/notes.kit': src }, { base });
    const out = r.apply('Create Save in handlers.ts');
    assert.match(out.get('notes/handlers.ts')!, /^export async function Save\(ctx: unknown\): Promise<Response> \{/);
    assert.deepEqual(codeActionsAt({ 'notes/notes.kit': src }, { base, canCreateFiles: false }).titles, []);
  });

  it('splits an optional param of an API into explicit routes', () => {
    const src =
      'package site\n\npage t\nroute "/t"\nguard public\n\napi List GET "/items/{id<|>?}"\n\nview {\n  <p>x</p>\n}\n';
    const r = codeActionsAt({ 't.kit': src }, { base });
    const out = r.apply('Split into explicit routes /items and /items/{id}').get('t.kit')!;
    assert.match(out, /api List GET "\/items"\napi List GET "\/items\/\{id\}"\n/);
    assert.ok(!codes({ 't.kit': out }, 't.kit').includes('malformed_route'));
  });

  it('splits an optional param of a page route into two pages', () => {
    const src =
      'package site\n\npage list\nroute "/list/{page<|>?}"\nguard public\napi Rows GET "/list/rows"\n\nview {\n  <p>x</p>\n}\n';
    const r = codeActionsAt({ 'list.kit': src }, { base });
    assert.deepEqual(r.titles.slice(0, 3), [
      'Split into explicit routes: /list here, /list/{page} in list-page.kit',
      'Use /list (drop the optional segment)',
      'Use /list/{page} (make {page} required)',
    ]);
    const out = r.apply('Split into explicit routes: /list here, /list/{page} in list-page.kit');
    assert.match(out.get('list.kit')!, /route "\/list"\n/);
    const created = out.get('list-page.kit')!;
    assert.match(created, /page list-page\nroute "\/list\/\{page\}"\nguard public\n\nview/);
    assert.ok(!created.includes('api Rows'), 'endpoints stay with the original page');
  });
});
