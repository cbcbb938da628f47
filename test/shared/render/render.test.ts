import { strict as assert } from 'node:assert';
import { escapeHtml, renderTemplate, UNSAFE_URL, type Expr, type Node, type Template } from '#shared/render/index.js';

const t = (...nodes: Node[]): Template => ({ v: 1, locals: 4, nodes });
const data = (...p: string[]): Expr => ({ k: 'data', p });
const local = (i: number, ...p: string[]): Expr => ({ k: 'local', i, p });
const lit = (v: string | number | boolean | null): Expr => ({ k: 'lit', v });

class Author {
  #first: string;
  constructor(first: string) {
    this.#first = first;
  }
  get name(): string {
    return `${this.#first} <admin>`;
  }
  greet(): string {
    return 'never called';
  }
}

describe('shared/render renderTemplate', () => {
  it('returns a single static chunk as is', () => {
    const tpl = t('<p>static</p>');
    assert.equal(renderTemplate(tpl), '<p>static</p>');
  });

  describe('escapes every value for its context', () => {
    const nasty = `<script>alert("x")</script> & 'q'`;
    const cases: [string, Template, string][] = [
      [
        'text',
        t('<p>', { t: 'text', e: data('v') }, '</p>'),
        `<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</p>`,
      ],
      [
        'quoted attribute',
        t('<p title="', { t: 'attr', e: data('v') }, '">'),
        `<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;">`,
      ],
      [
        'dynamic attribute',
        t('<p', { t: 'dattr', n: 'title', e: data('v') }, '>'),
        `<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;">`,
      ],
      [
        'URL path segment',
        t('<a href="', { t: 'url', parts: ['/p/', data('v')] }, '">'),
        `<a href="/p/%3Cscript%3Ealert(%22x%22)%3C%2Fscript%3E%20&amp;%20&#39;q&#39;">`,
      ],
      [
        'URL query',
        t('<a href="', { t: 'url', parts: ['/s?q=', data('v')] }, '">'),
        `<a href="/s?q=%3Cscript%3Ealert(%22x%22)%3C%2Fscript%3E%20%26%20&#39;q&#39;">`,
      ],
    ];
    for (const [name, tpl, want] of cases) {
      it(name, () => assert.equal(renderTemplate(tpl, { v: nasty }), want));
    }
  });

  describe('never emits an unsafe URL', () => {
    const unsafe = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<b>',
      'vbscript:msgbox',
      '//evil.example',
      '/\\evil.example',
      'javascript&#58;alert(1)',
      'javascript&colon;alert(1)',
    ];
    for (const u of unsafe) {
      it(`value ${JSON.stringify(u)} alone`, () => {
        const out = renderTemplate(t('<a href="', { t: 'url', parts: [data('u')] }, '">'), { u });
        // Value parts are percent-encoded; whatever is left must not be a dangerous URL.
        assert.doesNotMatch(out, /href="(javascript|data|vbscript):|href="\/\/|href="\/\\/i);
      });
      it(`literal ${JSON.stringify(u)}`, () => {
        assert.equal(
          renderTemplate(t('<a href="', { t: 'url', parts: [escapeHtml(u).replace(/&amp;/g, '&')] }, '">')),
          `<a href="${UNSAFE_URL}">`,
        );
      });
      it(`dynamic URL attribute ${JSON.stringify(u)}`, () => {
        const out = renderTemplate(t('<a', { t: 'dattr', n: 'href', e: data('u'), url: true }, '>'), { u });
        if (u.includes('&')) assert.match(out, /href="/);
        else assert.equal(out, `<a href="${UNSAFE_URL}">`);
      });
    }
    it('checks each srcset candidate', () => {
      const tpl = t('<img srcset="', { t: 'url', parts: ['/a.png 1x, ', data('u')], srcset: true }, '">');
      assert.equal(renderTemplate(tpl, { u: '/b.png 2x' }), '<img srcset="/a.png 1x, /b.png%202x">');
      const lit2 = t('<img srcset="', { t: 'url', parts: ['/a.png 1x, javascript:x 2x'], srcset: true }, '">');
      assert.equal(renderTemplate(lit2), `<img srcset="${UNSAFE_URL}">`);
    });
    it('a value after a literal path is one segment: it cannot add segments, climb, or start a query', () => {
      const tpl = t('<a href="', { t: 'url', parts: ['/users/', data('p'), '/edit'] }, '">');
      const cases: [string, string][] = [
        ['a b/../"x"?q=1#f', '/users/a%20b%2F..%2F%22x%22%3Fq=1%23f/edit'],
        ['..', '/users/%252E%252E/edit'],
        ['.', '/users/%252E/edit'],
        ['...', '/users/.../edit'],
        ['ann.lee', '/users/ann.lee/edit'],
      ];
      for (const [p, want] of cases) assert.equal(renderTemplate(tpl, { p }), `<a href="${want}">`, p);
    });
    it("{x...} keeps a value's slashes but not its query, fragment or dot segments", () => {
      const tpl = t('<a href="', { t: 'url', parts: ['/docs/', { k: 'seg', e: data('p') }] }, '">');
      assert.equal(renderTemplate(tpl, { p: 'guides/routing?x=1#y' }), '<a href="/docs/guides/routing%3Fx=1%23y">');
      assert.equal(renderTemplate(tpl, { p: 'a/../../etc' }), '<a href="/docs/a/%252E%252E/%252E%252E/etc">');
    });
  });

  describe('reads data through objects, Maps, class instances and getters', () => {
    const src = {
      plain: { a: { b: 'deep' } },
      map: new Map<string, unknown>([
        ['name', 'from a map'],
        ['nested', new Map([['x', 'map in map']])],
      ]),
      author: new Author('Ada'),
      list: ['x', 'y'],
      n: 42,
      big: 12345678901234567890n,
      yes: true,
      date: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
    };
    const cases: [string, string[], string][] = [
      ['nested object', ['plain', 'a', 'b'], 'deep'],
      ['Map with string keys', ['map', 'name'], 'from a map'],
      ['Map in a Map', ['map', 'nested', 'x'], 'map in map'],
      ['class getter', ['author', 'name'], 'Ada &lt;admin&gt;'],
      ['method is not a value', ['author', 'greet'], ''],
      ['array index', ['list', '1'], 'y'],
      ['array as text', ['list'], 'x, y'],
      ['number', ['n'], '42'],
      ['bigint', ['big'], '12345678901234567890'],
      ['boolean', ['yes'], 'true'],
      ['date', ['date'], '2024-01-02T03:04:05.000Z'],
      ['missing', ['nope', 'deeper'], ''],
      ['plain object prints nothing', ['plain'], ''],
      ['__proto__ is blocked', ['plain', '__proto__'], ''],
      ['constructor is blocked', ['author', 'constructor', 'name'], ''],
    ];
    for (const [name, path, want] of cases) {
      it(name, () => assert.equal(renderTemplate(t({ t: 'text', e: data(...path) }), src), want));
    }
  });

  it('reads route params from a record or a Map', () => {
    const tpl = t({ t: 'text', e: { k: 'param', n: 'slug' } });
    assert.equal(renderTemplate(tpl, {}, { slug: 'a<b' }), 'a&lt;b');
    assert.equal(renderTemplate(tpl, {}, new Map([['slug', 'from map']])), 'from map');
    assert.equal(renderTemplate(tpl, {}, {}), '');
    assert.equal(renderTemplate(tpl, {}, { ['__proto__']: 'x' } as Record<string, string>), '');
  });

  it('builds concrete paths from params, each segment encoded', () => {
    const tpl = t(
      '<form action="',
      { t: 'url', parts: [{ k: 'path', segs: [{ s: 'items' }, { p: 'id' }, { s: 'save' }] }] },
      '">',
    );
    assert.equal(renderTemplate(tpl, {}, { id: 'two words/&' }), '<form action="/items/two%20words%2F&amp;/save">');
    const rest = t({ t: 'text', e: { k: 'path', segs: [{ s: 'docs' }, { p: 'path', rest: true }] } });
    assert.equal(renderTemplate(rest, {}, { path: 'a/b c' }), '/docs/a/b%20c');
  });

  describe('g:if truthiness', () => {
    const cases: [unknown, boolean][] = [
      [true, true],
      [false, false],
      [0, false],
      [1, true],
      ['', false],
      ['x', true],
      [null, false],
      [undefined, false],
      [[], false],
      [[0], true],
      [new Map(), false],
      [new Map([['a', 1]]), true],
      [new Set(), false],
      [{}, true],
      [NaN, false],
    ];
    for (const [v, want] of cases) {
      it(`${String(v instanceof Map ? 'Map' : v instanceof Set ? 'Set' : JSON.stringify(v))} → ${want}`, () => {
        assert.equal(renderTemplate(t({ t: 'if', e: data('v'), b: ['yes'] }), { v }), want ? 'yes' : '');
      });
    }
  });

  describe('expressions', () => {
    const cases: [string, Expr, string][] = [
      ['not', { k: 'not', e: data('off') }, 'true'],
      ['== same type', { k: 'bin', op: '==', l: data('n'), r: lit(3) }, 'true'],
      ['== mixed types compare as text', { k: 'bin', op: '==', l: data('n'), r: lit('3') }, 'true'],
      ['!=', { k: 'bin', op: '!=', l: data('s'), r: lit('b') }, 'true'],
      ['< numbers', { k: 'bin', op: '<', l: data('n'), r: lit(10) }, 'true'],
      ['< numeric text', { k: 'bin', op: '<', l: lit('9'), r: lit('10') }, 'true'],
      ['>= text', { k: 'bin', op: '>=', l: data('s'), r: lit('a') }, 'true'],
      ['&& yields the deciding value', { k: 'bin', op: '&&', l: data('s'), r: data('n') }, '3'],
      ['|| yields the first truthy value', { k: 'bin', op: '||', l: data('off'), r: data('s') }, 'a'],
      ['cat', { k: 'cat', parts: [lit('Post: '), data('s'), lit(1)] }, 'Post: a1'],
    ];
    for (const [name, e, want] of cases) {
      it(name, () => assert.equal(renderTemplate(t({ t: 'text', e }), { n: 3, s: 'a', off: false }), want));
    }
  });

  describe('g:for', () => {
    const loop = (coll: Expr): Template =>
      t(
        '<ol>',
        {
          t: 'for',
          e: coll,
          item: 0,
          index: 1,
          b: ['<li>', { t: 'text', e: local(1) }, '=', { t: 'text', e: local(0, 'title') }, '</li>'],
        },
        '</ol>',
      );
    it('iterates arrays with indexes', () => {
      assert.equal(
        renderTemplate(loop(data('xs')), { xs: [{ title: 'a' }, { title: '<b>' }] }),
        '<ol><li>0=a</li><li>1=&lt;b&gt;</li></ol>',
      );
    });
    it('iterates Maps and objects with keys, and other iterables', () => {
      assert.equal(
        renderTemplate(loop(data('m')), { m: new Map([['k1', { title: 'one' }]]) }),
        '<ol><li>k1=one</li></ol>',
      );
      assert.equal(renderTemplate(loop(data('o')), { o: { k2: { title: 'two' } } }), '<ol><li>k2=two</li></ol>');
      assert.equal(renderTemplate(loop(data('s')), { s: new Set([{ title: 'set' }]) }), '<ol><li>0=set</li></ol>');
    });
    it('renders nothing for non-collections', () => {
      for (const v of [undefined, null, 'text', 5, true])
        assert.equal(renderTemplate(loop(data('v')), { v }), '<ol></ol>');
    });
    it('nests loops with their own slots', () => {
      const tpl = t({
        t: 'for',
        e: data('rows'),
        item: 0,
        b: [{ t: 'for', e: local(0, 'cells'), item: 2, b: [{ t: 'text', e: local(2) }, ','] }, ';'],
      });
      assert.equal(renderTemplate(tpl, { rows: [{ cells: [1, 2] }, { cells: [3] }] }), '1,2,;3,;');
    });
  });

  it('renders dynamic boolean attributes', () => {
    const tpl = t('<input', { t: 'dattr', n: 'checked', e: data('v') }, '>');
    assert.equal(renderTemplate(tpl, { v: true }), '<input checked>');
    assert.equal(renderTemplate(tpl, { v: false }), '<input>');
    assert.equal(renderTemplate(tpl, { v: null }), '<input>');
    assert.equal(renderTemplate(tpl, { v: 'a"b' }), '<input checked="a&quot;b">');
  });

  it('templates survive a JSON round trip', () => {
    const tpl = loopTemplate();
    assert.equal(
      renderTemplate(JSON.parse(JSON.stringify(tpl)) as Template, { xs: ['a'] }),
      renderTemplate(tpl, { xs: ['a'] }),
    );
  });
});

function loopTemplate(): Template {
  return t('<ul>', { t: 'for', e: data('xs'), item: 0, b: ['<li>', { t: 'text', e: local(0) }, '</li>'] }, '</ul>');
}
