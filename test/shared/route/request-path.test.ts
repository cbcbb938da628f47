import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { fixture } from '../../helpers/repo.js';
import { checkRequestTarget } from '#shared/route/index.js';
import type { RequestPathResult } from '#shared/route/index.js';

interface Vector {
  target: string;
  expect: 'reject' | 'accept';
  status?: 400 | 404;
  path?: string;
  query?: string;
  note: string;
}
const { vectors } = JSON.parse(readFileSync(fixture('route', 'traversal-vectors.json'), 'utf8')) as {
  vectors: Vector[];
};

/** What every accepted result must satisfy, whatever the input. */
function assertSafe(r: RequestPathResult): void {
  if (!r.ok) return;
  assert.ok(r.path.startsWith('/'));
  assert.ok(!r.path.includes('//'), 'no //');
  assert.ok(!r.path.includes('\\'), 'no backslash');
  assert.ok(!r.path.includes('\u0000'), 'no NUL');
  assert.equal(r.path, '/' + r.segments.join('/'));
  for (const s of r.segments) {
    assert.ok(s !== '' && s !== '.' && s !== '..', `segment ${JSON.stringify(s)}`);
    assert.ok(!/^[. ]+$/.test(s), `dot-like segment ${JSON.stringify(s)}`);
    assert.ok(!s.includes('/'));
  }
  assert.ok(r.path === '/' || !r.path.endsWith('/'));
}

describe('shared/route checkRequestTarget: traversal vectors', () => {
  it('has at least 30 vectors, both kinds', () => {
    assert.ok(vectors.length >= 30);
    assert.ok(vectors.some((v) => v.expect === 'accept') && vectors.some((v) => v.expect === 'reject'));
  });
  for (const v of vectors) {
    it(`${v.expect} ${JSON.stringify(v.target)} — ${v.note}`, () => {
      const r = checkRequestTarget(v.target);
      assertSafe(r);
      if (v.expect === 'reject') {
        assert.equal(r.ok, false, `accepted as ${JSON.stringify(r)}`);
        if (!r.ok) {
          assert.equal(r.status, v.status);
          assert.ok(!r.reason.includes(v.target) || v.target.length < 2, 'the reason does not echo the target');
        }
      } else {
        assert.ok(r.ok, `rejected: ${JSON.stringify(r)}`);
        if (!r.ok) return;
        assert.equal(r.path, v.path);
        if (v.query !== undefined) assert.equal(r.query, v.query);
      }
    });
  }
  it('no vector ever yields a .. segment, a backslash or an empty segment', () => {
    for (const v of vectors) {
      const r = checkRequestTarget(v.target);
      if (!r.ok) continue;
      assert.ok(!r.segments.includes('..') && !r.segments.includes('') && !r.path.includes('\\'), v.target);
    }
  });
});

describe('shared/route checkRequestTarget: shape of results', () => {
  it('root', () => {
    assert.deepEqual(checkRequestTarget('/'), {
      ok: true,
      path: '/',
      segments: [],
      rawPath: '/',
      query: '',
      trailingSlash: false,
    });
    assert.deepEqual(checkRequestTarget('/?a=1'), {
      ok: true,
      path: '/',
      segments: [],
      rawPath: '/',
      query: '?a=1',
      trailingSlash: false,
    });
  });
  it('splits the query at the first ? and drops a fragment', () => {
    assert.deepEqual(checkRequestTarget('/a/b%20c?x=1?y#frag'), {
      ok: true,
      path: '/a/b c',
      segments: ['a', 'b c'],
      rawPath: '/a/b%20c',
      query: '?x=1?y',
      trailingSlash: false,
    });
    assert.deepEqual(checkRequestTarget('/a#f?x'), {
      ok: true,
      path: '/a',
      segments: ['a'],
      rawPath: '/a',
      query: '',
      trailingSlash: false,
    });
    assert.deepEqual(checkRequestTarget('/a?'), {
      ok: true,
      path: '/a',
      segments: ['a'],
      rawPath: '/a',
      query: '?',
      trailingSlash: false,
    });
  });
  it('reports one trailing slash (2.5 #73)', () => {
    const r = checkRequestTarget('/blog/hello/?page=2&sort=asc');
    assert.ok(r.ok);
    if (r.ok) {
      assert.equal(r.trailingSlash, true);
      assert.equal(r.path + r.query, '/blog/hello?page=2&sort=asc');
      assert.equal(r.rawPath, '/blog/hello/');
    }
  });
  it('#74: protocol-relative targets are never accepted (so never redirected)', () => {
    for (const t of ['//evil.example/', '/\\evil.example/', '/%2fevil.example/', '/%5Cevil.example/']) {
      assert.equal(checkRequestTarget(t).ok, false, t);
    }
  });
  it('decodes each segment exactly once', () => {
    const r = checkRequestTarget('/%2525/%25/a%2Bb');
    assert.ok(r.ok);
    if (r.ok) assert.deepEqual(r.segments, ['%25', '%', 'a+b']);
  });
  it('rejects encoded separators in any case with 404 and malformed input with 400', () => {
    for (const t of ['/a%2fb', '/a%2Fb', '/a%5cb', '/a%5Cb']) assert.deepEqual(statusOf(t), 404, t);
    for (const t of ['/a%', '/a%2', '/a%g0', '/%ff', '/%ed%a0%80', '/a%7f', '/a%c2%85'])
      assert.deepEqual(statusOf(t), 400, t);
  });
  it('accepts the sub-delims and other printable ASCII that browsers send unencoded', () => {
    const r = checkRequestTarget("/a!$&'()*+,;=:@b/~_-./x|y{z}^`[]");
    assert.ok(r.ok);
  });
  it('never throws on odd input', () => {
    for (const t of [
      '',
      '?',
      '#',
      '/%',
      '/\ud800',
      '/%ed%b0%80',
      'x'.repeat(10000),
      '/' + '%41'.repeat(5000),
      undefined as unknown as string,
    ]) {
      assert.doesNotThrow(() => assertSafe(checkRequestTarget(t)));
    }
  });
});

function statusOf(target: string): number | 'ok' {
  const r = checkRequestTarget(target);
  return r.ok ? 'ok' : r.status;
}
