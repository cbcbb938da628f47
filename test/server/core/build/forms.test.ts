// Forms rendered from the compiled template (server/src/core/build/forms.ts marks them,
// shared/render/forms.ts fills them): views written in kit markup are compiled as a page and
// rendered with a per-request form state. Where a CSRF field goes (after the start tag of each
// POST form that stays on this origin, nowhere else), that without form state the page renders
// byte for byte as before, and how a submission's values are put back into the form it came from.
import { strict as assert } from 'node:assert';
import {
  csrfInput,
  FormRender,
  type FormRenderOptions,
  hasTokenForms,
  isSameOriginAction,
  renderTemplate,
  type Template,
} from '#shared/render/index.js';
import { compileSite } from '#core/build/index.js';
import { Workspace } from '#core/workspace/workspace.js';
import { repoRoot } from '#test/helpers/repo.js';

const FIELD = csrfInput('TOK');

/** The template of a page at `/x` with `view` (actions Save at `/x` and Other at `/other`), plus `files`. */
function compile(view: string, files: Record<string, string> = {}): Template {
  const ws = new Workspace({ ssr: true });
  for (const [path, text] of Object.entries(files)) ws.setKitFile(path, text);
  ws.setKitFile(
    'site/home.kit',
    `package site\n\npage home\nroute "/x"\nguard public\n\nact Save POST "/x"\nact Other POST "/other"\n\nview {\n${view}\n}\n`,
  );
  ws.flush();
  const site = compileSite(ws, { cwd: repoRoot });
  assert.deepEqual(site.diagnostics, []);
  return site.pages.find((p) => p.pageId === 'home')!.ir;
}

/** The `<body>` of a render. */
function body(html: string): string {
  return html.slice(html.indexOf('<body>\n') + 7, html.lastIndexOf('\n</body>'));
}

function render(ir: Template, options?: FormRenderOptions, data: unknown = {}): { html: string; forms: FormRender } {
  const forms = new FormRender(options);
  return { html: body(renderTemplate(ir, data, {}, forms)), forms };
}

