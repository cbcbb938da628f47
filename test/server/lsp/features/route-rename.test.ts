// Route rename without change annotations (clients that do not declare them get plain `changes`),
// applied to the `lsp/urls` fixture's texts: the pattern and the links that follow it change, a
// static segment can be renamed alone, and what is not a pattern is refused with its reason.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { fixture } from '#test/helpers/repo.js';
import { renameAt } from '../helpers/features.js';
import { RenameError } from '#lsp/features/navigation.js';

const base = fixture('lsp', 'urls');
function marked(name: string, before: string, shift = 1): string {
  const text = readFileSync(`${base}/${name}`, 'utf8');
  const at = text.indexOf(before);
  assert.ok(at >= 0, `${before} not in ${name}`);
  return text.slice(0, at + shift) + '<|>' + text.slice(at + shift);
}

describe('lsp route rename (plain changes)', () => {
  it('renames a static segment and rewrites the links into the route in every file', () => {
    const r = renameAt({ 'users/user.kit': marked('users/user.kit', '/users/{id:int}"', 2) }, 'people', { base });
    assert.equal(r.prepared?.placeholder, 'users');
    assert.equal(r.edit?.documentChanges, undefined);
    assert.deepEqual([...r.result.keys()].sort(), ['home.kit', 'users/user.kit']);
    assert.match(r.result.get('users/user.kit')!, /route "\/people\/\{id:int\}"/);
    assert.match(r.result.get('users/user.kit')!, /<a href="\/people\/7">Another user<\/a>/);
    assert.match(r.result.get('home.kit')!, /<a href="\/people\/42">A user<\/a>/);
    // The endpoint with a path of its own keeps it.
    assert.match(r.result.get('users/user.kit')!, /api Avatar GET "\/users\/\{id:int\}\/avatar"/);
  });

  it('renames an endpoint path with the links to it', () => {
    const r = renameAt({ 'blog/post.kit': marked('blog/post.kit', '/api/feed', 2) }, '/api/news', { base });
    assert.match(r.result.get('blog/post.kit')!, /api Feed GET "\/api\/news"/);
    assert.match(r.result.get('home.kit')!, /<a href="\/api\/news">Feed<\/a>/);
  });

  it('refuses a new name that is not a route', () => {
    assert.throws(
      () => renameAt({ 'about.kit': marked('about.kit', '"/about"', 0) }, 'about-us', { base }),
      (e: unknown) => e instanceof RenameError && /give the whole new pattern, starting with \//.test(e.message),
    );
    assert.throws(
      () => renameAt({ 'about.kit': marked('about.kit', '/about', 2) }, 'a b', { base }),
      (e: unknown) => e instanceof RenameError && /"\/a b" is not a valid route/.test(e.message),
    );
  });
});
