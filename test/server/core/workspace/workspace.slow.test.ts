// The workspace model updates by file: cross-file diagnostics follow edits and removals, an edit
// inside a view touches no other file, and any sequence of updates ends where a fresh load would.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { reparseKit } from '#grammar/index.js';
import { Workspace } from '#core/workspace/workspace.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';

const A = 'site/a.kit';
const B = 'site/b.kit';
const C = 'site/c.kit';

function page(route: string, opts: { paths?: string; view?: string; extra?: string } = {}): string {
  const paths = opts.paths ? `\npaths {\n  => { ${opts.paths} }\n}\n` : '';
  return `route "${route}"\nguard public\n${opts.extra ?? ''}${paths}\nview {\n  ${opts.view ?? '<main>Page</main>'}\n}\n`;
}

function setFile(w: Workspace, file: string, text: string): void {
  if (file.endsWith('.kit')) w.setKitFile(file, text);
  else w.setModule(file, text);
}

/** A fresh load in the order the CLI uses: `.kit` files first (sorted), then modules. */
function fresh(state: Map<string, string>, ssr: boolean): Workspace {
  const w = new Workspace({ ssr });
  const files = [...state.keys()].sort();
  for (const f of files.filter((x) => x.endsWith('.kit'))) setFile(w, f, state.get(f)!);
  for (const f of files.filter((x) => !x.endsWith('.kit'))) setFile(w, f, state.get(f)!);
  w.flush();
  return w;
}

const snapshot = (w: Workspace) => JSON.stringify(w.allDiagnostics());

const codes = (ds: Diagnostic[]) => ds.map((d) => d.code);
const sorted = (s: Set<string>) => [...s].sort();

