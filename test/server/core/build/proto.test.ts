// Constant folding at build time must spell a hole exactly as the renderer would at request time.
import assert from 'node:assert/strict';
import { fold, type PNode } from '#core/build/proto.js';
import { renderTemplate, type Node } from '#shared/render/index.js';

const VALUES: (string | number | boolean | null)[] = [
  'plain',
  '<a href="x">&amp; \'q\'</a>',
  '',
  0,
  -1.5,
  1e21,
  NaN,
  Infinity,
  true,
  false,
  null,
];

describe('build: constant folding', () => {
  it('folds a literal text or attribute hole to what the renderer prints', () => {
    for (const t of ['text', 'attr'] as const) {
      for (const v of VALUES) {
        const n: PNode = { t, e: { k: 'lit', v } };
        assert.equal(fold(n), renderTemplate({ v: 1, locals: 0, nodes: [n as Node] }), `${t} ${String(v)}`);
      }
    }
  });

  it('folds a URL hole of literal parts to what the renderer prints, unsafe schemes included', () => {
    const urls = [
      '/docs',
      '/a?b=1#c',
      'https://example.com/x',
      'javascript:alert(1)',
      'JavaScript&#58;alert(1)',
      ' java\tscript:x',
      'data:text/html,x',
      '//evil.example',
      '/\\evil',
      '',
      'a.png 1x, javascript:x 2x',
      'a.png 1x, b.png 2x',
    ];
    for (const url of urls)
      for (const srcset of [false, true])
        for (const parts of [[url], [url.slice(0, 3), url.slice(3)]]) {
          const n: PNode = { t: 'url', parts, ...(srcset ? { srcset: true as const } : {}) };
          const rendered = renderTemplate({ v: 1, locals: 0, nodes: [n as Node] });
          assert.equal(fold(n), rendered, `${url} ${srcset}`);
        }
  });

  it('folds other constant holes with the renderer and keeps the rest', () => {
    const cat: PNode = {
      t: 'text',
      e: {
        k: 'cat',
        parts: [
          { k: 'lit', v: 'a<' },
          { k: 'lit', v: 2 },
        ],
      },
    };
    assert.equal(fold(cat), renderTemplate({ v: 1, locals: 0, nodes: [cat as Node] }));
    const url: PNode = { t: 'url', parts: ['/p/', { k: 'lit', v: 'x y' }] };
    assert.equal(fold(url), renderTemplate({ v: 1, locals: 0, nodes: [url as Node] }));
    const data: PNode = { t: 'text', e: { k: 'data', p: ['title'] } };
    assert.equal(fold(data), data);
  });
});
