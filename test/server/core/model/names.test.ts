// Naming conventions: page IDs from file names, `Load<PageID>`, report labels.
import { strict as assert } from 'node:assert';
import {
  exportedIdentifier,
  exportedRouteName,
  isExportedSymbol,
  layoutIdFromPath,
  loadFunctionName,
  ownerIdFromPath,
  pageIdFromPath,
  PAGE_ID_PATTERN,
} from '#core/model/names.js';

describe('core/model/names', () => {
  it('derives page IDs from file names', () => {
    const table: [string, string][] = [
      ['site/about.kit', 'about'],
      ['site/blog-post.page.kit', 'blog-post'],
      ['blog-post.kit', 'blog-post'],
      ['a\\b\\win.page.kit', 'win'],
      ['site/404.kit', '404'],
      ['site/x.layout.kit', 'x.layout'],
    ];
    for (const [path, id] of table) assert.equal(pageIdFromPath(path), id, path);
  });

  it('derives layout and component IDs by file kind', () => {
    assert.equal(layoutIdFromPath('site/root.layout.kit'), 'root');
    assert.equal(ownerIdFromPath('site/root.layout.kit', 'layout'), 'root');
    assert.equal(ownerIdFromPath('site/Card.cmp.kit', 'component'), 'Card');
    assert.equal(
      ownerIdFromPath('site/widget.kit', 'component'),
      'widget',
      'a page-named file that declares component',
    );
    assert.equal(ownerIdFromPath('site/home.page.kit', 'page'), 'home');
  });

  it('names load functions Load<PageID> (separators start a capital, _ is kept, digits get P)', () => {
    const table: [string, string][] = [
      ['dashboard', 'LoadDashboard'],
      ['blog.post', 'LoadBlogPost'],
      ['blog-post', 'LoadBlogPost'],
      ['404', 'LoadP404'],
      ['my_page', 'LoadMy_page'],
      ['docs/intro guide', 'LoadDocsIntroGuide'],
      ['..', 'LoadPage'],
      ['', 'LoadPage'],
      ['élan', 'LoadLan'],
    ];
    for (const [id, name] of table) assert.equal(loadFunctionName(id), name, id);
    assert.equal(exportedIdentifier('a.b-c_d'), 'ABC_d');
  });

  it('names report handlers with every separator, _ included, starting a capital', () => {
    const table: [string, string][] = [
      ['blog.post', 'BlogPost'],
      ['my_page', 'MyPage'],
      ['/patients/{id}/vitals', 'PatientsIdVitals'],
      ['7up', 'P7up'],
      ['', 'Page'],
    ];
    for (const [id, name] of table) assert.equal(exportedRouteName(id), name, id);
  });

  it('accepts exported handler symbols only', () => {
    for (const ok of ['Save', 'S', 'Save_2', 'HTTPGet']) assert.equal(isExportedSymbol(ok), true, ok);
    for (const bad of ['save', '_Save', '2Save', 'Sa-ve', 'Save!', '', 'Ünder'])
      assert.equal(isExportedSymbol(bad), false, bad);
  });

  it('page IDs allow letters, digits, ".", "-" and "_"', () => {
    for (const ok of ['home', 'blog.post', 'blog-post', '404', '_draft', 'a.b-c_d'])
      assert.ok(PAGE_ID_PATTERN.test(ok), ok);
    for (const bad of ['', 'blog/post', '.hidden', '-x', 'a b', 'café']) assert.ok(!PAGE_ID_PATTERN.test(bad), bad);
  });
});