describe('Workspace incremental updates', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = new Workspace({ ssr: false });
    ws.setKitFile(A, page('/blog/{slug}', { paths: 'slug: "a"' }));
    ws.setKitFile(B, page('/blog/{id}', { paths: 'id: "1"' }));
    ws.setKitFile(C, page('/about'));
    ws.flush();
  });

  it('reports duplicate_route in the later file with the related location in the other', () => {
    assert.deepEqual(codes(ws.diagnosticsFor(A)), []);
    const [dup] = ws.diagnosticsFor(B);
    assert.equal(dup.code, 'duplicate_route');
    assert.equal(dup.file, B);
    assert.deepEqual(dup.range, ws.kit(B)!.summary.route!.decl.range);
    assert.equal(dup.related?.length, 1);
    assert.equal(dup.related![0].file, A);
    assert.deepEqual(dup.related![0].range, ws.kit(A)!.summary.route!.decl.range);
    assert.deepEqual(codes(ws.diagnosticsFor(C)), []);
  });

  it("changing A's route clears B's diagnostic, and flush names B among the affected files", () => {
    ws.setKitFile(A, page('/news/{slug}', { paths: 'slug: "a"' }));
    const affected = ws.flush();
    assert.ok(affected.has(A) && affected.has(B), `affected: ${sorted(affected)}`);
    assert.ok(!affected.has(C), 'C has nothing to do with the blog routes');
    assert.deepEqual(codes(ws.diagnosticsFor(B)), []);
    assert.deepEqual(codes(ws.allDiagnostics()), []);
    // And back: the duplicate returns, again in B.
    ws.setKitFile(A, page('/blog/{slug}', { paths: 'slug: "a"' }));
    assert.ok(ws.flush().has(B));
    assert.deepEqual(codes(ws.diagnosticsFor(B)), ['duplicate_route']);
  });

  it('re-checks slot content when the component renames what its slot passes, and when the content changes', () => {
    const cmp = 'ui/list.cmp.kit';
    const caller = 'ui/people.kit';
    const list = (value: string) =>
      `component List\n\nview {\n  <ul><li g:for={x in xs} g:lane="server"><slot name="row" ${value}={x} /></li></ul>\n}\n`;
    const people = (lets: string) =>
      `route "/people"\nguard public\n\nview {\n  <List><template g:slot="row" ${lets}>{${lets.slice(4)}}</template></List>\n}\n`;
    ws.setKitFile(cmp, list('value'));
    ws.setKitFile(caller, people('let:value'));
    assert.deepEqual(codes(ws.diagnosticsFor(caller)), []);
    ws.setKitFile(cmp, list('item'));
    assert.ok(ws.flush().has(caller));
    const [d] = ws.diagnosticsFor(caller);
    assert.equal(d.code, 'unknown_slot_value');
    assert.match(d.message, /passes no value "value" \(it passes item\)/);
    ws.editKitFile(caller, '\n' + people('let:item'));
    assert.deepEqual(codes(ws.diagnosticsFor(caller)), []);
    ws.editKitFile(caller, people('let:iten'));
    assert.deepEqual(codes(ws.diagnosticsFor(caller)), ['unknown_slot_value']);
    assert.match(ws.diagnosticsFor(caller)[0].message, /did you mean let:item\?/);
  });

  it('a field read of a slot value follows what the component passes: a scalar prop, then page data', () => {
    const cmp = 'ui/card.cmp.kit';
    const caller = 'ui/cards.kit';
    const card = (value: string) =>
      `component Card\n\nprops {\n  title string\n}\n\nview {\n  <slot name="head" value={${value}} />\n}\n`;
    ws.setKitFile(cmp, card('title'));
    ws.setKitFile(
      caller,
      'route "/cards"\nguard public\n\nview {\n  <Card title="x"><template g:slot="head" let:value>{value.name}' +
        '</template></Card>\n}\n',
    );
    assert.deepEqual(codes(ws.diagnosticsFor(caller)), ['slot_value_not_object']);
    assert.match(ws.diagnosticsFor(caller)[0].message, /passes a string \(prop title\) as value: it has no field name/);
    ws.setKitFile(cmp, card('person'));
    assert.ok(ws.flush().has(caller));
    assert.deepEqual(codes(ws.diagnosticsFor(caller)), []);
    ws.editKitFile(cmp, card('title'));
    assert.deepEqual(codes(ws.diagnosticsFor(caller)), ['slot_value_not_object']);
  });

  it('removing a file clears the cross-file diagnostics it caused and those it held', () => {
    ws.remove(A);
    const affected = ws.flush();
    assert.deepEqual(sorted(affected), [A, B].sort());
    assert.deepEqual(codes(ws.allDiagnostics()), []);
    assert.deepEqual(ws.diagnosticsFor(A), []);
    ws.setKitFile(A, page('/blog/{slug}', { paths: 'slug: "a"' }));
    ws.flush();
    assert.deepEqual(codes(ws.diagnosticsFor(B)), ['duplicate_route']);
    // Now the file holding the diagnostic goes: nothing is left anywhere.
    ws.remove(B);
    assert.ok(ws.flush().has(B));
    assert.deepEqual(ws.allDiagnostics(), []);
    assert.equal(ws.has(B), false);
  });

  it('an edit inside a view that leaves declarations unchanged touches no other file', () => {
    const before = ws.diagnosticsFor(B);
    ws.setKitFile(
      A,
      page('/blog/{slug}', { paths: 'slug: "a"', view: '<main><h1>Edited {slug}</h1><p>More text</p></main>' }),
    );
    assert.deepEqual(sorted(ws.flush()), [A]);
    assert.deepEqual(ws.diagnosticsFor(B), before);
    // Editing the view of the file that holds the diagnostic keeps it too.
    ws.setKitFile(B, page('/blog/{id}', { paths: 'id: "1"', view: '<main>Changed</main>' }));
    assert.deepEqual(sorted(ws.flush()), [B]);
    assert.deepEqual(ws.diagnosticsFor(B), before);
  });

  it('an edit that only moves the declarations B points at re-validates B with the new range', () => {
    ws.setKitFile(A, `// a comment line above\n${page('/blog/{slug}', { paths: 'slug: "a"' })}`);
    const affected = ws.flush();
    assert.ok(affected.has(B));
    assert.ok(!affected.has(C));
    const [dup] = ws.diagnosticsFor(B);
    assert.equal(dup.related![0].range.start.line, 1);
    assert.deepEqual(dup.related![0].range, ws.kit(A)!.summary.route!.decl.range);
  });

  it('diagnostics follow edits that only move what they point at (guards, handler symbols)', () => {
    // Each edit moves one thing only (nothing the fingerprint already tracks comes after it).
    const guardLast = 'route "/p"\n\nact Save POST\nguard auth.required\n\nview {\n  <main>x</main>\n}\n';
    const actLast = 'route "/p"\nguard auth.required\n\nact Save POST\n\nview {\n  <main>x</main>\n}\n';
    const pairs: [string, string][] = [
      [guardLast, guardLast.replace('guard auth', 'guard   auth')],
      [actLast, actLast.replace('act Save', 'act    Save')],
    ];
    const invalid = (t: string) => t.replace('"/p"', '"p"'); // an invalid route registers no endpoint
    for (const [a, b] of [...pairs, ...pairs.map(([x, y]): [string, string] => [invalid(x), invalid(y)])]) {
      const w = new Workspace();
      w.setKitFile('x/p.kit', a);
      w.flush();
      w.setKitFile('x/p.kit', b);
      w.flush();
      const expected = fresh(new Map([['x/p.kit', b]]), false);
      assert.ok(expected.allDiagnostics().some((d) => d.code === 'unknown_guard'));
      assert.ok(expected.allDiagnostics().some((d) => d.code === 'missing_backend_handler'));
      assert.equal(snapshot(w), snapshot(expected));
    }
  });

  it('follows a handler module: a //kit: comment endpoint conflicts with a page API until it moves', () => {
    ws.setKitFile(C, page('/status', { extra: '\napi Health GET "/api/health"\n' }));
    ws.setModule('site/handlers.ts', '//kit:api GET /api/health\n//kit:guard public\nexport function Check() {}\n');
    ws.flush();
    // site/c.kit sorts before site/handlers.ts, so the comment endpoint is the later declaration.
    const conflict = ws.diagnosticsFor('site/handlers.ts').find((d) => d.code === 'route_method_conflict');
    assert.ok(conflict, codes(ws.diagnosticsFor('site/handlers.ts')).join(', '));
    assert.equal(conflict.related?.[0].file, C);
    assert.match(conflict.message, /^GET \/api\/health for api site\.Check conflicts with api c\.Health$/);
    ws.setModule('site/handlers.ts', '//kit:api GET /api/check\n//kit:guard public\nexport function Check() {}\n');
    assert.ok(ws.flush().has('site/handlers.ts'));
    assert.equal(
      ws.allDiagnostics().some((d) => d.code === 'route_method_conflict'),
      false,
    );
  });

  it('broken_internal_link follows edits: a page added, its route changed, the link fixed', () => {
    const L = 'site/links.kit';
    const broken = () => ws.diagnosticsFor(L).filter((d) => d.code === 'broken_internal_link');
    ws.setKitFile(L, page('/links', { view: '<a href="/contact?x=1">C</a> <a href="/blog/any">B</a>' }));
    assert.deepEqual(
      broken().map((d) => d.message),
      ['links: link "/contact?x=1" matches no page or GET endpoint of the workspace'],
    );
    ws.setKitFile(C, page('/contcat'));
    assert.match(broken()[0].message, /; did you mean "\/contcat"\?$/);
    ws.setKitFile(C, page('/contact'));
    assert.deepEqual(broken(), []);
    ws.remove(C);
    assert.equal(broken().length, 1);
    // A link into a dynamic route matches by shape; removing the routes of that shape breaks it.
    ws.remove(A);
    ws.remove(B);
    assert.deepEqual(
      broken().map((d) => /link "([^"]+)"/.exec(d.message)?.[1]),
      ['/contact?x=1', '/blog/any'],
    );
    ws.setKitFile(L, page('/links', { view: '<a href="/links#top">C</a>' }));
    assert.deepEqual(broken(), []);
  });

  it("re-reads a directory's handler modules when a .kit file there changes the package", () => {
    ws.setModule('site/handlers.ts', '//kit:api GET /blog/{slug}\n//kit:guard public\nexport function Blog() {}\n');
    ws.flush();
    const owner = () => ws.diagnosticsFor('site/handlers.ts').find((d) => d.code === 'route_method_conflict')?.message;
    assert.match(owner() ?? '', /for api site\.Blog conflicts with page a$/);
    ws.setKitFile(A, `package shop\n${page('/blog/{slug}', { paths: 'slug: "a"' })}`);
    ws.flush();
    assert.match(owner() ?? '', /for api shop\.Blog conflicts with page a$/);
    ws.remove(A);
    ws.flush();
    assert.match(owner() ?? '', /for api site\.Blog conflicts with page b$/);
  });
});

