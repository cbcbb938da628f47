// The representative files of the language, parsed into the AST the core uses.
import assert from 'node:assert/strict';
import { valueOffset, type Element, type Interpolation, type StringLit, type TextNode } from '#grammar/index.js';
import { assertRangesConsistent, decl, elements, lc, loadFixture, outline, slice } from './helpers.js';

function attr(el: Element, name: string) {
  const a = el.attrs.find((x) => x.name === name);
  assert.ok(a, `attribute ${name} on <${el.name}>`);
  return a;
}

describe('grammar: representative files', () => {
  it('landing.page.kit: declarations, the unsupported build block and the view', () => {
    const { text, file } = loadFixture('landing.page.kit');
    assertRangesConsistent(text, file);
    assert.equal(file.kind, 'page');
    assert.deepEqual(
      file.declarations.map((d) => d.kind),
      ['package', 'route', 'guard', 'layout', 'meta', 'view'],
    );
    assert.deepEqual(
      file.diagnostics.map((d) => [d.code, slice(text, d.range)]),
      [['unsupported_top_level_block', 'build']],
    );
    const route = decl(file, 'route');
    assert.equal(route.path.value, '/');
    assert.equal(slice(text, route.keyword), 'route');
    assert.equal(slice(text, route.path.range), '"/"');
    assert.deepEqual(lc(route.range), [2, 0, 2, 9]);
    const meta = decl(file, 'meta');
    assert.equal(meta.name, 'title');
    assert.equal(meta.value.value, 'Acme');
    const view = decl(file, 'view');
    assert.equal(outline(view.body), 'main(Banner,a)');
    const main = elements(view.body)[0];
    const [banner, link] = elements(main.children);
    assert.equal(banner.isComponent, true);
    assert.equal(banner.selfClosing, true);
    assert.equal(banner.localName, 'Banner');
    assert.equal(banner.alias, undefined);
    const heading = attr(banner, 'heading').value;
    assert.ok(heading?.type === 'string');
    assert.equal(heading.parts.length, 1);
    const interp = heading.parts[0] as Interpolation;
    assert.equal(interp.type, 'interp');
    assert.deepEqual(interp.expr.type === 'path' && interp.expr.path, ['heading']);
    assert.equal(slice(text, interp.range), '{heading}');
    assert.equal(slice(text, interp.expr.range), 'heading');
    assert.equal(link.name, 'a');
    assert.equal(slice(text, link.range), '<a href="/news/first-post">Latest</a>');
    assert.equal(slice(text, link.openRange), '<a href="/news/first-post">');
    assert.equal(slice(text, link.closeNameRange!), 'a');
    assert.equal((link.children[0] as TextNode).value, 'Latest');
    assert.equal(slice(text, view.range), text.slice(text.indexOf('view {'), text.lastIndexOf('}') + 1));
    assert.equal(slice(text, view.bodyRange), text.slice(text.indexOf('  <main>'), text.lastIndexOf('}')));
  });

  it('article.page.kit: page ID, layouts, paths records and escaped param() in an attribute', () => {
    const { text, file } = loadFixture('article.page.kit');
    assertRangesConsistent(text, file);
    assert.deepEqual(file.diagnostics, []);
    assert.equal(decl(file, 'page').id.text, 'news.article');
    const route = decl(file, 'route');
    assert.equal(route.path.value, '/news/{slug}');
    // `{slug}` inside the pattern maps back to the document through valueOffsets.
    const brace = route.path.value.indexOf('{');
    assert.equal(text.slice(valueOffset(route.path, brace), valueOffset(route.path, brace + 6)), '{slug}');
    assert.deepEqual(
      decl(file, 'layout').layouts.map((w) => [w.text, slice(text, w.range)]),
      [
        ['frame', 'frame'],
        ['reading', 'reading'],
      ],
    );
    const paths = decl(file, 'paths');
    assert.equal(paths.records.length, 2);
    const [first, second] = paths.records;
    assert.equal(slice(text, first.range), '=> { slug: "first-post" }');
    assert.equal(first.fields[0].name.text, 'slug');
    const v1 = first.fields[0].value as StringLit;
    assert.equal(v1.value, 'first-post');
    assert.equal(slice(text, v1.range), '"first-post"');
    assert.deepEqual(lc(v1.range), [8, 13, 8, 25]);
    assert.equal((second.fields[0].value as StringLit).value, 'second-post');
    assert.deepEqual(lc(second.fields[0].name.range), [9, 7, 9, 11]);

    const article = elements(decl(file, 'view').body)[0];
    assert.equal(article.name, 'article');
    assert.deepEqual(
      article.attrs.map((a) => [
        a.name,
        a.form,
        a.value?.type === 'string' ? a.value.parts.map((p) => (p.type === 'text' ? p.value : '?')).join('') : '',
      ]),
      [
        ['id', 'id-shorthand', 'story'],
        ['class', 'class-shorthand', 'prose'],
      ],
    );
    assert.equal(slice(text, article.attrs[0].range), '#story');
    const p = elements(article.children)[1];
    const dataId = attr(p, 'data-id').value;
    assert.ok(dataId?.type === 'string');
    assert.equal(slice(text, dataId.range), '"{param(\\"slug\\")}"');
    assert.equal(slice(text, dataId.innerRange), '{param(\\"slug\\")}');
    const call = (dataId.parts[0] as Interpolation).expr;
    assert.ok(call.type === 'param');
    assert.equal(call.name.value, 'slug');
    assert.equal(slice(text, call.name.range), '\\"slug\\"');
    assert.equal(call.name.raw, '\\"slug\\"');
    assert.equal(slice(text, call.range), 'param(\\"slug\\")');
    assert.equal(text[valueOffset(call.name, 0)], 's');
  });

  it('panel.cmp.kit: a component with props, a default and slots', () => {
    const { text, file } = loadFixture('panel.cmp.kit');
    assertRangesConsistent(text, file);
    assert.equal(file.kind, 'component');
    assert.deepEqual(file.diagnostics, []);
    assert.equal(decl(file, 'component').name.text, 'Panel');
    const props = decl(file, 'props');
    assert.deepEqual(
      props.props.map((p) => [p.name.text, p.type.text, p.default?.value]),
      [
        ['caption', 'string', undefined],
        ['compact', 'bool', false],
      ],
    );
    assert.equal(slice(text, props.props[1].range), 'compact bool = false');
    assert.equal(slice(text, props.props[1].default!.range), 'false');
    const view = decl(file, 'view');
    assert.equal(outline(view.body), 'section(header(slot(span)),h2,slot)');
  });

  it('frame.layout.kit and reading.layout.kit: layout files', () => {
    const frame = loadFixture('frame.layout.kit');
    assertRangesConsistent(frame.text, frame.file);
    assert.equal(frame.file.kind, 'layout');
    assert.equal(decl(frame.file, 'error').file.value, '/errors/frame.html');
    assert.equal(outline(decl(frame.file, 'view').body), 'div(slot)');
    const reading = loadFixture('reading.layout.kit');
    assertRangesConsistent(reading.text, reading.file);
    assert.equal(reading.file.kind, 'layout');
    assert.deepEqual(
      decl(reading.file, 'layout').layouts.map((w) => w.text),
      ['frame'],
    );
    assert.equal(outline(decl(reading.file, 'view').body), 'aside,slot');
    assert.deepEqual([...frame.file.diagnostics, ...reading.file.diagnostics], []);
  });

  it('inbox.page.kit: actions, a fragment, go server and g: attributes', () => {
    const { text, file } = loadFixture('inbox.page.kit');
    assertRangesConsistent(text, file);
    assert.deepEqual(file.diagnostics, []);
    assert.deepEqual(
      decl(file, 'guard').guards.map((g) => g.text),
      ['auth.required'],
    );
    const archive = decl(file, 'act', 0);
    assert.equal(slice(text, archive.keyword), 'act');
    assert.equal(slice(text, archive.symbol.range), 'Archive');
    assert.deepEqual(lc(archive.symbol.range), [5, 4, 5, 11]);
    assert.equal(slice(text, archive.method.range), 'POST');
    assert.deepEqual(lc(archive.method.range), [5, 12, 5, 16]);
    assert.equal(archive.path?.value, '/inbox/archive');
    assert.deepEqual(lc(archive.path!.range), [5, 17, 5, 33]);
    assert.equal(decl(file, 'act', 1).symbol.text, 'Search');
    const frag = decl(file, 'fragment');
    assert.equal(frag.name.text, 'Row');
    assert.equal(frag.method.text, 'GET');
    assert.equal(frag.path.value, '/inbox/rows/{id:int}');
    assert.equal(frag.target.value, '#rows');
    assert.equal(slice(text, frag.target.range), '"#rows"');
    assert.equal(outline(frag.body), 'tr(td)');
    const server = decl(file, 'server');
    assert.equal(server.go, true);
    assert.equal(slice(text, server.keyword), 'go server');
    assert.deepEqual(server.fields, []);
    const view = decl(file, 'view');
    assert.equal(outline(view.body), 'main(form(input,button),form(button),table(tbody))');
    const form = elements(elements(view.body)[0].children)[0];
    const post = attr(form, 'g:post');
    assert.ok(post.value?.type === 'expr');
    assert.deepEqual(post.value.expr.type === 'path' && post.value.expr.path, ['Search']);
    assert.equal(slice(text, post.value.range), '{Search}');
    assert.equal(slice(text, post.range), 'g:post={Search}');
    const input = elements(form.children)[0];
    assert.equal(input.selfClosing, true);
    assert.equal(slice(text, attr(input, 'g:message:minlength').nameRange), 'g:message:minlength');
  });

  it('manual.page.kit: rest route, cache, revalidate, server fields, g:for and g:if', () => {
    const { text, file } = loadFixture('manual.page.kit');
    assertRangesConsistent(text, file);
    assert.deepEqual(file.diagnostics, []);
    assert.equal(decl(file, 'cache').value.value, 'public, max-age=60');
    assert.equal(decl(file, 'revalidate').value.text, '5m');
    const server = decl(file, 'server');
    assert.equal(server.go, false);
    assert.deepEqual(
      server.fields.map((f) => [f.text, f.path, slice(text, f.range)]),
      [
        ['chapters', ['chapters'], 'chapters'],
        ['editor.name', ['editor', 'name'], 'editor.name'],
      ],
    );
    const main = elements(decl(file, 'view').body)[0];
    const [h1, ol, p] = elements(main.children);
    const param = (h1.children[0] as Interpolation).expr;
    assert.ok(param.type === 'param');
    assert.equal(param.name.value, 'path');
    assert.equal(slice(text, param.range), 'param("path")');
    const li = elements(ol.children)[0];
    const forValue = attr(li, 'g:for').value;
    assert.ok(forValue?.type === 'expr' && forValue.expr.type === 'for');
    assert.equal(forValue.expr.item.text, 'ch');
    assert.equal(forValue.expr.index, undefined);
    assert.equal(slice(text, forValue.expr.range), 'ch in chapters');
    const href = attr(elements(li.children)[0], 'href').value;
    assert.ok(href?.type === 'string');
    assert.deepEqual(
      href.parts.map((x) => [x.type, slice(text, x.range)]),
      [
        ['text', '/manual/'],
        ['interp', '{ch.slug}'],
      ],
    );
    const gif = attr(p, 'g:if').value;
    assert.ok(gif?.type === 'expr' && gif.expr.type === 'path');
    assert.deepEqual(gif.expr.path, ['editor', 'name']);
  });

  it('draft.page.kit: a guardless page parses without syntax diagnostics', () => {
    const { text, file } = loadFixture('draft.page.kit');
    assertRangesConsistent(text, file);
    assert.deepEqual(file.diagnostics, []);
    assert.deepEqual(
      file.declarations.map((d) => d.kind),
      ['package', 'route', 'view'],
    );
  });
});
