// Unit tables for the runtime's dense security logic: CSRF tokens and cookies, local-path checks,
// and CORS preflights. Where CSRF fields are written: test/server/core/build/forms.test.ts.
import { strict as assert } from 'node:assert';
import type { IncomingMessage } from 'node:http';
import {
  csrfKeys,
  CsrfConfigError,
  newToken,
  readCookie,
  setCookieValue,
  validSubmission,
  verifyToken,
} from '#shared/app/csrf.js';
import { isLocalPath, redirect, fragment, reload, json, html, toResponse } from '#shared/app/responses.js';
import { preflight, originAllowed } from '#shared/app/cors.js';
import { guardRegistry, runGuards, allow, deny, redirectTo } from '#shared/app/guards.js';
import { background } from '#shared/trace/index.js';

const S1 = 'a'.repeat(32);
const S2 = 'b'.repeat(40);

describe('CSRF tokens', () => {
  it('are 86 base64url characters that verify with their key', () => {
    const keys = csrfKeys(S1);
    const t = newToken(keys);
    assert.match(t, /^[A-Za-z0-9_-]{86}$/);
    assert.ok(verifyToken(keys, t));
    assert.ok(!verifyToken(csrfKeys(S2), t));
  });

  it('rotation: the first secret signs, every secret verifies', () => {
    const old = csrfKeys(S1);
    const rotated = csrfKeys(`${S2},${S1}`);
    const t = newToken(old);
    assert.ok(verifyToken(rotated, t));
    assert.ok(!verifyToken(rotated, t, true), 'not with the primary key alone');
    assert.ok(verifyToken(old, newToken(csrfKeys(S1))));
    assert.ok(!verifyToken(old, newToken(rotated)));
  });

  it('secrets shorter than 32 bytes are refused, naming which', () => {
    assert.throws(
      () => csrfKeys('short'),
      (e: Error) =>
        e instanceof CsrfConfigError &&
        e.message === 'KIT_CSRF_SECRET: secret 1 of 1 has 5 bytes; each secret needs at least 32',
    );
    assert.throws(() => csrfKeys(`${S1},tiny`), /secret 2 of 2 has 4 bytes/);
    assert.ok(csrfKeys(undefined).ephemeral);
    assert.ok(csrfKeys('').ephemeral);
    assert.ok(!csrfKeys(S1).ephemeral);
  });

  it('double submit: both present, equal and signed', () => {
    const keys = csrfKeys(S1);
    const t = newToken(keys);
    const u = newToken(keys);
    assert.ok(validSubmission(keys, t, t));
    assert.ok(!validSubmission(keys, t, u), 'different tokens');
    assert.ok(!validSubmission(keys, undefined, t));
    assert.ok(!validSubmission(keys, t, undefined));
    assert.ok(!validSubmission(keys, t.slice(1), t.slice(1)), 'wrong length');
    const tampered = (t[0] === 'A' ? 'B' : 'A') + t.slice(1);
    assert.ok(!validSubmission(keys, tampered, tampered), 'tampered nonce');
    assert.ok(!validSubmission(keys, '!'.repeat(86), '!'.repeat(86)), 'not base64url');
  });

  it('cookies: names by scheme and parsing', () => {
    assert.equal(setCookieValue('T', true), '__Host-kit-csrf=T; Path=/; HttpOnly; SameSite=Lax; Secure');
    assert.equal(setCookieValue('T', false), 'kit-csrf=T; Path=/; HttpOnly; SameSite=Lax');
    assert.equal(readCookie('a=1; kit-csrf=xyz; b=2', 'kit-csrf'), 'xyz');
    assert.equal(readCookie('xkit-csrf=1; kit-csrf="q"', 'kit-csrf'), 'q');
    assert.equal(readCookie('a=1', 'kit-csrf'), undefined);
    assert.equal(readCookie(undefined, 'kit-csrf'), undefined);
  });
});

