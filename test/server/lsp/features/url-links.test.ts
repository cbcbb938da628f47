// Document links kept across edits: each link text's target is remembered while the routes stay,
// and made again when a route is added, removed or renamed in another file, or when the link's own
// href changes; an edit above the links moves their ranges without answering them again.
import { strict as assert } from 'node:assert';
import type { DocumentLink } from 'vscode-languageserver';
import { documentLinks } from '#lsp/features/url-links.js';
import { setup, type Setup } from '../helpers/features.js';

function page(id: string, route: string, view = '<main></main>'): string {
  return `package site\n\npage ${id}\nroute "${route}"\nguard public\n\nview {\n  ${view}\n}\n`;
}

const LINKS = page('home', '/', '<main><a href="/docs/intro">Intro</a> <a href="/about">About</a></main>');

/** A home page linking to `/docs/intro` (a dynamic page answers it) and `/about`. */
function site(): Setup {
  return setup({
    'home.kit': LINKS,
    'docs/page.kit': page('docs.page', '/docs/{name}'),
    'about.kit': page('about', '/about'),
  });
}

/** The links of `home.kit`, as `line:character -> target file` lines. */
function links(s: Setup): string[] {
  const out = documentLinks(s.ctx, 'home.kit') ?? [];
  return out.map((l: DocumentLink) => `${l.range.start.line}:${l.range.start.character} -> ${l.target?.split('#')[0]}`);
}

function edit(s: Setup, path: string, text: string | null): void {
  if (text === null) s.ws.remove(path);
  else s.ws.editKitFile(path, text);
  s.ws.flush();
}

describe('lsp document links across edits', () => {
  it('moves the ranges of links whose text did not change, their targets kept', () => {
    const s = site();
    const before = links(s);
    assert.deepEqual(before, ['7:17 -> file:///ws/docs/page.kit', '7:49 -> file:///ws/about.kit']);
    edit(s, 'home.kit', LINKS.replace('view {\n', 'view {\n\n'));
    assert.deepEqual(links(s), ['8:17 -> file:///ws/docs/page.kit', '8:49 -> file:///ws/about.kit']);
  });

  it('follows a route added, renamed and removed in another file', () => {
    const s = site();
    assert.equal(links(s)[0], '7:17 -> file:///ws/docs/page.kit');
    // A static route ranks before the dynamic one: the link now leads to it.
    s.ws.setKitFile('docs/intro.kit', page('docs.intro', '/docs/intro'));
    s.ws.flush();
    assert.equal(links(s)[0], '7:17 -> file:///ws/docs/intro.kit');
    // Renamed away: back to the dynamic page.
    edit(s, 'docs/intro.kit', page('docs.intro', '/guide/intro'));
    assert.equal(links(s)[0], '7:17 -> file:///ws/docs/page.kit');
    // The page answering `/about` removed: its link leads nowhere.
    edit(s, 'about.kit', null);
    assert.deepEqual(links(s), ['7:17 -> file:///ws/docs/page.kit']);
  });

  it('answers a link again when its href changes', () => {
    const s = site();
    assert.equal(links(s).length, 2);
    edit(s, 'home.kit', LINKS.replace('href="/about"', 'href="/docs/about"'));
    assert.deepEqual(links(s), ['7:17 -> file:///ws/docs/page.kit', '7:49 -> file:///ws/docs/page.kit']);
    edit(s, 'home.kit', LINKS.replace('href="/about"', 'href="/nowhere"'));
    assert.deepEqual(links(s), ['7:17 -> file:///ws/docs/page.kit']);
  });

  it('follows the target file when it moves its route declaration', () => {
    const s = site();
    const target = () => documentLinks(s.ctx, 'home.kit')![1].target;
    assert.equal(target(), 'file:///ws/about.kit#L4,1');
    edit(s, 'about.kit', `\n\n${page('about', '/about')}`);
    assert.equal(target(), 'file:///ws/about.kit#L6,1');
  });
});
