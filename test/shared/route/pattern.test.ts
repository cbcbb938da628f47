import { strict as assert } from 'node:assert';
import { parseRoutePattern, routeShapeKey, PARAM_TYPES } from '#shared/route/index.js';
import type { RouteIssue } from '#shared/route/index.js';

type Expected = {
  kind: RouteIssue['kind'];
  span: [number, number];
  message: string;
  code?: RouteIssue['code'];
  param?: string;
};

// Every malformed_route message, and the conformance rows about single patterns.
const INVALID: { row: string; pattern: string; issues: Expected[] }[] = [
  { row: 'empty', pattern: '', issues: [{ kind: 'empty', span: [0, 0], message: 'route is required' }] },
  {
    row: '#1',
    pattern: 'patients',
    issues: [{ kind: 'leading_slash', span: [0, 8], message: 'route "patients" must start with /' }],
  },
  {
    row: '#2',
    pattern: '/patients?page=1',
    issues: [
      { kind: 'query', span: [9, 16], message: 'route "/patients?page=1" must not contain query strings or fragments' },
    ],
  },
  {
    row: 'fragment',
    pattern: '/patients#top',
    issues: [
      { kind: 'query', span: [9, 13], message: 'route "/patients#top" must not contain query strings or fragments' },
    ],
  },
  {
    row: '#3',
    pattern: '/patients/',
    issues: [
      {
        kind: 'trailing_slash',
        span: [9, 10],
        message: 'route "/patients/" must not contain empty path segments; omit trailing slashes except for /',
      },
    ],
  },
  {
    row: 'double slash',
    pattern: '/a//b',
    issues: [
      {
        kind: 'empty_segment',
        span: [3, 4],
        message: 'route "/a//b" must not contain empty path segments; omit trailing slashes except for /',
      },
    ],
  },
  {
    row: '#4',
    pattern: '/patients/../admin',
    issues: [
      { kind: 'dot_segment', span: [10, 12], message: 'route "/patients/../admin" contains unsafe path segment ".."' },
    ],
  },
  {
    row: 'dot',
    pattern: '/a/.',
    issues: [{ kind: 'dot_segment', span: [3, 4], message: 'route "/a/." contains unsafe path segment "."' }],
  },
  {
    row: 'all dots (never reachable: requests with such a segment answer 404)',
    pattern: '/a/...',
    issues: [{ kind: 'dot_segment', span: [3, 6], message: 'route "/a/..." contains unsafe path segment "..."' }],
  },
  {
    row: 'backslash',
    pattern: '/a\\b',
    issues: [{ kind: 'backslash', span: [2, 3], message: 'route "/a\\\\b" must use / path separators' }],
  },
  {
    row: 'whitespace inside',
    pattern: '/a b',
    issues: [
      { kind: 'control', span: [2, 3], message: 'route "/a b" must not contain whitespace or control characters' },
    ],
  },
  {
    row: 'control character',
    pattern: '/a\u0007',
    issues: [
      { kind: 'control', span: [2, 3], message: 'route "/a\\u0007" must not contain whitespace or control characters' },
    ],
  },
  {
    row: 'trailing whitespace',
    pattern: '/a ',
    issues: [
      { kind: 'whitespace', span: [2, 3], message: 'route "/a " must not include leading or trailing whitespace' },
    ],
  },
  {
    row: 'leading whitespace',
    pattern: '  /a',
    issues: [
      { kind: 'whitespace', span: [0, 2], message: 'route "  /a" must not include leading or trailing whitespace' },
      { kind: 'leading_slash', span: [0, 4], message: 'route "  /a" must start with /' },
    ],
  },
  {
    row: '#5',
    pattern: '/blog/{slug}.html',
    issues: [
      {
        kind: 'param_segment',
        span: [6, 17],
        message:
          'route "/blog/{slug}.html" has invalid route parameter segment "{slug}.html"; use {name} or {name:type} as the whole segment',
      },
    ],
  },
  {
    row: 'unclosed',
    pattern: '/patients/{id',
    issues: [
      {
        kind: 'param_segment',
        span: [10, 13],
        message:
          'route "/patients/{id" has invalid route parameter segment "{id"; use {name} or {name:type} as the whole segment',
      },
    ],
  },
  {
    row: 'two params in a segment',
    pattern: '/{a}{b}',
    issues: [
      {
        kind: 'param_segment',
        span: [1, 7],
        message:
          'route "/{a}{b}" has invalid route parameter segment "{a}{b}"; use {name} or {name:type} as the whole segment',
      },
    ],
  },
  {
    row: '#6',
    pattern: '/blog/{123}',
    issues: [
      {
        kind: 'param_name',
        span: [6, 11],
        param: '123',
        message: 'route "/blog/{123}" has invalid route parameter name "123"; names match [A-Za-z_][A-Za-z0-9_]*',
      },
    ],
  },
  {
    row: 'empty braces',
    pattern: '/blog/{}',
    issues: [
      {
        kind: 'param_name',
        span: [6, 8],
        param: '',
        message: 'route "/blog/{}" has invalid route parameter name ""; names match [A-Za-z_][A-Za-z0-9_]*',
      },
    ],
  },
  {
    row: '#7',
    pattern: '/blog/{slug}/{slug}',
    issues: [
      {
        kind: 'duplicate_param',
        code: 'duplicate_route_param',
        span: [13, 19],
        param: 'slug',
        message: 'route "/blog/{slug}/{slug}" repeats route parameter "slug"',
      },
    ],
  },
  {
    row: 'duplicate across typed and rest',
    pattern: '/a/{x:int}/{x...}',
    issues: [
      {
        kind: 'duplicate_param',
        code: 'duplicate_route_param',
        span: [11, 17],
        param: 'x',
        message: 'route "/a/{x:int}/{x...}" repeats route parameter "x"',
      },
    ],
  },
  {
    row: '#8-#10',
    pattern: '/save/{id:uuid}',
    issues: [
      {
        kind: 'param_type',
        span: [6, 15],
        param: 'id',
        message:
          'route "/save/{id:uuid}" has unsupported route parameter type "uuid" for "id"; supported types are string, int, int64, uint, uint64, bool, float64',
      },
    ],
  },
  {
    row: 'empty type',
    pattern: '/save/{id:}',
    issues: [
      {
        kind: 'param_type',
        span: [6, 11],
        param: 'id',
        message:
          'route "/save/{id:}" has unsupported route parameter type "" for "id"; supported types are string, int, int64, uint, uint64, bool, float64',
      },
    ],
  },
  {
    row: '#14',
    pattern: '/docs/{path...}/edit',
    issues: [
      {
        kind: 'rest_not_last',
        span: [6, 15],
        param: 'path',
        message:
          'route "/docs/{path...}/edit" declares rest route parameter {path...} before the end of the route; rest parameters must be the last segment',
      },
    ],
  },
  {
    row: '#15',
    pattern: '/docs/{path...:int}',
    issues: [
      {
        kind: 'rest_typed',
        span: [6, 19],
        param: 'path',
        message:
          'route "/docs/{path...:int}" declares typed rest route parameter "{path...:int}"; rest route parameters are always strings, declare it as {path...}',
      },
    ],
  },
  {
    row: '#16',
    pattern: '/docs/{...}',
    issues: [
      {
        kind: 'rest_unnamed',
        span: [6, 11],
        message: 'route "/docs/{...}" has rest route parameter segment "{...}" without a name; declare it as {name...}',
      },
    ],
  },
  {
    row: '#17',
    pattern: '/docs/{path..}',
    issues: [
      {
        kind: 'rest_dots',
        span: [6, 14],
        message:
          'route "/docs/{path..}" has invalid route parameter segment "{path..}"; rest route parameters use exactly three dots, such as {name...}',
      },
    ],
  },
  {
    row: '#18',
    pattern: '/docs/{path....}',
    issues: [
      {
        kind: 'param_name',
        span: [6, 16],
        param: 'path.',
        message:
          'route "/docs/{path....}" has invalid route parameter name "path."; names match [A-Za-z_][A-Za-z0-9_]*',
      },
    ],
  },
  {
    row: '#19',
    pattern: '/docs/{slug?}',
    issues: [
      {
        kind: 'optional',
        span: [6, 13],
        message:
          'route "/docs/{slug?}" uses optional route parameter "{slug?}"; optional route parameters are not supported; declare explicit routes for each shape (rest parameters {name...} are supported as the final segment)',
      },
    ],
  },
];

