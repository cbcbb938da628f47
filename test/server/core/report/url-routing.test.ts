// What serves a request path, as the editor answers it (`core/report/url-routing.ts`), on small
// workspaces that isolate each rule of the app's dispatch: the router's precedence among the routes
// that match, typed params deciding between routes, query contracts for JSON requests only,
// path-less actions of dynamic pages limited to their built paths, and long paths past the
// bucket enumeration. And which links follow a renamed route (`route-rename.ts`).
import assert from 'node:assert/strict';
import { parseRoutePattern } from '#shared/route/index.js';
import { Workspace } from '#core/workspace/workspace.js';
import { answerRequest, answersAt, linksReaching } from '#core/report/url-routing.js';
import { planRouteRename, renamedRegistrations } from '#core/report/route-rename.js';

function workspace(files: Record<string, string>): Workspace {
  const ws = new Workspace({ ssr: true });
  for (const [path, text] of Object.entries(files)) ws.setKitFile(path, text);
  ws.flush();
  return ws;
}

function page(id: string, route: string, extra = '', view = '<main></main>'): string {
  return `package site\n\npage ${id}\nroute "${route}"\nguard public\n${extra}\nview {\n  ${view}\n}\n`;
}

const ssr = 'server {\n  => { title }\n}\n';

function owner(ws: Workspace, method: string, target: string, json = false): string {
  const a = answerRequest(ws, method, target, { json });
  return a.registration ? `${a.status} ${a.registration.owner}` : `${a.status}${a.location ? ` ${a.location}` : ''}`;
}

describe('url routing: what serves a request', () => {
  it('ranks the matching routes as the router does: static, typed that decodes, param, rest, typed that does not', () => {
    const ws = workspace({
      'a.kit': page('static', '/n/new', ssr),
      'b.kit': page('int', '/n/{id:int}', ssr),
      'd.kit': page('rest', '/n/{path...}', ssr),
      'e.kit': page('bool', '/m/{flag:bool}', ssr),
      'f.kit': page('deep', '/m/{x}/deep', ssr),
      'g.kit': page('plain', '/p/{slug}', ssr),
      'h.kit': page('uint', '/p/{n:uint}/x', ssr),
    });
    assert.equal(owner(ws, 'GET', '/n/new'), '200 page static');
    assert.equal(owner(ws, 'GET', '/n/42'), '200 page int');
    // A value the int route does not decode goes to the rest route first.
    assert.equal(owner(ws, 'GET', '/n/abc'), '200 page rest');
    assert.equal(owner(ws, 'GET', '/n/a/b'), '200 page rest');
    assert.equal(owner(ws, 'GET', '/p/7'), '200 page plain');
    assert.equal(owner(ws, 'GET', '/p/7/x'), '200 page uint');
    assert.equal(owner(ws, 'GET', '/p/-7/x'), '400 page uint');
    // `/m/yes/deep`: the bool route dead-ends, the router backtracks to the param one.
    assert.equal(owner(ws, 'GET', '/m/yes/deep'), '200 page deep');
    assert.equal(owner(ws, 'GET', '/m/yes'), '400 page bool');
    assert.equal(owner(ws, 'GET', '/m/true'), '200 page bool');
  });

  it('redirects a GET with a trailing slash, and serves other methods at the path without it', () => {
    const ws = workspace({ 'a.kit': page('a', '/a', 'act Go POST') });
    assert.equal(owner(ws, 'GET', '/a/?q=1'), '308 /a?q=1');
    assert.equal(owner(ws, 'POST', '/a/'), '200 action a.Go');
    assert.equal(owner(ws, 'HEAD', '/a'), '200 page a');
    assert.equal(owner(ws, 'DELETE', '/a'), '405');
    assert.deepEqual(answerRequest(ws, 'DELETE', '/a').allow, ['GET', 'POST']);
  });

  it('answers JSON requests with a query contract and HTML requests with the page', () => {
    const ws = workspace({ 'p.kit': page('p', '/patients', '', '<ul g:query="ListPatients"></ul>') });
    assert.equal(owner(ws, 'GET', '/patients', true), '200 query contract ListPatients');
    assert.equal(owner(ws, 'GET', '/patients'), '200 page p');
    assert.deepEqual(
      answersAt(ws, '/patients').map((a) => `${a.method} ${a.registration?.owner} ${a.note ?? ''}`.trim()),
      ['GET page p', 'GET query contract ListPatients for requests that ask for JSON'],
    );
  });

  it('limits a path-less action of a dynamic SPA page to its built paths, as the app does', () => {
    const records = 'paths {\n  => { slug: "one" }\n}\nact Like POST\n';
    const ws = workspace({ 'b.kit': page('b', '/b/{slug}', records) });
    assert.equal(owner(ws, 'POST', '/b/one'), '200 action b.Like');
    assert.equal(owner(ws, 'POST', '/b/two'), '404');
    assert.equal(owner(ws, 'GET', '/b/two'), '404');
    assert.equal(answerRequest(ws, 'GET', '/b/two').near?.owner, 'page b');
    assert.equal(answerRequest(ws, 'GET', '/b/one').record?.fields[0].name.text, 'slug');
  });

  it('answers paths longer than the enumerated shapes from every route', () => {
    const deep = '/a/b/c/d/e/f/g/h/i/j/k/{rest...}';
    const ws = workspace({ 'd.kit': page('d', deep, ssr) });
    const a = answerRequest(ws, 'GET', '/a/b/c/d/e/f/g/h/i/j/k/l/m');
    assert.deepEqual([a.registration?.owner, a.params], ['page d', { rest: 'l/m' }]);
  });

  it('finds the links reaching a route across files, never those another route wins', () => {
    const ws = workspace({
      'a.kit': page('a', '/{page}', ssr),
      'b.kit': page('b', '/about'),
      'c.kit': page('c', '/c', '', '<a href="/about">a</a> <a href="/x">x</a> <a href="/y/">y</a>'),
    });
    const targets = ws.kit('a.kit')!.registrations;
    assert.deepEqual(
      linksReaching(ws, targets).map((l) => `${l.file} ${l.link.href}`),
      ['c.kit /x', 'c.kit /y/'],
    );
  });
});