describe('response helpers', () => {
  it('local paths only', () => {
    for (const p of ['/', '/a', '/a?b=//c', '/a#x']) assert.ok(isLocalPath(p), p);
    for (const p of ['', 'a', '//evil', '/\\evil', 'https://evil', '/a\r\nSet-Cookie: x', '/a\\b'])
      assert.ok(!isLocalPath(p), JSON.stringify(p));
    assert.throws(() => redirect('https://evil.example/'), /local path/);
    const r = redirect('/done');
    assert.equal(r.status, 303);
    assert.equal(r.headers.get('location'), '/done');
  });

  it('builders', async () => {
    const f = fragment('#box', '<b>x</b>');
    assert.equal(f.headers.get('x-kit-fragment-target'), '#box');
    assert.equal(f.headers.get('x-kit-fragment-swap'), 'innerHTML');
    assert.throws(() => fragment('.cls', 'x'), /literal #id/);
    assert.equal(reload().status, 204);
    assert.equal(reload().headers.get('x-kit-reload'), '1');
    assert.equal(json({ a: 1 }).headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(await json({ a: 1 }).text(), '{"a":1}');
    assert.equal(html('<p>').headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(toResponse(undefined).status, 204);
    assert.equal(await toResponse('<p>x</p>').text(), '<p>x</p>');
    assert.equal(await toResponse([1]).text(), '[1]');
  });
});

describe('guards', () => {
  it('run in order; the first non-allow decides; unknown IDs fail closed', async () => {
    const calls: string[] = [];
    const reg = guardRegistry({
      guards: {
        a: () => (calls.push('a'), allow()),
        b: () => (calls.push('b'), true),
        no: () => deny(),
        go: () => redirectTo('/login'),
        boom: () => {
          throw new Error('x');
        },
        odd: () => 42,
      },
    });
    assert.equal((await runGuards(['a', 'b'], reg, background())).kind, 'allow');
    assert.deepEqual(calls, ['a', 'b']);
    assert.equal((await runGuards(['a', 'no', 'b'], reg, background())).kind, 'deny');
    assert.deepEqual(await runGuards(['go'], reg, background()), { kind: 'redirect', location: '/login', status: 303 });
    assert.deepEqual(await runGuards(['missing'], reg, background()), { kind: 'unknown', id: 'missing' });
    assert.equal((await runGuards(['boom'], reg, background())).kind, 'error');
    assert.equal(
      (await runGuards(['odd'], reg, background())).kind,
      'error',
      'a guard answering nonsense does not allow',
    );
    assert.equal((await runGuards(['public'], reg, background())).kind, 'allow');
  });

  it('config shapes and mistakes', () => {
    assert.equal(guardRegistry({ default: { guards: { x: () => true } } }).size, 1);
    assert.equal(guardRegistry(undefined).size, 0);
    assert.throws(() => guardRegistry({ guards: { x: 1 } }), /guard "x" must be a function/);
    assert.throws(() => guardRegistry({ guards: { public: () => true } }), /"public" is built in/);
    assert.throws(() => redirectTo('//evil'), /local path/);
  });
});

describe('CORS', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
  const policy = { origins: ['https://app.example'], methods: ['POST'], headers: ['x-custom'], maxAge: 600 };

  it('answers allowed preflights', () => {
    const h = preflight(
      policy,
      'POST',
      req({
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'X-Custom, content-type',
      }),
    );
    assert.deepEqual(h, {
      'Access-Control-Allow-Origin': 'https://app.example',
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'x-custom, content-type',
      'Access-Control-Max-Age': '600',
      Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    });
  });

  it('refuses other origins, methods and headers', () => {
    assert.equal(
      preflight(policy, 'POST', req({ origin: 'https://evil.example', 'access-control-request-method': 'POST' })),
      undefined,
    );
    assert.equal(
      preflight(policy, 'POST', req({ origin: 'https://app.example', 'access-control-request-method': 'DELETE' })),
      undefined,
    );
    assert.equal(
      preflight(
        policy,
        'POST',
        req({
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        }),
      ),
      undefined,
    );
    assert.ok(
      !originAllowed({ origins: ['*'], credentials: true }, 'https://x.example'),
      'no wildcard with credentials',
    );
    assert.ok(originAllowed({ origins: ['*'] }, 'https://x.example'));
    assert.ok(originAllowed(policy, 'https://APP.example:443'), 'origins compare normalised');
  });
});
