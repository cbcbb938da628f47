// The `html` tag, `raw()` and the HTML answers built from them: every interpolated value is escaped
// once, nested results are not escaped again, and the old call form `html(body, init)` still answers.
import { strict as assert } from 'node:assert';
import { fragment, html, htmlResponse, toResponse, contractResponse } from '#shared/app/responses.js';
import { raw, SafeHtml } from '#shared/app/safe-html.js';
import * as kitApp from '#shared/app/index.js';
import { UNSAFE_URL } from '#shared/render/index.js';

const text = (v: SafeHtml): string => v.toString();

describe('html tag', () => {
  it('escapes each of & < > " \' in text and in attribute values', () => {
    const cases: [string, string][] = [
      ['&', '&amp;'],
      ['<', '&lt;'],
      ['>', '&gt;'],
      ['"', '&quot;'],
      ["'", '&#39;'],
    ];
    for (const [c, escaped] of cases) {
      assert.equal(text(html`<p>${c}</p>`), `<p>${escaped}</p>`, `text ${c}`);
      assert.equal(text(html`<p title="${c}" lang='${c}'>`), `<p title="${escaped}" lang='${escaped}'>`, `attr ${c}`);
    }
    assert.equal(
      text(html`<p>${'<script>alert("x")</script>'}</p>`),
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>',
    );
  });

  it('keeps the static parts as written and plain values as their text', () => {
    assert.equal(text(html`<b>&copy;</b>`), '<b>&copy;</b>');
    assert.equal(text(html`${1} ${0} ${true} ${2.5}`), '1 0 true 2.5');
    assert.equal(text(html``), '');
  });

  it('renders null, undefined and false as nothing', () => {
    assert.equal(text(html`[${null}|${undefined}|${false}]`), '[||]');
  });

  it('does not escape a nested html result again', () => {
    const inner = html`<em>${'a&b'}</em>`;
    const outer = html`<p>${inner}</p>`;
    assert.equal(text(outer), '<p><em>a&amp;b</em></p>');
    assert.equal(text(html`<div>${outer}</div>`), '<div><p><em>a&amp;b</em></p></div>');
  });

  it('flattens arrays, escaping each item', () => {
    const items = ['a<b', 'c"d'];
    assert.equal(
      text(html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`),
      '<ul><li>a&lt;b</li><li>c&quot;d</li></ul>',
    );
    assert.equal(text(html`${['<', ['>', [html`<br>`]], null, false, 0]}`), '&lt;&gt;<br>0');
    assert.equal(text(html`<ul>${[]}</ul>`), '<ul></ul>');
  });

  it('raw() marks a string as trusted', () => {
    assert.equal(text(html`<div>${raw('<b>bold</b>')}</div>`), '<div><b>bold</b></div>');
    assert.equal(text(raw('<i>')), '<i>');
  });

  it('checks a value that starts a URL attribute, raw ones too, like the values of a view', () => {
    for (const url of ['javascript:alert(1)', ' JAVASCRIPT:x', 'data:text/html,x', '//evil.example', '/\\evil']) {
      assert.equal(text(html`<a href="${url}">`), `<a href="${UNSAFE_URL}">`, url);
    }
    assert.equal(text(html`<a href="${raw('java&#115;cript:x')}">`), `<a href="${UNSAFE_URL}">`);
    assert.equal(text(html`<form action='${''}${'javascript:x'}'>`), `<form action='${UNSAFE_URL}'>`);
    assert.equal(text(html`<img srcset="${'a.png 1x, javascript:x 2x'}">`), `<img srcset="${UNSAFE_URL}">`);
    assert.equal(text(html`<a href="${'/blog?a=1&b=2'}">`), '<a href="/blog?a=1&amp;b=2">');
    assert.equal(text(html`<a href="${'https://example.com/'}">`), '<a href="https://example.com/">');
    // Only the start of a URL decides its scheme; text and other attributes are not URLs.
    assert.equal(text(html`<a href="/u/${'javascript:x'}">`), '<a href="/u/javascript:x">');
    assert.equal(text(html`<p title="${'javascript:x'}">${'//x'}</p>`), '<p title="javascript:x">//x</p>');
  });

  it('is the same on every call from one place (the per-template cache holds no values)', () => {
    const link = (u: string): string => text(html`<a href="${u}">${u}</a>`);
    assert.equal(link('/a'), '<a href="/a">/a</a>');
    assert.equal(link('javascript:x'), `<a href="${UNSAFE_URL}">javascript:x</a>`);
    assert.equal(link('/b'), '<a href="/b">/b</a>');
  });

  it('is a SafeHtml that JSON encodes as its text', () => {
    const v = html`<p>${'<'}</p>`;
    assert.ok(v instanceof SafeHtml);
    assert.equal(`${v}`, '<p>&lt;</p>');
    assert.equal(JSON.stringify({ body: v }), '{"body":"<p>&lt;</p>"}');
  });

  it('is exported from kit/app with raw, SafeHtml and htmlResponse', () => {
    assert.equal(kitApp.html, html);
    assert.equal(kitApp.raw, raw);
    assert.equal(kitApp.SafeHtml, SafeHtml);
    assert.equal(kitApp.htmlResponse, htmlResponse);
  });
});

describe('HTML answers', () => {
  it('htmlResponse sends SafeHtml or a string as text/html, with status and headers', async () => {
    const r = htmlResponse(html`<p>${'<x>'}</p>`, { status: 201, headers: { 'x-a': '1' } });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(r.headers.get('x-a'), '1');
    assert.equal(await r.text(), '<p>&lt;x&gt;</p>');
    assert.equal(await htmlResponse('<p>trusted</p>').text(), '<p>trusted</p>');
    const typed = htmlResponse('x', { headers: { 'content-type': 'text/html; charset=iso-8859-1' } });
    assert.equal(typed.headers.get('content-type'), 'text/html; charset=iso-8859-1');
  });

  it('html(body, init) called as a function still answers with body as written', async () => {
    const r = html('<p>as before</p>', { status: 202 });
    assert.ok(r instanceof Response);
    assert.equal(r.status, 202);
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await r.text(), '<p>as before</p>');
  });

  it('a handler returning SafeHtml answers 200 text/html; a contract result carries it as JSON', async () => {
    const r = toResponse(html`<p>${'a<b'}</p>`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await r.text(), '<p>a&lt;b</p>');
    assert.equal(await contractResponse({ preview: html`<b>${'&'}</b>` }).text(), '{"preview":"<b>&amp;</b>"}');
  });

  it('fragment takes SafeHtml', async () => {
    const f = fragment('#out', html`<p>${'<i>'}</p>`);
    assert.equal(await f.text(), '<p>&lt;i&gt;</p>');
    assert.equal(f.headers.get('x-kit-fragment-target'), '#out');
  });
});
