import { strict as assert } from 'node:assert';
import { parseRoutePattern, routesOverlap, ambiguousOverlap } from '#shared/route/index.js';

const p = parseRoutePattern;

// Structural overlap (2.4): could one request path match both patterns?
const OVERLAP: [string, string, boolean, string][] = [
  ['/blog/{category}/{slug}', '/blog/{slug}/edit', true, '#28'],
  ['/{section}/settings', '/admin/{page}', true, '#29'],
  [
    '/blog/about',
    '/blog/{slug}',
    true,
    '#30: overlaps structurally; legal because only one side is dynamic (see ambiguousOverlap)',
  ],
  ['/docs/{path...}', '/docs/{slug}', true, '#31'],
  ['/docs/{path...}', '/docs/guides/intro', true, '#32'],
  ['/docs/{path...}', '/docs/{section}/{slug}', true, '#33'],
  ['/docs', '/docs/{path...}', false, '#34: a rest needs at least one more segment'],
  ['/docs/{path...}', '/blog/{slug}', false, '#34'],
  ['/docs', '/blog/{slug}', false, '#34'],
  ['/{a}/x', '/y/{b}', true, '2.4 example'],
  ['/a/{x}', '/b/{y}', false, 'different literal prefix'],
  ['/a/{x}', '/a/{x}/b', false, 'different lengths, no rest'],
  ['/a/b', '/a/c', false, 'different literals'],
  ['/{a}', '/{b}/{c}', false, 'different lengths'],
  ['/{path...}', '/', false, 'root is not matched by a rest'],
  ['/{path...}', '/anything/at/all', true, 'root rest overlaps everything below /'],
  ['/docs/{a...}', '/docs/x/{b...}', true, 'two rests: the shorter prefix decides'],
  ['/docs/{a...}', '/blog/x/{b...}', false, 'two rests with incompatible prefixes'],
  ['/x/{a}/{r...}', '/x/{b}/y', true, 'param prefix then rest'],
  ['/x/{a}/{r...}', '/x/{b}', false, 'rest route longer than the other'],
  ['/patients/{id:int}/vitals', '/patients/summary/vitals', true, '#37: types do not matter'],
];

describe('shared/route routesOverlap', () => {
  for (const [a, b, expected, note] of OVERLAP) {
    it(`${a} vs ${b} → ${expected} (${note})`, () => {
      assert.equal(routesOverlap(p(a), p(b)), expected);
      assert.equal(routesOverlap(p(b), p(a)), expected, 'symmetric');
    });
  }
  it('invalid routes never overlap', () => {
    assert.equal(routesOverlap(p('/docs/{slug?}'), p('/docs/{slug}')), false);
  });
});

// The ambiguous_dynamic_route policy on top of the structural test.
const page = (pattern: string) => ({ route: p(pattern), method: 'GET', page: true });
const endpoint = (method: string, pattern: string) => ({ route: p(pattern), method, page: false });

describe('shared/route ambiguousOverlap', () => {
  const cases: [string, ReturnType<typeof page>, ReturnType<typeof page>, boolean][] = [
    ['#28 pages', page('/blog/{category}/{slug}'), page('/blog/{slug}/edit'), true],
    ['#29 pages', page('/{section}/settings'), page('/admin/{page}'), true],
    ['#30 page vs page, one static', page('/blog/about'), page('/blog/{slug}'), false],
    ['#31 rest page', page('/docs/{path...}'), page('/docs/{slug}'), true],
    ['#32 rest page vs static page', page('/docs/{path...}'), page('/docs/guides/intro'), true],
    ['#33 rest page', page('/docs/{path...}'), page('/docs/{section}/{slug}'), true],
    ['#34 /docs vs rest', page('/docs'), page('/docs/{path...}'), false],
    ['#35 rest page vs GET api', page('/docs/{path...}'), endpoint('GET', '/docs/guides/intro'), true],
    ['#36 rest page vs POST api', page('/docs/{path...}'), endpoint('POST', '/docs/guides/intro'), false],
    [
      '#37 two GET fragments',
      endpoint('GET', '/patients/{id:int}/vitals'),
      endpoint('GET', '/patients/summary/vitals'),
      true,
    ],
    [
      '#38 fragment vs GET api',
      endpoint('GET', '/patients/{id:int}/vitals'),
      endpoint('GET', '/patients/summary/vitals'),
      true,
    ],
    [
      '#39 fragment vs GET query contract',
      endpoint('GET', '/patients/{id:int}/vitals'),
      endpoint('GET', '/patients/42/vitals'),
      true,
    ],
    [
      '#40 fragment vs POST action',
      endpoint('GET', '/patients/{id:int}/vitals'),
      endpoint('POST', '/patients/summary/vitals'),
      false,
    ],
    ['two static endpoints never', endpoint('GET', '/a'), endpoint('GET', '/a'), false],
    ['same shape is a duplicate/conflict, not ambiguity', page('/blog/{slug}'), page('/blog/{id}'), false],
  ];
  for (const [name, a, b, expected] of cases) {
    it(`${name} → ${expected}`, () => {
      assert.equal(ambiguousOverlap(a, b), expected);
      assert.equal(ambiguousOverlap(b, a), expected, 'symmetric');
    });
  }
});