describe('shared/route parseRoutePattern', () => {
  for (const t of INVALID) {
    it(`rejects ${t.row}: ${JSON.stringify(t.pattern)}`, () => {
      const r = parseRoutePattern(t.pattern);
      assert.equal(r.valid, false);
      const got = r.issues.map((i) => {
        const e: Expected = { kind: i.kind, span: [i.span.start, i.span.end], message: i.message };
        if (i.code !== 'malformed_route') e.code = i.code;
        if (i.param !== undefined) e.param = i.param;
        return e;
      });
      assert.deepEqual(
        got,
        t.issues.map((e) => ({ ...e })),
      );
      for (const i of r.issues) {
        assert.ok(
          i.span.start >= 0 && i.span.start <= i.span.end && i.span.end <= t.pattern.length,
          'span inside the pattern',
        );
        if (i.kind !== 'duplicate_param') assert.equal(i.code, 'malformed_route');
      }
    });
  }

  it('reports several issues at once, each at its own place', () => {
    const p = '/a b/{x}/../{x}/{y:uuid}/';
    const r = parseRoutePattern(p);
    assert.deepEqual(
      r.issues.map((i) => [i.kind, p.slice(i.span.start, i.span.end)]),
      [
        ['control', ' '],
        ['dot_segment', '..'],
        ['duplicate_param', '{x}'],
        ['param_type', '{y:uuid}'],
        ['trailing_slash', '/'],
      ],
    );
  });

  it('accepts #11-#13 and the basic shapes', () => {
    for (const p of [
      '/',
      '/patients',
      '/patients/list',
      '/patients/{id:int}/vitals',
      '/patients/{id:int}',
      '/docs/{path...}',
      '/p/{a}/{b:string}/{c:uint64}/{rest...}',
      '/caf\u00e9/{x}',
    ]) {
      const r = parseRoutePattern(p);
      assert.deepEqual(r.issues, [], p);
      assert.equal(r.valid, true);
    }
  });

  it('accepts every supported type', () => {
    assert.deepEqual([...PARAM_TYPES], ['string', 'int', 'int64', 'uint', 'uint64', 'bool', 'float64']);
    for (const t of PARAM_TYPES) {
      const r = parseRoutePattern(`/x/{v:${t}}`);
      assert.equal(r.valid, true, t);
      assert.deepEqual(r.params, [{ name: 'v', type: t }]);
    }
  });

  it('gives segments with exact spans for statics, params, typed params and rest', () => {
    const r = parseRoutePattern('/p/{id:int}/{name}/{rest...}');
    assert.deepEqual(r.segments, [
      { kind: 'static', value: 'p', span: { start: 1, end: 2 } },
      {
        kind: 'param',
        name: 'id',
        type: 'int',
        typed: true,
        span: { start: 3, end: 11 },
        nameSpan: { start: 4, end: 6 },
        typeSpan: { start: 7, end: 10 },
      },
      {
        kind: 'param',
        name: 'name',
        type: 'string',
        typed: false,
        span: { start: 12, end: 18 },
        nameSpan: { start: 13, end: 17 },
      },
      { kind: 'rest', name: 'rest', span: { start: 19, end: 28 }, nameSpan: { start: 20, end: 24 } },
    ]);
    assert.deepEqual(r.params, [
      { name: 'id', type: 'int' },
      { name: 'name', type: 'string' },
      { name: 'rest', type: 'string' },
    ]);
    assert.equal(r.hasRest, true);
    assert.equal(r.isDynamic, true);
    assert.equal(r.shapeKey, '/p/{}/{}/{**}');
  });

  it('counts spans in UTF-16 code units (as JavaScript strings and LSP do)', () => {
    const r = parseRoutePattern('/\u{1F600}/{x:uuid}');
    assert.equal(r.issues.length, 1);
    assert.deepEqual(r.issues[0].span, { start: 4, end: 12 });
    assert.deepEqual(r.segments[0].span, { start: 1, end: 3 });
  });

  it('keeps best-effort segments and params for invalid patterns', () => {
    const r = parseRoutePattern('/blog/{slug}/{slug}/{id:uuid}/{slug?}');
    assert.equal(r.valid, false);
    assert.deepEqual(
      r.segments.map((s) => s.kind),
      ['static', 'param', 'param', 'param', 'static'],
    );
    assert.deepEqual(r.params, [
      { name: 'slug', type: 'string' },
      { name: 'id', type: 'string' },
    ]);
  });

  it('#20: a rest route is a valid pattern; hasRest lets the caller require request-time rendering', () => {
    const r = parseRoutePattern('/docs/{path...}');
    assert.equal(r.valid, true);
    assert.equal(r.hasRest, true);
  });

  it('root is static with an empty segment list', () => {
    const r = parseRoutePattern('/');
    assert.deepEqual(r.segments, []);
    assert.equal(r.shapeKey, '/');
    assert.equal(r.isDynamic, false);
  });

  it('stays linear on pathological text', () => {
    const start = process.hrtime.bigint();
    for (const p of [
      ' '.repeat(50_000) + 'x',
      '/' + ' '.repeat(50_000) + 'x ',
      '/' + '{'.repeat(50_000),
      '/a'.repeat(50_000) + '/',
      '/{' + 'a'.repeat(50_000) + '...:' + 'int'.repeat(1000) + '}',
    ]) {
      assert.equal(parseRoutePattern(p).valid, false);
    }
    assert.ok(Number(process.hrtime.bigint() - start) / 1e6 < 1000, 'well under a second');
  });

  it('is pure: the same text gives equal results', () => {
    assert.deepEqual(parseRoutePattern('/a/{b:int}/{c...}'), parseRoutePattern('/a/{b:int}/{c...}'));
  });
});

