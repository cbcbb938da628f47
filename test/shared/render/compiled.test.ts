// renderTemplate compiles a template on its first render and reuses that form: the output must be
// what the template says for every render, whatever ran before, and the URL checks it decides at
// compile time (a literal start that already makes a URL safe) must agree with checking the
// finished URL.
import { strict as assert } from 'node:assert';
import {
  decodeEntities,
  encodeUrlData,
  encodeUrlValue,
  escapeHtml,
  isUnsafeUrl,
  renderTemplate,
  safeSrcset,
  UNSAFE_URL,
  type Expr,
  type Node,
  type Template,
} from '#shared/render/index.js';

const t = (...nodes: Node[]): Template => ({ v: 1, locals: 2, nodes });
const data = (...p: string[]): Expr => ({ k: 'data', p });
const local = (i: number, ...p: string[]): Expr => ({ k: 'local', i, p });

describe('shared/render compiled templates', () => {
  it('renders the same template again and again with fresh data and loop slots', () => {
    const tpl = t(
      '<ul>',
      {
        t: 'for',
        e: data('rows'),
        item: 0,
        index: 1,
        b: ['<li>', { t: 'text', e: local(1) }, ':', { t: 'text', e: local(0, 'name') }, '</li>'],
      },
      '</ul>',
      { t: 'if', e: data('more'), b: ['<p>more</p>'] },
    );
    assert.equal(
      renderTemplate(tpl, { rows: [{ name: 'a<' }, { name: 'b' }], more: true }),
      '<ul><li>0:a&lt;</li><li>1:b</li></ul><p>more</p>',
    );
    assert.equal(renderTemplate(tpl, { rows: new Map([['k', { name: 'm' }]]) }), '<ul><li>k:m</li></ul>');
    assert.equal(renderTemplate(tpl, { rows: [] }), '<ul></ul>');
    assert.equal(renderTemplate(tpl), '<ul></ul>');
    assert.equal(renderTemplate(tpl, { rows: [{ name: 'z' }] }), '<ul><li>0:z</li></ul>');
  });

  it('renders a template again after its node list is replaced', () => {
    const tpl = t('<b>', { t: 'text', e: data('v') }, '</b>');
    assert.equal(renderTemplate(tpl, { v: 1 }), '<b>1</b>');
    tpl.nodes = ['<i>', { t: 'text', e: data('v') }, '</i>'];
    assert.equal(renderTemplate(tpl, { v: 2 }), '<i>2</i>');
  });

  it('an empty template renders nothing; adjacent static chunks stay in order', () => {
    assert.equal(renderTemplate(t()), '');
    assert.equal(renderTemplate(t('a', 'b', { t: 'text', e: data('v') }, 'c', 'd'), { v: '-' }), 'ab-cd');
  });

  it('never reads blocked fields of objects, but does read such keys of Maps', () => {
    const tpl = t({ t: 'text', e: data('o', 'constructor') }, '|', { t: 'text', e: data('m', 'constructor') }, '|', {
      t: 'text',
      e: { k: 'param', n: '__proto__' },
    });
    assert.equal(
      renderTemplate(
        tpl,
        { o: { constructor: 'no' }, m: new Map([['constructor', 'yes']]) },
        JSON.parse('{"__proto__":"p"}') as Record<string, string>,
      ),
      '|yes|',
    );
    assert.equal(renderTemplate(tpl, { o: {}, m: new Map() }, new Map([['__proto__', 'from a map']])), '||from a map');
  });

  describe('URL attributes: the literal start and the finished URL agree', () => {
    const starts = [
      '',
      '/',
      '/items/',
      '//',
      '/\\',
      '\\',
      '/x',
      'x',
      'java',
      'javascript',
      'javascript:',
      'JavaScript:',
      'data',
      'data:',
      'vbscript:',
      'dat',
      'https://a.example/',
      'mailto:',
      'tel:',
      'x:',
      '#',
      '#top',
      '?q=',
      './',
      '../',
      'a b',
      ' /x',
      '\t',
      '&#106;avascript:',
      '&amp;',
      '/&#47;',
      'java&#115;cript:',
      '/a?b=',
      'C:',
      '\u00a0/x',
      'ht',
      'h-t',
      'İ:',
    ];
    const values = [
      '',
      'x',
      'a:b',
      'script:alert(1)',
      ':',
      '/evil',
      '/\\evil',
      '\\',
      'p/q',
      '&colon;',
      '#x',
      '?y',
      'javascript:alert(1)',
      ' ',
      '\u0001',
    ];
    for (const start of starts) {
      it(`literal ${JSON.stringify(start)}`, () => {
        const inQuery = start.includes('?') || start.includes('#');
        for (const v of values) {
          const tpl = t({ t: 'url', parts: [start, data('v')] });
          // A value after a literal start is one path segment (or a query component); a value that
          // starts the URL is the URL.
          const encoded = start === '' ? encodeUrlValue(v, inQuery) : encodeUrlData(v, inQuery);
          const built = start + escapeHtml(encoded);
          const want = isUnsafeUrl(decodeEntities(built)) ? UNSAFE_URL : built;
          assert.equal(renderTemplate(tpl, { v }), want, `value ${JSON.stringify(v)}`);
          // In a srcset every candidate is a URL of its own: values keep the per-segment rule.
          const srcset = t({ t: 'url', parts: [start, data('v')], srcset: true });
          const builtSet = start + escapeHtml(encodeUrlValue(v, inQuery));
          const decoded = decodeEntities(builtSet);
          assert.equal(
            renderTemplate(srcset, { v }),
            safeSrcset(decoded) === decoded ? builtSet : UNSAFE_URL,
            `srcset value ${JSON.stringify(v)}`,
          );
        }
      });
    }
  });
});
