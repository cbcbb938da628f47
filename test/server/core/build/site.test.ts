import { strict as assert } from 'node:assert';
import { renderTemplate, type Template } from '#shared/render/index.js';
import { compileSite, KIT_JS_PATH, KIT_JS_TAG, type CompiledPage, type CompiledSite } from '#core/build/index.js';
import { loadProject } from '#core/project/load.js';
import { Workspace } from '#core/workspace/workspace.js';
import { repoRoot } from '#test/helpers/repo.js';
import { buildFixture, compileFixture, EXAMPLE_SITE } from './helpers.js';

function page(site: CompiledSite, id: string): CompiledPage {
  const p = site.pages.find((x) => x.pageId === id);
  assert.ok(p, `page ${id} compiled`);
  return p;
}

/** The rendered `<body>` of a page for one prerendered path (whitespace kept). */
function body(p: CompiledPage, params: Record<string, string> = {}, data: unknown = params): string {
  const html = renderTemplate(p.ir, data, params);
  return html.slice(html.indexOf('<body>') + 7, html.indexOf('\n</body>'));
}

function head(p: CompiledPage, params: Record<string, string> = {}): string {
  const html = renderTemplate(p.ir, params, params);
  return html.slice(0, html.indexOf('<body>'));
}

function hasOnlyStaticChunks(t: Template): boolean {
  return t.nodes.every((n) => typeof n === 'string');
}