describe('url routing: the links a renamed route takes along', () => {
  function plan(files: Record<string, string>, file: string, to: string) {
    const ws = workspace(files);
    const e = ws.kit(file)!;
    const targets = renamedRegistrations(e, e.summary.route!.decl.range);
    const p = planRouteRename(ws, targets, e.summary.route!.parsed, parseRoutePattern(to));
    return {
      rewrites: p.rewrites.map((w) => `${w.link.href} → ${w.href}`),
      left: p.left.map((l) => `${l.link.href}: ${l.reason}`),
    };
  }

  it('carries values by name, keeps the query, fragment and trailing slash, and moves rest segments whole', () => {
    const links = '<a href="/docs/a/b?x=1">1</a> <a href="/docs/c/#top">2</a>';
    const r = plan(
      { 'd.kit': page('d', '/docs/{path...}', ssr), 'l.kit': page('l', '/l', '', links) },
      'd.kit',
      '/manual/{path...}',
    );
    assert.deepEqual(r, { rewrites: ['/docs/a/b?x=1 → /manual/a/b?x=1', '/docs/c/#top → /manual/c/#top'], left: [] });
    const swapped = plan(
      { 'p.kit': page('p', '/p/{a}/{b}', ssr), 'l.kit': page('l', '/l', '', '<a href="/p/1/2">1</a>') },
      'p.kit',
      '/q/{b}/{a}',
    );
    assert.deepEqual(swapped.rewrites, ['/p/1/2 → /q/2/1']);
  });

  it('leaves a link whose values the new pattern cannot carry, or that would decode no more', () => {
    const files = { 'u.kit': page('u', '/u/{id}', ssr), 'l.kit': page('l', '/l', '', '<a href="/u/ada">1</a>') };
    assert.deepEqual(plan(files, 'u.kit', '/u/{id}/{tab}').left, [
      "/u/ada: the new pattern's {tab} has no value in this link",
    ]);
    assert.deepEqual(plan(files, 'u.kit', '/people').left, [
      '/u/ada: the new pattern drops {id}, whose value the link gives',
    ]);
    assert.deepEqual(plan(files, 'u.kit', '/u/{id:int}').left, ['/u/ada: its {id} value "ada" is not an int']);
  });

  it('leaves a link that another route would win or also match after the rename', () => {
    const files = {
      'b.kit': page('b', '/blog/{slug}', ssr),
      'a.kit': page('a', '/about'),
      'x.kit': page('x', '/x/{y}', ssr),
      'l.kit': page('l', '/l', '', '<a href="/blog/about">1</a> <a href="/blog/one">2</a>'),
    };
    assert.deepEqual(plan(files, 'b.kit', '/{slug}').left, [
      '/blog/about: "/about" would be answered by page a ("/about") instead',
    ]);
    assert.deepEqual(plan(files, 'b.kit', '/{slug}').rewrites, ['/blog/one → /one']);
    assert.deepEqual(plan(files, 'b.kit', '/{slug}/{y}').left, [
      "/blog/about: the new pattern's {y} has no value in this link",
      "/blog/one: the new pattern's {y} has no value in this link",
    ]);
    assert.deepEqual(plan(files, 'b.kit', '/x/{slug}').left, [
      // The same shape as `/x/{y}` (a duplicate route): the router keeps the first declared, but both match.
      '/blog/about: "/x/about" would also match page x ("/x/{y}")',
      '/blog/one: "/x/one" would also match page x ("/x/{y}")',
    ]);
  });

  it('keeps a query written with character references as it is written', () => {
    const r = plan(
      { 'b.kit': page('b', '/b/{s}', ssr), 'l.kit': page('l', '/l', '', '<a href="/b/x?a=1&amp;b=2">1</a>') },
      'b.kit',
      '/c/{s}',
    );
    assert.deepEqual(r.rewrites, ['/b/x?a=1&amp;b=2 → /c/x?a=1&amp;b=2']);
  });
});
