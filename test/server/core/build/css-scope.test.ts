import { strict as assert } from 'node:assert';
import { scopeClassFor, scopeCss, scopeSelector } from '#core/build/index.js';

describe('build: scoped CSS', () => {
  describe('scopeSelector adds the class to the last compound, before pseudo-elements', () => {
    const cases: [string, string][] = [
      ['.card', '.card.s'],
      ['h2', 'h2.s'],
      ['.card h2', '.card h2.s'],
      ['.a > .b', '.a > .b.s'],
      ['ul li + li', 'ul li + li.s'],
      ['a:hover', 'a:hover.s'],
      ['p::before', 'p.s::before'],
      ['p:after', 'p.s:after'],
      ['input[type="a b"]', 'input[type="a b"].s'],
      [':is(.x, .y) p', ':is(.x, .y) p.s'],
      ['li:not(.a .b)', 'li:not(.a .b).s'],
      ['*', '*.s'],
      [':global(body)', 'body'],
      [':global(.dark) .card', '.dark .card.s'],
      ['  .padded  ', '.padded.s'],
    ];
    for (const [input, want] of cases) it(`${input} → ${want}`, () => assert.equal(scopeSelector(input, 's'), want));
  });

  it('scopes rules inside grouping at-rules and copies other at-rules unchanged', () => {
    const css = `
      /* comment { not a rule } */
      .a, .b::before { color: red; }
      @media (min-width: 40rem) {
        .a { color: blue; }
      }
      @supports (display: grid) { .g { display: grid; } }
      @keyframes spin { from { transform: rotate(0deg); } to { transform: rotate(360deg); } }
      @import url("x.css");
      .c { background: url("a{b}.png"); content: "}"; }
    `;
    assert.equal(
      scopeCss(css, 's'),
      [
        '.a.s, .b.s::before { color: red; }',
        '@media (min-width: 40rem) {',
        '.a.s { color: blue; }',
        '}',
        '@supports (display: grid) {',
        '.g.s { display: grid; }',
        '}',
        '@keyframes spin { from { transform: rotate(0deg); } to { transform: rotate(360deg); } }',
        '@import url("x.css");',
        '.c.s { background: url("a{b}.png"); content: "}"; }',
        '',
      ].join('\n'),
    );
  });

  it('scope classes are stable and distinct per owner', () => {
    assert.equal(scopeClassFor('component', 'site', 'Card'), scopeClassFor('component', 'site', 'Card'));
    assert.match(scopeClassFor('component', 'site', 'Card'), /^kit-[0-9a-f]{8}$/);
    assert.notEqual(scopeClassFor('component', 'site', 'Card'), scopeClassFor('layout', 'site', 'Card'));
    assert.notEqual(scopeClassFor('component', 'site', 'Card'), scopeClassFor('component', 'ui', 'Card'));
  });
});
