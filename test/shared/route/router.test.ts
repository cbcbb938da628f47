import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { fixture } from '../../helpers/repo.js';
import { checkRequestTarget, compileRouter, matchRoute, parseRoutePattern, splitPath } from '#shared/route/index.js';

interface Conformance {
  routes: { method: string; pattern: string }[];
  cases: {
    method: string;
    path: string;
    expect: { pattern: string; params: Record<string, string> } | null;
    status?: 400 | 404;
    redirect?: string;
    allow?: string[];
    note: string;
  }[];
}

const table = JSON.parse(readFileSync(fixture('route', 'router-conformance.json'), 'utf8')) as Conformance;

function orders(): [string, Conformance['routes']][] {
  const r = table.routes;
  const half = Math.floor(r.length / 2);
  return [
    ['declared order', r],
    ['reversed', [...r].reverse()],
    ['rotated', [...r.slice(half), ...r.slice(0, half)]],
  ];
}

describe('shared/route router conformance table', () => {
  it('has a meaningful table', () => {
    assert.ok(table.routes.length >= 20 && table.cases.length >= 50);
  });
  for (const [orderName, routes] of orders()) {
    describe(`routes in ${orderName}`, () => {
      const { router, errors } = compileRouter(
        routes.map((r) => ({ method: r.method, pattern: r.pattern, value: r.pattern })),
      );
      it('registers every route without errors', () => {
        assert.deepEqual(errors, []);
        assert.equal(router.size, routes.length);
      });
      for (const c of table.cases) {
        it(`${c.method} ${JSON.stringify(c.path)} — ${c.note}`, () => {
          const target = checkRequestTarget(c.path);
          if (c.status !== undefined) {
            assert.equal(c.expect, null);
            assert.equal(target.ok, false);
            if (!target.ok) assert.equal(target.status, c.status);
            return;
          }
          assert.ok(target.ok, `target accepted: ${JSON.stringify(target)}`);
          if (!target.ok) return;
          if (c.redirect !== undefined) {
            assert.equal(c.expect, null);
            assert.equal(target.trailingSlash, true);
            assert.equal(target.path + target.query, c.redirect);
            return;
          }
          assert.equal(target.trailingSlash, false);
          const m = router.lookup(c.method, target.segments);
          if (c.expect === null) assert.equal(m, undefined, `unexpected match ${m?.route.pattern}`);
          else {
            assert.ok(m, 'a match');
            assert.equal(m.value, c.expect.pattern);
            assert.equal(m.route.pattern, c.expect.pattern);
            assert.deepEqual(m.params, c.expect.params);
            // The single-pattern matcher agrees with the router on the winner.
            assert.deepEqual(matchRoute(parseRoutePattern(c.expect.pattern), target.segments), c.expect.params);
          }
          if (c.allow !== undefined) assert.deepEqual(router.allowedMethods(target.segments), c.allow);
        });
      }
    });
  }
});