describe('shared/route shape keys', () => {
  const same: [string, string][] = [
    ['/blog/{slug}', '/blog/{id}'],
    ['/docs/{path...}', '/docs/{rest...}'],
    ['/p/{id:int}', '/p/{id}'],
    ['/p/{id:int}', '/p/{name:string}'],
    ['/a/{x}/b/{y...}', '/a/{z:uint}/b/{w...}'],
  ];
  for (const [a, b] of same) {
    it(`${a} and ${b} are one shape`, () => {
      assert.equal(routeShapeKey(parseRoutePattern(a)), routeShapeKey(parseRoutePattern(b)));
    });
  }
  const different: [string, string][] = [
    ['/blog/{slug}', '/blog/about'],
    ['/docs/{path...}', '/docs/{slug}'],
    ['/docs', '/docs/{path...}'],
    ['/a/{x}', '/a/{x}/b'],
  ];
  for (const [a, b] of different) {
    it(`${a} and ${b} are different shapes`, () => {
      assert.notEqual(routeShapeKey(parseRoutePattern(a)), routeShapeKey(parseRoutePattern(b)));
    });
  }
  it('normalises as in 2.3', () => {
    assert.equal(parseRoutePattern('/blog/{slug}/edit').shapeKey, '/blog/{}/edit');
    assert.equal(parseRoutePattern('/docs/{lang:string}/{path...}').shapeKey, '/docs/{}/{**}');
    assert.equal(parseRoutePattern('/').shapeKey, '/');
  });
});