// ---- randomized: incremental == fresh -------------------------------------------------------

/** Each file of the pool and the versions it can take; every version meets others in some rule. */
const POOL: Record<string, string[]> = {
  'app/a.kit': [
    page('/blog/{slug}', { paths: 'slug: "a"' }),
    page('/shop/{category}/{slug}', { paths: 'category: "c", slug: "s"' }),
    page('/docs/{path...}', { extra: '\nserver {\n  => { doc }\n}\n' }),
    page('/api/ping', { view: '<main><Card title="x" /></main>' }),
    'page b\n' + page('/pages/a'),
    page('/status', { extra: '\napi Health GET "/api/health"\nact Save POST\n', view: '<form g:post={Save}></form>' }),
    // Same shapes as versions above with every range moved: diagnostics must follow the ranges.
    '// moved down a line\n' + page('/blog/{slug}', { paths: 'slug: "a"' }),
    'route "/secure"\nguard auth.required, role:ops\n\nview {\n  <main>Secure</main>\n}\n',
    'route "/secure"\nguard  auth.required,   role:ops\n\nview {\n  <main>Secure</main>\n}\n',
    // An invalid route registers nothing, but its handlers are still bound.
    'route "relative"\nguard public\n\nact Save POST\n\nview {\n  <main>x</main>\n}\n',
    'route "relative"\nguard public\n\nact   Save POST\nact Extra POST\n\nview {\n  <main>x</main>\n}\n',
    // The routes of the first version under another page ID, and the same shape under another name:
    // links see the second change (their suggestion names the pattern), not the first.
    'page renamed\n' + page('/blog/{slug}', { paths: 'slug: "a"' }),
    page('/blog/{post}', { paths: 'post: "a"' }),
  ],
  'app/kit.config.ts': [
    'export const guards = {\n  "auth.required": () => true,\n};\n',
    'export const guards = {};\n',
    'export const guards = make();\n',
  ],
  'app/b.kit': [
    page('/blog/{id}', { paths: 'id: "1"' }),
    page('/shop/{slug}/edit', { paths: 'slug: "s"' }),
    page('/docs/guides/intro'),
    'package shop\n' + page('/b', { view: '<main><Card /><Missing /></main>' }),
    page('/api/health', { extra: 'layout main\n' }),
  ],
  'app/card.cmp.kit': [
    'component Card\n\nprops {\n  title string\n}\n\nview {\n  <div>{title}</div>\n}\n',
    'component Card\n\nview {\n  <div><Badge /></div>\n}\n',
  ],
  'app/badge.cmp.kit': [
    'component Badge\n\nview {\n  <span><Card /></span>\n}\n',
    'component Card\n\nview {\n  <span>Duplicate name</span>\n}\n',
  ],
  'app/main.layout.kit': ['view {\n  <div><slot /></div>\n}\n', 'layout outer\n\nview {\n  <div><slot /></div>\n}\n'],
  'app/outer.layout.kit': ['layout main\n\nview {\n  <div><slot /></div>\n}\n', 'view {\n  <div><slot /></div>\n}\n'],
  'app/handlers.ts': [
    '//kit:api GET /api/health\n//kit:guard public\nexport function Health() {}\n',
    '//kit:act POST /status\nexport function Save() {}\n\nexport function Health() {}\n',
    'export function Save() {}\n',
  ],
  'lib/b.kit': [
    page('/blog/{other}', { paths: 'other: "o"' }),
    page('/lib/{x}', { paths: 'x: "1"' }),
    'package app\n' + page('/lib'),
  ],
  'app/links.kit': [
    page('/links', {
      view: '<nav><a href="/blog/x">B</a> <a href="/statsu">S</a> <a href="/docs/a/b">D</a> <a href="/lib?x=1">L</a></nav>',
    }),
    page('/links', { view: '<nav><a href="/blgo/x">B</a> <a href="/shp/c/s">S</a></nav>' }),
    '// moved down a line\n' +
      page('/links', {
        view: '<nav><a href="/blog/x">B</a> <a href="/statsu">S</a> <a href="/docs/a/b">D</a> <a href="/lib?x=1">L</a></nav>',
      }),
    page('/links', {
      extra: 'layout mian\n',
      view: '<nav><a href="/shop/c/s">S</a><form action="/lib" method="post"></form><a href="/pages/a">P</a></nav>',
    }),
  ],
  'lib/handlers.ts': [
    '//kit:api GET /blog/{id}\n//kit:guard public\nexport function Blog() {}\n',
    '//kit:api POST /lib\n//kit:guard public\nexport function Lib() {}\n',
  ],
};
const POOL_FILES = Object.keys(POOL);

