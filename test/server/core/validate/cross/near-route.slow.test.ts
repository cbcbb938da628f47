// The route suggested for a broken link: a route answering the link but for one static segment,
// which is a typo of the link's. Indexed once per set of registrations, so a site with thousands of
// broken links among thousands of routes compares each link with a handful of routes, not all.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { editDistance, typoBound } from '#grammar/index.js';
import { compareRegistrations } from '#core/model/entries.js';
import { NearRoutes } from '#core/validate/cross/near-route.js';
import { regKey } from '#core/validate/cross/reg-bucket.js';
import { linkSegments } from '#core/validate/cross/links.js';
import { parsedRoute } from '#core/model/route-cache.js';
import type { Registration } from '#core/model/registrations.js';
import { Workspace } from '#core/workspace/workspace.js';

function regs(patterns: string[], method = 'GET'): Registration[] {
  return patterns.map((p, order) => ({
    kind: 'page',
    source: 'kit',
    method,
    route: parsedRoute(p),
    owner: `page p${order}`,
    file: `site/p${order}.kit`,
    range: { start: { offset: 0, line: 1, column: 1 }, end: { offset: 1, line: 1, column: 2 } },
    order,
  }));
}

/** The index of `list`, filled one `reg:` bucket at a time as the workspace does. */
function indexOf(list: Registration[]): NearRoutes {
  const byKey = new Map<string, Registration[]>();
  for (const r of list) {
    const rs = byKey.get(regKey(r));
    if (rs) rs.push(r);
    else byKey.set(regKey(r), [r]);
  }
  const index = new NearRoutes();
  for (const [key, rs] of byKey) index.set(key, rs);
  return index;
}

const indexes = new WeakMap<Registration[], NearRoutes>();

function near(list: Registration[], href: string, method = 'GET', index?: NearRoutes): string | undefined {
  const segs = linkSegments(href);
  assert.ok(segs, href);
  if (!index) {
    index = indexes.get(list);
    if (!index) indexes.set(list, (index = indexOf(list)));
  }
  return index.closest(method, href, segs);
}

describe('closestRoute (the suggestion of broken_internal_link)', () => {
  const routes = regs(['/contact', '/blog/{slug}', '/docs/{path...}', '/shop/{id}/reviews', '/about/team']);

  it('finds a typo in any one static segment, with params filled by the link', () => {
    assert.equal(near(routes, '/contcat'), '/contact');
    assert.equal(near(routes, '/blgo/hello-world'), '/blog/{slug}');
    assert.equal(near(routes, '/shop/42/reveiws'), '/shop/{id}/reviews');
    assert.equal(near(routes, '/about/taem?x=1#y'), '/about/team');
  });

  it('finds a typo in the static prefix of a rest route', () => {
    assert.equal(near(routes, '/dcos/guide/install'), '/docs/{path...}');
  });

  it('suggests nothing for a link two segments off, too far off, or of another method', () => {
    assert.equal(near(routes, '/abut/taem'), undefined);
    assert.equal(near(routes, '/completely-different'), undefined);
    assert.equal(near(routes, '/contcat', 'POST'), undefined);
    assert.equal(near(routes, '/'), undefined);
  });

  it('prefers the nearest route, then the first declared', () => {
    const list = regs(['/blog-x', '/blogs', '/blog']);
    assert.equal(near(list, '/blogg'), '/blogs');
    assert.equal(near(regs(['/cart', '/card']), '/carx'), '/cart');
    assert.equal(near(regs(['/card', '/cart']), '/carx'), '/card');
  });

  it('follows a route bucket replaced or emptied', () => {
    const list = regs(['/contact', '/cart']);
    const index = indexOf(list);
    assert.equal(near(list, '/contcat', 'GET', index), '/contact');
    index.set(regKey(list[0]), []);
    assert.equal(near(list, '/contcat', 'GET', index), undefined);
    const moved = regs(['/contcats']);
    index.set(regKey(moved[0]), moved);
    assert.equal(near(list, '/contcat', 'GET', index), '/contcats');
    index.set(regKey(moved[0]), []);
    index.set(regKey(list[0]), [list[0]]);
    assert.equal(near(list, '/contcat', 'GET', index), '/contact');
    // Replaced before any link asked: the positions indexed later see the routes as they are now.
    const fresh = indexOf(list);
    fresh.set(regKey(list[0]), []);
    assert.equal(near(list, '/contcat', 'GET', fresh), undefined);
    fresh.set(regKey(moved[0]), moved);
    assert.equal(near(list, '/contcat', 'GET', fresh), '/contcats');
  });

  it('finds the one near route among thousands, for every link', () => {
    const many = regs(Array.from({ length: 5000 }, (_, i) => `/section-${i % 10}/page-${i}`));
    for (let i = 0; i < 5000; i += 7)
      assert.equal(near(many, `/section-${i % 10}/pgae-${i}`), `/section-${i % 10}/page-${i}`);
  });
});

