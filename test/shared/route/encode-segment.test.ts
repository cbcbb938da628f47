import { strict as assert } from 'node:assert';
import { checkRequestTarget, encodePathSegment } from '#shared/route/index.js';

describe('shared/route encodePathSegment', () => {
  it('leaves unreserved characters and path sub-delimiters as they are, and escapes every other ASCII character', () => {
    const kept = new Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()$&+,:;=@");
    for (let c = 0; c < 128; c++) {
      const ch = String.fromCharCode(c);
      const want = kept.has(ch) ? ch : '%' + c.toString(16).toUpperCase().padStart(2, '0');
      assert.equal(encodePathSegment(ch), want, `character ${c}`);
      assert.equal(encodePathSegment(`a${ch}b`), `a${want}b`, `character ${c} inside a segment`);
    }
  });

  it('encodes non-ASCII text as UTF-8 and refuses lone surrogates', () => {
    assert.equal(encodePathSegment('caf\u00e9'), 'caf%C3%A9');
    assert.equal(encodePathSegment('\u{1F600}x'), '%F0%9F%98%80x');
    assert.equal(encodePathSegment('a\ud800'), undefined);
    assert.equal(encodePathSegment(''), '');
  });

  it('round-trips through checkRequestTarget', () => {
    for (const s of ['post-1', 'a b', '100%', '?q#f', 'caf\u00e9', "it's", '$&+,:;=@', '..x', 'A~Z']) {
      const t = checkRequestTarget('/' + encodePathSegment(s));
      assert.ok(t.ok, s);
      if (t.ok) assert.deepEqual(t.segments, [s]);
    }
  });
});