type Op = { file: string; version: number | 'remove' };
const opArb: fc.Arbitrary<Op> = fc.constantFrom(...POOL_FILES).chain((file) =>
  fc.record({
    file: fc.constant(file),
    version: fc.oneof(fc.integer({ min: 0, max: POOL[file].length - 1 }), fc.constant('remove' as const)),
  }),
);

describe('Workspace incremental updates equal a fresh load (randomized)', function () {
  this.timeout(60000);

  it('any sequence of set/remove over a small pool of files ends with the diagnostics of a fresh load', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(opArb, { minLength: 1, maxLength: 14 }), (ssr, ops) => {
        const w = new Workspace({ ssr });
        const state = new Map<string, string>();
        for (const [i, op] of ops.entries()) {
          if (op.version === 'remove') {
            w.remove(op.file);
            state.delete(op.file);
          } else {
            const text = POOL[op.file][op.version];
            setFile(w, op.file, text);
            state.set(op.file, text);
          }
          // Flush at some steps only, so that several updates also meet in one flush.
          if (i % 2 === 1) w.flush();
        }
        w.flush();
        assert.equal(snapshot(w), snapshot(fresh(state, ssr)));
        for (const f of state.keys()) assert.deepEqual(w.diagnosticsFor(f), fresh(state, ssr).diagnosticsFor(f));
      }),
      { numRuns: 100 },
    );
  });

  it('moves cross-file diagnostics when an edit of the same length adds a line break above them', () => {
    const text =
      'package site\n\npage p\nroute "/p"\nguard public\n\nview {\n  <main>\n    <Missing />\n  </main>\n}\n';
    const at = text.indexOf('<main>') + 2;
    const next = text.slice(0, at) + '\n' + text.slice(at + 1);
    const ws = new Workspace({ ssr: false });
    ws.setKitFile(A, text);
    ws.flush();
    const prev = ws.kit(A)!;
    ws.setKitFile(A, next, reparseKit(prev.ast, prev.text, next));
    ws.flush();
    const fresh = new Workspace({ ssr: false });
    fresh.setKitFile(A, next);
    assert.deepEqual(
      JSON.parse(JSON.stringify(ws.allDiagnostics())),
      JSON.parse(JSON.stringify(fresh.allDiagnostics())),
    );
    assert.ok(ws.allDiagnostics().some((d) => d.code === 'unknown_component' && d.range.start.line === 9));
  });
});