describe('build: compileSite', () => {
  describe('layouts', () => {
    const site = compileFixture(buildFixture('layouts'));

    it('nests layouts outermost first, a parent before its child, each once', () => {
      assert.deepEqual(page(site, 'nested').layouts, ['outer', 'inner']);
      assert.deepEqual(page(site, 'both').layouts, ['outer', 'inner']);
      assert.equal(
        body(page(site, 'nested')),
        '<div class="outer kit-0a24ad3e"><aside>Contents</aside>\n<section class="inner"><p>Nested body</p></section></div>',
      );
    });

    it('takes the title from the page, then the innermost layout with one, then the page ID', () => {
      assert.match(head(page(site, 'both')), /<title>Both layouts<\/title>/);
      assert.match(head(page(site, 'nested')), /<title>Outer title<\/title>/);
      assert.match(head(page(site, 'bare')), /<title>bare<\/title>/);
    });

    it('links the layout CSS before the page CSS, scoped per owner', () => {
      const both = page(site, 'both');
      assert.equal(both.stylesheets.length, 2);
      assert.match(both.stylesheets[0], /^\/assets\/css\/layout-lay-outer\.[0-9a-f]{10}\.css$/);
      assert.match(both.stylesheets[1], /^\/assets\/css\/page-lay-both\.[0-9a-f]{10}\.css$/);
      const css = site.assets.find((a) => '/' + a.path === both.stylesheets[1]);
      assert.equal(css?.content, 'p.kit-4e51cc93 { margin: 0; }\n');
      assert.match(body(both), /<p class="kit-4e51cc93">Both body<\/p>/);
    });

    it('a page without internal links gets no script and compiles to one static chunk', () => {
      const bare = page(site, 'bare');
      assert.equal(bare.kitJs, false);
      assert.doesNotMatch(head(bare), /<script/);
      assert.ok(hasOnlyStaticChunks(bare.ir));
      assert.equal(
        site.assets.some((a) => a.path === KIT_JS_PATH),
        false,
      );
    });
  });

  describe('components', () => {
    const site = compileFixture(buildFixture('components'));
    const html = body(page(site, 'comp.home'));

    it('fills named and default slots, and falls back when a slot is not given', () => {
      assert.match(html, /<header class="kit-7c663461"><button type="button">Tool<\/button><\/header>/);
      assert.match(html, /<p>Body of the first<\/p>/);
      assert.match(html, /<header class="kit-7c663461"><span class="kit-7c663461">No tools<\/span><\/header>/);
      assert.match(html, /<p class="kit-7c663461">Empty panel<\/p>/);
    });

    it('passes typed props with defaults and folds prop conditions at build time', () => {
      assert.match(html, /data-level="2">[^]*First &amp; best/);
      assert.match(html, /data-level="3">[^]*<h2 class="small kit-7c663461">Second<\/h2>/);
      assert.equal((html.match(/<h2/g) ?? []).length, 3, 'one heading per panel: the g:if branches were folded');
      assert.ok(hasOnlyStaticChunks(page(site, 'comp.home').ir));
    });

    it('instantiates nested components with composed props and forwarded slots', () => {
      assert.match(
        html,
        /<div class="frame"><section class="panel kit-7c663461" data-level="2">[^]*<h2 class="small kit-7c663461">Framed: Inside<\/h2>[^]*<em>framed content<\/em>\n<\/section><\/div>/,
      );
    });

    it('resolves alias.Name across packages through use', () => {
      assert.match(html, /<a class="btn" href="\/go\/Go%20now">Go now<\/a>/);
    });

    it('links the CSS of the components a page uses', () => {
      assert.equal(page(site, 'comp.home').stylesheets.length, 1);
      assert.match(page(site, 'comp.home').stylesheets[0], /component-comp-Panel/);
    });
  });

  describe('scoped slots', () => {
    const site = compileFixture(buildFixture('scoped-slots'));
    const data = { people: [{ name: 'Ada' }, { name: 'Bob <b>' }] };
    const ir = JSON.parse(JSON.stringify(page(site, 'people').ir)) as Template; // what a generated app embeds
    const html = body({ ...page(site, 'people'), ir }, {}, data);

    it('gives slot content the values a <slot> inside a g:for passes, per iteration', () => {
      assert.match(html, /<ul>\n<li>0: <b>Ada<\/b><\/li><li>1: <b>Bob &lt;b&gt;<\/b><\/li>\n<\/ul>/);
    });

    it('passes props and literals (folded at build time) and binds the default slot through let: on the call', () => {
      assert.match(html, /<h2>People \(true\)<\/h2>/);
      assert.match(html, /<footer><p>Note: two<\/p><\/footer>/);
    });

    it('renders the fallback, in the component scope, when a scoped slot is not given', () => {
      assert.match(html, /<h2>Plain<\/h2>\n<ul>\n<li>Ada<\/li><li>Bob &lt;b&gt;<\/li>\n<\/ul>\n<footer><\/footer>/);
    });

    it('forwards a let-bound value into a slot of the calling component', () => {
      assert.match(html, /<h2>Wrapped<\/h2>\n<ul>\n<li><i>Ada<\/i><\/li><li><i>Bob &lt;b&gt;<\/i><\/li>/);
      assert.doesNotMatch(html, /let:/);
    });
  });

  describe('forms and g: directives', () => {
    const site = compileFixture(buildFixture('forms'));

    it('lowers g:post to method="post" and the action path, replacing method and action', () => {
      const html = body(page(site, 'forms.contact'));
      assert.match(html, /<form method="post" action="\/forms\/send"><button>Send<\/button><\/form>/);
      assert.match(html, /<form method="post" action="\/forms" data-kit-target="#out" data-kit-swap="outerHTML">/);
      assert.doesNotMatch(html, /ignored|method="get"/);
    });

    it('posts to the concrete page path on a dynamic page', () => {
      const item = page(site, 'forms.item');
      assert.deepEqual(
        item.prerender.map((p) => p.path),
        ['/items/one', '/items/two%20words'],
      );
      assert.equal(
        body(item, { id: 'two words' }),
        '<form method="post" action="/items/two%20words"><button>Update two words</button></form>',
      );
    });

    it('lowers g:command, g:query and g:message, and drops g:lane, g:key and g:slot', () => {
      const html = body(page(site, 'forms.contact'));
      assert.match(html, /<form data-kit-command="SaveNote" method="post" action="\/forms\/notes">/);
      assert.match(html, /<form data-kit-query="ListNotes" action="\/forms\/notes">/);
      assert.match(html, /<input name="q" data-kit-message-required="Please fill" required>/);
      assert.doesNotMatch(html, /g:/);
    });

    it('partial and command forms bring kit.js even without links', () => {
      assert.equal(page(site, 'forms.contact').kitJs, true);
      assert.ok(head(page(site, 'forms.contact')).includes(KIT_JS_TAG));
      assert.equal(page(site, 'forms.item').kitJs, false);
    });
  });

  describe('head metadata and assets', () => {
    const site = compileFixture(buildFixture('head'));

    it('writes title, description, canonical, stylesheets and module scripts', () => {
      const h = head(page(site, 'head.full'));
      assert.match(
        h,
        /^<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>Full head<\/title>\n<meta name="description" content="All the head metadata">\n<link rel="canonical" href="https:\/\/example.com\/full">\n/,
      );
      assert.deepEqual(
        page(site, 'head.full').stylesheets.map((s) => s.replace(/\.[0-9a-f]{10}\.css$/, '')),
        [
          '/assets/css/widget',
          '/assets/css/component-head-Widget',
          '/assets/css/page-head-head.full',
          '/assets/css/extra',
        ],
      );
      assert.deepEqual(
        page(site, 'head.full').scripts.map((s) => s.replace(/\.[0-9a-f]{10}\.js$/, '')),
        ['/assets/js/widget', '/assets/js/app'],
      );
      assert.match(h, /<script type="module" src="\/assets\/js\/app\.[0-9a-f]{10}\.js"><\/script>\n<\/head>\n$/);
    });

    it('honours css none and css page', () => {
      assert.deepEqual(page(site, 'head.none').stylesheets, []);
      assert.deepEqual(
        page(site, 'head.pageonly').stylesheets.map((s) => s.replace(/\.[0-9a-f]{10}\.css$/, '')),
        ['/assets/css/page-head-head.pageonly'],
      );
      assert.equal(
        site.assets.some((a) => a.path.includes('head.none')),
        false,
        'no orphan CSS for css none',
      );
    });

    it('copies js modules as hashed assets, stripping TypeScript types', () => {
      const widget = site.assets.find((a) => a.path.startsWith('assets/js/widget.'));
      assert.ok(widget);
      assert.equal(
        String(widget.content).trim(),
        "const label = 'widget';\ndocument.documentElement.dataset.widget = label;",
      );
      assert.ok(site.assets.every((a) => a.path.startsWith('assets/') && a.sha256.startsWith('sha256-')));
    });
  });

  describe('request-time pages and fragments', () => {
    const site = compileFixture(buildFixture('ssr'));
    class Chapter {
      constructor(
        readonly slug: string,
        private readonly t: string,
      ) {}
      get title(): string {
        return this.t;
      }
    }
    const load = {
      chapters: [new Chapter('intro', 'Intro <1>'), new Chapter('guides/routing', 'Routing')],
      editor: new Map([['name', 'Docs & co']]),
    };

    it('SSR pages get IR but no static file; hybrid pages get both', () => {
      const manual = page(site, 'manual');
      assert.equal(manual.render, 'ssr');
      assert.deepEqual(manual.prerender, []);
      assert.deepEqual(manual.serverFields, ['chapters', 'editor.name']);
      assert.equal(manual.cache, 'public, max-age=60, stale-while-revalidate=300');
      const hyb = page(site, 'hyb');
      assert.equal(hyb.render, 'hybrid');
      assert.deepEqual(hyb.prerender, [{ path: '/hyb/a', file: 'hyb/a/index.html', params: { id: 'a' } }]);
      assert.equal(body(hyb, { id: 'a' }), '<p>a / a</p>');
    });

    it('renders the load result per request: loops, conditions, components in loops, params', () => {
      const manual = page(site, 'manual');
      const ir = JSON.parse(JSON.stringify(manual.ir)) as Template; // what a generated app embeds
      const html = body({ ...manual, ir }, { path: 'guides/intro' }, load);
      assert.match(html, /<h1>guides\/intro<\/h1>/);
      assert.match(
        html,
        // A value after the literal `/manual/` is one path segment: its slash is encoded.
        /<li><a href="\/manual\/intro">0: Intro &lt;1&gt;<\/a><\/li><li><a href="\/manual\/guides%2Frouting">1: Routing<\/a><\/li>/,
      );
      assert.match(html, /<p>Edited by Docs &amp; co<\/p>/);
      assert.match(
        html,
        /<li class="row" title="Intro &lt;1&gt;">Intro &lt;1&gt;<\/li><li class="row" title="Routing">Routing<\/li>/,
      );
      assert.match(html, /<form method="post" action="\/manual\/save">/);
      const empty = body(manual, { path: 'x' }, { chapters: [], editor: {} });
      assert.doesNotMatch(empty, /Edited by|<li/);
    });

    it('compiles fragments to their own IR', () => {
      assert.equal(site.fragments.length, 1);
      const f = site.fragments[0];
      assert.deepEqual(
        [f.pageId, f.name, f.method, f.route, f.target],
        ['manual', 'Row', 'GET', '/manual-rows/{id:int}', '#rows'],
      );
      assert.equal(renderTemplate(f.ir, {}, { id: '7' }), '<tr><td>Row 7</td></tr>');
    });
  });

  describe('the example site', () => {
    const site = compileFixture(EXAMPLE_SITE);

    it('compiles every page; the SPA link runtime comes with internal links', () => {
      assert.deepEqual(
        site.pages.map((p) => `${p.pageId}:${p.render}:${p.prerender.length}`),
        ['blog.index:spa:1', 'blog.post:spa:2', 'contact:spa:1', 'docs:ssr:0', 'home:spa:1', 'status:spa:1'],
      );
      assert.deepEqual(
        site.pages.filter((p) => p.kitJs).map((p) => p.pageId),
        ['blog.index', 'blog.post', 'contact', 'home', 'status'],
      );
      // docs links only with interpolated hrefs (/docs/{ch.slug}): no literal internal link, no layout.
      assert.equal(page(site, 'docs').kitJs, false);
      assert.ok(site.assets.some((a) => a.path === KIT_JS_PATH));
    });

    it('fills paths records into text and attributes', () => {
      const html = body(page(site, 'blog.post'), { slug: 'hello-kit' });
      assert.match(
        html,
        /<article id="post" class="prose">\n<h1>hello-kit<\/h1>\n<p data-slug="hello-kit">Posted in the blog.<\/p>/,
      );
    });
  });

  it('reports a missing js or css file as a build error with its range', () => {
    const { workspace } = loadProject([buildFixture('missing-asset')], { ssr: true }, repoRoot);
    const site = compileSite(workspace, { cwd: repoRoot });
    assert.equal(site.diagnostics.length, 1);
    const d = site.diagnostics[0];
    assert.equal(d.code, 'missing_asset_file');
    assert.equal(d.severity, 'error');
    assert.equal(d.range.start.line, 5);
    assert.match(d.message, /js module "\.\/nope\.js" cannot be read \(no such file\)/);
  });

  it('counts component and slot content depth against the markup limit: 256 renders, 257 is markup_too_deep', () => {
    // Box: two elements, its slot inside both; the call's content adds two more (<p><b>).
    const box = 'package site\n\ncomponent Box\n\nview {\n  <div><div><slot /></div></div>\n}\n';
    const withCallAt = (depth: number) => {
      const ws = new Workspace({ ssr: false });
      ws.setKitFile('site/box.cmp.kit', box);
      const call = `${'<div>'.repeat(depth)}<Box><p><b>x</b></p></Box>${'</div>'.repeat(depth)}`;
      ws.setKitFile('site/home.kit', `package site\n\npage home\nroute "/"\nguard public\n\nview {\n${call}\n}\n`);
      ws.flush();
      return compileSite(ws, { cwd: repoRoot });
    };
    const fits = withCallAt(252);
    assert.deepEqual(fits.diagnostics, []);
    assert.match(renderTemplate(page(fits, 'home').ir, {}, {}), /<div><div><p><b>x<\/b><\/p><\/div><\/div>/);
    const deep = withCallAt(253);
    assert.deepEqual(
      deep.diagnostics.map((d) => [d.code, d.file, d.range.start.line, d.message.replace(/:[^:]*$/, '')]),
      [
        [
          'markup_too_deep',
          'site/home.kit',
          7,
          'home: <Box> here nests elements 257 deep with its content; the limit is 256',
        ],
      ],
    );
  });

  it('is deterministic: the same sources compile to the same IR and assets', () => {
    const a = compileFixture(EXAMPLE_SITE, buildFixture('components'));
    const b = compileFixture(buildFixture('components'), EXAMPLE_SITE);
    assert.equal(JSON.stringify(a.pages.map((p) => p.ir)), JSON.stringify(b.pages.map((p) => p.ir)));
    assert.deepEqual(
      a.assets.map((x) => x.path),
      b.assets.map((x) => x.path),
    );
  });
});