describe('build: forms rendered from the template', () => {
  describe('the CSRF field', () => {
    const cases: { name: string; view: string; count: number; data?: unknown; files?: Record<string, string> }[] = [
      { name: 'post form without action', view: '<form method="post"><input name="a" /></form>', count: 1 },
      { name: 'method in capitals, relative action', view: '<form METHOD="POST" action="/save">x</form>', count: 1 },
      { name: 'query-only action', view: `<form method="post" action="?x=1"></form>`, count: 1 },
      { name: 'a g:post form', view: '<form g:post={Save}><input name="a" /></form>', count: 1 },
      { name: 'get forms get nothing', view: '<form action="/s"></form><form method="get"></form>', count: 0 },
      { name: 'absolute URL', view: '<form method="post" action="https://other.example/x"></form>', count: 0 },
      { name: 'protocol-relative', view: '<form method="post" action="//other.example/x"></form>', count: 0 },
      { name: 'backslash trick', view: '<form method="post" action="/\\\\other.example"></form>', count: 0 },
      {
        name: 'entity-encoded protocol-relative',
        view: '<form method="post" action="&#47;/other.example"></form>',
        count: 0,
      },
      { name: 'inside a comment', view: '<!-- <form method="post"> --><p>x</p>', count: 0 },
      {
        name: 'inside raw text (noscript)',
        view: '<noscript><form method="post"></form></noscript><form method="post"></form>',
        count: 1,
      },
      { name: 'attribute value containing >', view: '<form data-x="a>b" method="post"></form>', count: 1 },
      {
        name: 'two forms',
        view: '<form method="post"></form><div><form method="post" action="/b"></form></div>',
        count: 2,
      },
      {
        name: 'a form of a component, called twice',
        view: '<Signup /><Signup />',
        files: {
          'site/signup.cmp.kit':
            'package site\n\ncomponent Signup\n\nview {\n  <form method="post"><input name="e" /></form>\n}\n',
        },
        count: 2,
      },
      {
        name: 'a form in a g:for loop',
        view: '<ul><li g:for={item in items}><form method="post" action="/i/{item}"></form></li></ul>',
        data: { items: ['a', 'b', 'c'] },
        count: 3,
      },
      {
        name: 'method and action as values: post to this origin',
        view: '<form method={m} action={a}></form>',
        data: { m: 'post', a: '/y' },
        count: 1,
      },
      {
        name: 'method and action as values: to another origin',
        view: '<form method={m} action={a}></form>',
        data: { m: 'post', a: 'https://other.example/' },
        count: 0,
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const ir = compile(c.view, c.files);
        const plain = body(renderTemplate(ir, c.data ?? {}, {}));
        const { html, forms } = render(ir, { token: () => 'TOK' }, c.data ?? {});
        assert.equal(forms.fields, c.count);
        const parts = html.split(FIELD);
        assert.equal(parts.length - 1, c.count);
        for (const p of parts.slice(0, -1)) assert.match(p, /<form[^<]*>$/, 'right after a form start tag');
        assert.equal(parts.join(''), plain, 'the page is otherwise as without form state');
        assert.equal(hasTokenForms(ir), c.count > 0 || c.data !== undefined, 'the template says whether it may');
      });
    }

    it('asks for the token once, and only when a field is written', () => {
      let asked = 0;
      const token = () => (asked++, 'TOK');
      render(compile('<form method="get"></form>'), { token });
      assert.equal(asked, 0);
      render(compile('<form method="post"></form><form method="post"></form>'), { token });
      assert.equal(asked, 1);
    });

    it('same-origin actions', () => {
      for (const a of [undefined, '', '/x', 'x/y', '?q', '#f', '/a:b']) assert.ok(isSameOriginAction(a), String(a));
      for (const a of ['//x', '/\\x', '\\x', 'http://x', 'mailto:a', 'data:text/html,x', '/a\nb'])
        assert.ok(!isSameOriginAction(a), a);
    });
  });

  describe('without form state', () => {
    it('a page with GET forms only keeps no form element: plain chunks, as fast as before', () => {
      const ir = compile(
        '<form action="/search"><input name="q" /><select name="s"><option>a</option></select></form>',
      );
      assert.ok(ir.nodes.every((n) => typeof n === 'string'));
      assert.equal(hasTokenForms(ir), false);
    });

    it('controls outside a form that may post are plain chunks', () => {
      const ir = compile('<input name="q" /><form method="post"><input name="a" /></form>');
      const els = JSON.stringify(ir.nodes).match(/"t":"el"/g) ?? [];
      assert.equal(els.length, 2, 'the form and its input');
    });
  });

  describe('a submission shown again', () => {
    const view =
      '<form g:post={Other}><input name="a" /></form>' +
      '<form g:post={Save}><input name="a" /><input type="password" name="p" />' +
      '<input type="hidden" name="h" value="kept" /><input type="file" name="f" /><input name="a" />' +
      '<!-- <input name="a"> --><textarea name="t">old</textarea>' +
      '<input type="checkbox" name="c" value="yes" checked /><input type="radio" name="r" value="1" />' +
      '<input type="radio" name="r" value="2" /><select name="s"><option value="x">X</option>' +
      '<option selected>Y &amp; Z</option></select><input name="n" value="{v}" placeholder="" /></form>';

    it('a probe records the forms written, their actions and their controls', () => {
      const { forms } = render(compile(view), { probe: true }, { v: 'w' });
      assert.deepEqual(
        forms.forms.map((f) => [f.method, f.action, [...f.names]]),
        [
          ['post', '/other', ['a']],
          ['post', '/x', ['a', 'p', 'h', 'f', 't', 'c', 'r', 's', 'n']],
        ],
      );
    });

    it('fills only the form it came from, and never passwords, files or hidden inputs', () => {
      const values = new Map([
        ['a', ['1', '"2"']],
        ['p', ['secret']],
        ['h', ['changed']],
        ['t', ['<new>']],
        ['r', ['2']],
        ['s', ['Y & Z']],
        ['n', ['']],
      ]);
      const { html } = render(compile(view), { refill: { form: 1, values, invalid: new Set(['t', 'c']) } }, { v: 'w' });
      assert.equal(
        html,
        '<form method="post" action="/other"><input name="a"></form>' +
          '<form method="post" action="/x"><input name="a" value="1"><input type="password" name="p">' +
          '<input type="hidden" name="h" value="kept"><input type="file" name="f">' +
          '<input name="a" value="&quot;2&quot;">' +
          '<textarea name="t" aria-invalid="true">&lt;new&gt;</textarea>' +
          '<input type="checkbox" name="c" value="yes" checked aria-invalid="true">' +
          '<input type="radio" name="r" value="1"><input type="radio" name="r" value="2" checked>' +
          '<select name="s"><option value="x">X</option><option selected>Y &amp; Z</option></select>' +
          '<input name="n" placeholder value></form>',
      );
    });

    it('keeps the form a partial failure answers, its CSRF field counted', () => {
      const { forms } = render(compile(view), {
        token: () => 'TOK',
        refill: { form: 0, values: new Map([['a', ['v']]]), invalid: new Set() },
        capture: { form: true },
      });
      assert.equal(
        forms.captured?.outer,
        `<form method="post" action="/other">${FIELD}<input name="a" value="v"></form>`,
      );
      assert.equal(forms.captured?.outerFields, 1);
      assert.equal(forms.fields, 2, 'the whole page has two');
    });

    it('keeps the element a g:target names, inner and outer', () => {
      const ir = compile(
        '<form g:post={Save} g:target="#out"><input name="a" /></form><div id="out"><p>{m}</p><form method="post"></form></div>',
      );
      const { forms } = render(ir, { token: () => 'TOK', capture: { id: 'out' } }, { m: 'hi' });
      assert.equal(forms.captured?.inner, `<p>hi</p><form method="post">${FIELD}</form>`);
      assert.equal(forms.captured?.outer, `<div id="out"><p>hi</p><form method="post">${FIELD}</form></div>`);
      assert.deepEqual([forms.captured?.innerFields, forms.captured?.outerFields, forms.fields], [1, 1, 2]);
    });
  });
});
