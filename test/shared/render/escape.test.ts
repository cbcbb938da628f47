import { strict as assert } from 'node:assert';
import { encodeUrlValue, escapeHtml, safeUrl, staticHtml, UNSAFE_URL } from '#shared/render/index.js';
import { isUnsafeUrl as checkerIsUnsafeUrl } from '#core/model/url-safety.js';
import { isUnsafeUrl } from '#shared/render/url-safety.js';

describe('shared/render escaping helpers', () => {
  it('escapeHtml escapes the five special characters and nothing else', () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a> é`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt; é');
    assert.equal(escapeHtml('plain'), 'plain');
  });

  describe('staticHtml keeps character references and escapes strays', () => {
    const cases: [string, boolean, string][] = [
      ['Tom &amp; Jerry', false, 'Tom &amp; Jerry'],
      ['&copy; &#169; &#xA9;', false, '&copy; &#169; &#xA9;'],
      ['a & b', false, 'a &amp; b'],
      ['a < b > c', false, 'a &lt; b &gt; c'],
      ['&nosemicolon', false, '&amp;nosemicolon'],
      ['say "hi"', false, 'say "hi"'],
      ['say "hi"', true, 'say &quot;hi&quot;'],
    ];
    for (const [src, attr, want] of cases)
      it(`${JSON.stringify(src)}${attr ? ' (attribute)' : ''}`, () => assert.equal(staticHtml(src, attr), want));
  });

  describe('encodeUrlValue', () => {
    const cases: [string, boolean, string][] = [
      ['a b', false, 'a%20b'],
      ['guides/intro', false, 'guides/intro'],
      ['a?b#c', false, 'a%3Fb%23c'],
      ['a/b', true, 'a%2Fb'],
      ['x=1&y', true, 'x%3D1%26y'],
      ['é', false, '%C3%A9'],
      ['\ud800lone', false, 'lone'],
    ];
    for (const [v, q, want] of cases)
      it(`${JSON.stringify(v)}${q ? ' in a query' : ''}`, () => assert.equal(encodeUrlValue(v, q), want));
  });

  it('safeUrl replaces unsafe URLs', () => {
    assert.equal(safeUrl('/ok'), '/ok');
    assert.equal(safeUrl('https://example.com/'), 'https://example.com/');
    assert.equal(safeUrl('javascript:x'), UNSAFE_URL);
    assert.equal(safeUrl('//evil'), UNSAFE_URL);
  });

  it("the checker uses the renderer's URL safety (one implementation)", () => {
    assert.equal(checkerIsUnsafeUrl, isUnsafeUrl);
  });
});