/**
 * The suggestion by definition, comparing the link with every route: a route of the method with as
 * many segments, equal to the link (or a param) at every segment but one static one, whose lower
 * case is a typo of the link's there; the nearest, then the first declared. Rest routes aside.
 */
function nearestByDefinition(list: Registration[], method: string, segs: readonly string[]): string | undefined {
  let best: { reg: Registration; distance: number } | undefined;
  for (const r of [...list].sort(compareRegistrations)) {
    const rs = r.route.segments;
    if (r.method !== method || !r.route.valid || rs.length !== segs.length || rs.length > 8) continue;
    for (let at = 0; at < rs.length; at++) {
      const s = rs[at];
      if (s.kind !== 'static') continue;
      const others = rs.every((o, i) => i === at || o.kind === 'param' || (o.kind === 'static' && o.value === segs[i]));
      if (!others) continue;
      const word = segs[at].toLowerCase();
      const bound = typoBound(word);
      const distance = editDistance(word, s.value.toLowerCase(), bound);
      if (distance <= bound && (!best || distance < best.distance)) best = { reg: r, distance };
    }
  }
  return best?.reg.route.pattern;
}

describe('closestRoute against its definition', () => {
  it('gives the nearest, first declared route for random routes and links', () => {
    // Few letters, so that many routes are a typo away from a link and ties are common.
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'B', '1'), minLength: 1, maxLength: 6 });
    const segment = fc.oneof(word, word, fc.constant('{id}'));
    const route = fc.array(segment, { minLength: 1, maxLength: 3 }).map((ss) => `/${ss.join('/')}`);
    const link = fc.array(word, { minLength: 1, maxLength: 3 }).map((ss) => `/${ss.join('/')}`);
    fc.assert(
      fc.property(
        fc.uniqueArray(route, { minLength: 1, maxLength: 40 }),
        fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
        fc.array(link, { minLength: 1, maxLength: 10 }),
        (patterns, posts, links) => {
          // Declared in shuffled file order, both methods: ties go by file, not by indexing order.
          const list = regs(patterns).map((r, i) => ({
            ...r,
            method: posts[i] ? 'POST' : 'GET',
            file: `site/f${(i * 7919) % patterns.length}.kit`,
          }));
          // Half the routes first, asked about (which indexes the positions asked), then the rest.
          const half = list.slice(0, list.length >> 1);
          const index = indexOf(half);
          const ask = (routes: Registration[]) => {
            for (const href of links)
              for (const method of ['GET', 'POST']) {
                const segs = linkSegments(href);
                assert.ok(segs);
                const expected = nearestByDefinition(routes, method, segs);
                assert.equal(index.closest(method, href, segs), expected, `${method} ${href}`);
              }
          };
          ask(half);
          const byKey = new Map<string, Registration[]>();
          for (const r of list) byKey.set(regKey(r), [...(byKey.get(regKey(r)) ?? []), r]);
          for (const [key, rs] of byKey) index.set(key, rs);
          ask(list);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('broken_internal_link suggestions follow the routes', () => {
  it('a route added, renamed or removed changes the suggestion as a fresh load sees it', () => {
    const links = 'route "/links"\nguard public\n\nview {\n  <a href="/contcat">C</a>\n}\n';
    const contact = (p: string) => `route "${p}"\nguard public\n\nview {\n  <main>C</main>\n}\n`;
    const w = new Workspace({ ssr: false });
    w.setKitFile('site/links.kit', links);
    const message = () =>
      w
        .diagnosticsFor('site/links.kit')
        .filter((d) => d.code === 'broken_internal_link')
        .map((d) => d.message);
    assert.equal(message().length, 1);
    assert.ok(!message()[0].includes('did you mean'));
    w.setKitFile('site/contact.kit', contact('/contact'));
    assert.match(message()[0], /did you mean "\/contact"\?$/);
    w.setKitFile('site/contact.kit', contact('/contcats'));
    assert.match(message()[0], /did you mean "\/contcats"\?$/);
    w.setKitFile('site/contact.kit', contact('/contcat'));
    assert.deepEqual(message(), []);
    w.remove('site/contact.kit');
    assert.ok(!message()[0].includes('did you mean'));
  });
});

describe('broken_internal_link buckets a route change re-evaluates', () => {
  const page = (route: string, links: string[]) =>
    `route "${route}"\nguard public\n\nview {\n${links.map((l) => `  <a href="${l}">L</a>\n`).join('')}}\n`;
  const files: Record<string, string> = {
    'site/a.kit': page('/a', ['/blog/one', '/shop/cart']),
    'site/b.kit': page('/b', ['/blgo/two', '/docs/x']),
    'site/c.kit': page('/c', ['/shop/hat', '/about']),
    'site/d.kit': page('/d', ['/docs/y', '/']),
  };

  function load(extra: Record<string, string> = {}): Workspace {
    const w = new Workspace({ ssr: false });
    for (const [f, t] of Object.entries({ ...files, ...extra }).sort()) w.setKitFile(f, t);
    w.flush();
    return w;
  }

  const links = (w: Workspace) => w.allDiagnostics().filter((d) => d.code === 'broken_internal_link');

  /** Buckets evaluated when a page with `route` joins the workspace. */
  function evaluatedFor(route: string): number {
    const w = load();
    const before = w.inspection.evaluations;
    w.setKitFile('site/new.kit', page(route, []));
    w.flush();
    return w.inspection.evaluations - before;
  }

  it('a route re-evaluates the links starting with its first segment and their typos only', () => {
    const none = evaluatedFor('/unrelated/{slug}');
    assert.equal(evaluatedFor('/blog/{slug}') - none, 2, 'link:blog and link:blgo');
    assert.equal(evaluatedFor('/shop/{item}') - none, 1, 'link:shop');
    assert.equal(evaluatedFor('/{section}/{slug}') - none, 6, 'every link bucket');
    const w = load();
    w.setKitFile('site/blog.kit', page('/blog/{slug}', []));
    assert.deepEqual(links(w), links(load({ 'site/blog.kit': page('/blog/{slug}', []) })));
    assert.ok(
      links(w).some((d) => d.message.includes('"/blgo/two"') && d.message.includes('did you mean "/blog/{slug}"')),
    );
    assert.ok(!links(w).some((d) => d.message.includes('"/blog/one"')));
  });

  it('a route whose first segment is a param re-evaluates every link bucket, as a fresh load sees it', () => {
    const w = load();
    w.setKitFile('site/any.kit', page('/{section}/{slug}', []));
    const fresh = load({ 'site/any.kit': page('/{section}/{slug}', []) });
    assert.deepEqual(links(w), links(fresh));
    assert.ok(!links(w).some((d) => d.message.includes('"/shop/cart"')));
    w.remove('site/any.kit');
    assert.deepEqual(links(w), links(load()));
  });
});