describe('shared/route compileRouter', () => {
  it('#76: a duplicate concrete route is a registration error, not a throw', () => {
    const { router, errors } = compileRouter([
      { method: 'GET', pattern: '/a', value: 1 },
      { method: 'GET', pattern: '/a', value: 2 },
    ]);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].index, 1);
    assert.match(errors[0].message, /GET \/a has the same shape \(\/a\) as GET \/a registered first \(entry 0\)/);
    assert.equal(router.size, 1);
    assert.equal(router.lookup('GET', ['a'])?.value, 1, 'the first registration stays');
  });

  it('#76: /blog/{slug} and /blog/{id} with the same method collide; with different methods they do not', () => {
    const same = compileRouter([
      { method: 'GET', pattern: '/blog/{slug}', value: 1 },
      { method: 'GET', pattern: '/blog/{id}', value: 2 },
    ]);
    assert.equal(same.errors.length, 1);
    assert.match(same.errors[0].message, /same shape \(\/blog\/\{\}\)/);
    const other = compileRouter([
      { method: 'GET', pattern: '/blog/{slug}', value: 1 },
      { method: 'POST', pattern: '/blog/{id}', value: 2 },
    ]);
    assert.deepEqual(other.errors, []);
    assert.deepEqual(other.router.lookup('POST', ['blog', 'x'])?.params, { id: 'x' });
    assert.deepEqual(other.router.lookup('GET', ['blog', 'x'])?.params, { slug: 'x' });
  });

  it('typed and untyped params of one shape collide, as do two rest names', () => {
    const { errors } = compileRouter([
      { method: 'GET', pattern: '/p/{id:int}', value: 1 },
      { method: 'GET', pattern: '/p/{name}', value: 2 },
      { method: 'GET', pattern: '/docs/{path...}', value: 3 },
      { method: 'GET', pattern: '/docs/{rest...}', value: 4 },
    ]);
    assert.deepEqual(
      errors.map((e) => e.index),
      [1, 3],
    );
  });

  it('#76: /blog/archive wins over /blog/{slug} in either registration order', () => {
    for (const entries of [
      [
        { method: 'GET', pattern: '/blog/{slug}', value: 'slug' },
        { method: 'GET', pattern: '/blog/archive', value: 'archive' },
      ],
      [
        { method: 'GET', pattern: '/blog/archive', value: 'archive' },
        { method: 'GET', pattern: '/blog/{slug}', value: 'slug' },
      ],
    ]) {
      const { router } = compileRouter(entries);
      assert.equal(router.lookup('GET', ['blog', 'archive'])?.value, 'archive');
      assert.equal(router.lookup('GET', ['blog', 'other'])?.value, 'slug');
    }
  });

  it('reports invalid patterns with their messages and index', () => {
    const { router, errors } = compileRouter([
      { method: 'GET', pattern: '/ok', value: 0 },
      { method: 'GET', pattern: '/docs/{slug?}', value: 1 },
      { method: '', pattern: '/x', value: 2 },
    ]);
    assert.equal(router.size, 1);
    assert.deepEqual(
      errors.map((e) => e.index),
      [1, 2],
    );
    assert.match(errors[0].message, /optional route parameters are not supported/);
    assert.match(errors[1].message, /needs an HTTP method/);
  });

  it('accepts parsed routes as well as strings', () => {
    const route = parseRoutePattern('/u/{id:uint}');
    const { router } = compileRouter([{ method: 'GET', pattern: route, value: 'u' }]);
    const m = router.lookup('GET', ['u', '9']);
    assert.equal(m?.route, route);
    assert.deepEqual(m?.params, { id: '9' });
  });

  it('never captures empty, dot-like, separator or control segments, even when called directly', () => {
    const { router } = compileRouter([
      { method: 'GET', pattern: '/a/{x}', value: 'x' },
      { method: 'GET', pattern: '/r/{p...}', value: 'p' },
    ]);
    for (const bad of ['', '.', '..', '...', 'a/b', 'a\\b', 'a\u0000', 'a\nb']) {
      assert.equal(router.lookup('GET', ['a', bad]), undefined, JSON.stringify(bad));
      assert.equal(router.lookup('GET', ['r', 'ok', bad]), undefined, JSON.stringify(bad));
    }
    assert.deepEqual(router.lookup('GET', ['r', 'ok', 'fine'])?.params, { p: 'ok/fine' });
  });

  it('matches the root and nothing else for []', () => {
    const { router } = compileRouter([
      { method: 'GET', pattern: '/', value: 'root' },
      { method: 'GET', pattern: '/{x}', value: 'x' },
    ]);
    assert.equal(router.lookup('GET', [])?.value, 'root');
    assert.equal(router.lookup('GET', ['a'])?.value, 'x');
    assert.deepEqual(router.allowedMethods([]), ['GET']);
    assert.deepEqual(router.allowedMethods(['a', 'b']), []);
  });

  it('orders allowed methods conventionally, unknown methods last', () => {
    const { router } = compileRouter(
      ['PURGE', 'DELETE', 'POST', 'GET', 'PATCH'].map((method) => ({ method, pattern: '/x', value: method })),
    );
    assert.deepEqual(router.allowedMethods(['x']), ['GET', 'POST', 'PATCH', 'DELETE', 'PURGE']);
  });

  it('returns fresh params objects (no aliasing between lookups)', () => {
    const { router } = compileRouter([{ method: 'GET', pattern: '/a/{x}/{y}', value: 1 }]);
    const first = router.lookup('GET', ['a', '1', '2']);
    const second = router.lookup('GET', ['a', '3', '4']);
    assert.deepEqual(first?.params, { x: '1', y: '2' });
    assert.deepEqual(second?.params, { x: '3', y: '4' });
  });

  it('stays exact with thousands of routes', () => {
    const entries = [];
    for (let i = 0; i < 3000; i++) {
      entries.push({ method: 'GET', pattern: `/s${i}/page`, value: `s${i}` });
      entries.push({ method: 'GET', pattern: `/d${i}/{id:int}/{slug}`, value: `d${i}` });
    }
    entries.push({ method: 'GET', pattern: '/{all...}', value: 'fallback' });
    const { router, errors } = compileRouter(entries);
    assert.deepEqual(errors, []);
    assert.equal(router.lookup('GET', ['s2999', 'page'])?.value, 's2999');
    assert.deepEqual(router.lookup('GET', ['d1234', '5', 'x'])?.params, { id: '5', slug: 'x' });
    assert.deepEqual(router.lookup('GET', ['s1', 'other'])?.params, { all: 's1/other' });
  });
});

describe('shared/route matchRoute (2.5 #66-#71)', () => {
  const m = (pattern: string, path: string) => matchRoute(parseRoutePattern(pattern), splitPath(path));
  it('#66', () => {
    assert.deepEqual(m('/blog/{slug}', '/blog/hello'), { slug: 'hello' });
    assert.deepEqual(m('/patients/{id:int}', '/patients/42'), { id: '42' });
    assert.deepEqual(m('/patients/{id:int}', '/patients/abc'), { id: 'abc' });
  });
  it('#67', () => {
    assert.equal(m('/blog/{slug}', '/blog/hello/edit'), undefined);
    assert.equal(m('/blog/{slug}', '/docs/hello'), undefined);
  });
  it('#68', () => {
    assert.deepEqual(m('/docs/{path...}', '/docs/guides/routing/rest'), { path: 'guides/routing/rest' });
    assert.deepEqual(m('/docs/{path...}', '/docs/intro'), { path: 'intro' });
    assert.deepEqual(m('/docs/{lang}/{path...}', '/docs/en/guides/routing'), { lang: 'en', path: 'guides/routing' });
  });
  it('#69', () => {
    for (const path of ['/docs', '/docs/', '/blog/x', '/blog/x/y'])
      assert.equal(m('/docs/{path...}', path), undefined, path);
  });
  it('#70', () => {
    for (const path of ['/docs/a/../admin', '/docs/../docs/a', '/docs//a', '/docs/./a', '/docs/a/..'])
      assert.equal(m('/docs/{path...}', path), undefined, path);
  });
  it('#71', () => {
    for (const path of ['//admin', '/admin//', '///admin']) assert.equal(m('/admin', path), undefined, path);
    assert.equal(m('/blog/post', '/blog//post'), undefined);
    for (const path of ['/blog/.', '/blog/..', '/blog/a/../b', '/blog/./b', '/blog//b'])
      assert.equal(m('/blog/{slug}', path), undefined, path);
    assert.deepEqual(m('/admin', '/admin'), {});
    assert.deepEqual(m('/', '/'), {});
  });
  it('an invalid pattern matches nothing', () => {
    assert.equal(m('/docs/{slug?}', '/docs/{slug?}'), undefined);
  });
});

describe('shared/route compiled router: backtracking where one candidate is left', () => {
  const lookup = (patterns: string[], path: string) => {
    const { router, errors } = compileRouter(patterns.map((p) => ({ method: 'GET', pattern: p, value: p })));
    assert.deepEqual(errors, []);
    const target = checkRequestTarget(path);
    assert.ok(target.ok);
    const m = target.ok ? router.lookup('GET', target.segments) : undefined;
    return m && { pattern: m.value, params: { ...m.params } };
  };

  it('a lone typed child takes segments that do not decode as its type (the binding answers 400 later)', () => {
    assert.deepEqual(lookup(['/a/{n:int}/z'], '/a/q/z'), { pattern: '/a/{n:int}/z', params: { n: 'q' } });
    assert.deepEqual(lookup(['/a/{n:int}/z'], '/a/7/z'), { pattern: '/a/{n:int}/z', params: { n: '7' } });
    assert.equal(lookup(['/a/{n:int}/z'], '/a/7/y'), undefined);
  });

  it('a static child that dead-ends falls back to the param beside it', () => {
    const routes = ['/a/lit/c', '/a/{x}/b'];
    assert.deepEqual(lookup(routes, '/a/lit/b'), { pattern: '/a/{x}/b', params: { x: 'lit' } });
    assert.deepEqual(lookup(routes, '/a/lit/c'), { pattern: '/a/lit/c', params: {} });
  });

  it('deep chains of lone params and statics capture every param in order', () => {
    const p = '/org/{org}/repo/{repo}/issues/{num:int}/{rest...}';
    assert.deepEqual(lookup([p], '/org/acme/repo/kit/issues/42/x/y'), {
      pattern: p,
      params: { org: 'acme', repo: 'kit', num: '42', rest: 'x/y' },
    });
    assert.equal(lookup([p], '/org/acme/repo/kit/issues/42'), undefined);
    assert.equal(lookup([p], '/org/acme/repo/kit/pulls/42/x'), undefined);
  });

  it('a param named __proto__ stays an own property', () => {
    const { router } = compileRouter([{ method: 'GET', pattern: '/x/{__proto__}', value: 1 }]);
    assert.equal(router.lookup('GET', ['v']), undefined);
    const hit = router.lookup('GET', ['x', 'v']);
    assert.ok(hit && Object.prototype.hasOwnProperty.call(hit.params, '__proto__'));
    assert.equal(Object.getPrototypeOf(hit!.params), Object.prototype);
    assert.equal(hit!.params['__proto__'], 'v');
  });
});
