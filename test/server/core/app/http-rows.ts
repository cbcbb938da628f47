// The request behaviour rows of the generated app, shared by the built-app tests and by the
// `kit dev` tests, which must give the same answers (dev additions aside).
import { strict as assert } from 'node:assert';

export type Expect = string | RegExp | null;

export interface Row {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Attach the session's valid CSRF cookie (and the form field / header per `csrfVia`). */
  csrf?: 'field' | 'header' | 'cookie-only';
  cookie?: string;
  status: number;
  expect?: Record<string, Expect>;
  includes?: string[];
  excludes?: string[];
  equals?: string;
  startsWith?: string;
}

export const TEXT = 'text/plain; charset=utf-8';
export const HTML = 'text/html; charset=utf-8';
export const JSON_TYPE = 'application/json; charset=utf-8';
export const NO_STORE = 'no-store';

function form(fields: [string, string][]): string {
  return new URLSearchParams(fields).toString();
}

export const ROWS: Row[] = [
  // ---- pages: static SPA output, cache policy, HEAD
  {
    name: 'GET / serves the built page with its cache policy',
    path: '/',
    status: 200,
    expect: { 'content-type': HTML, 'cache-control': 'public, max-age=60, stale-while-revalidate=30' },
    includes: ['<h1>Home</h1>', '<!doctype html>'],
  },
  {
    name: 'a page without cache is no-cache',
    path: '/about',
    status: 200,
    expect: { 'cache-control': 'no-cache' },
    includes: ['>About</h1>'],
  },
  { name: '/index.html is the root page', path: '/index.html', status: 200, includes: ['<h1>Home</h1>'] },
  {
    name: 'paths records are served by their decoded path',
    path: '/blog/caf%C3%A9',
    status: 200,
    expect: { 'cache-control': 'public, max-age=600' },
    includes: ['<h1>café</h1>'],
  },
  {
    name: 'a dynamic SPA path without a built file is 404',
    path: '/blog/nope',
    status: 404,
    expect: { 'cache-control': NO_STORE },
  },
  {
    name: 'unknown paths are 404 text',
    path: '/nope',
    status: 404,
    equals: '404 page not found\n',
    expect: { 'content-type': TEXT, 'x-kit-error-code': 'not_found', 'x-content-type-options': 'nosniff' },
  },
  { name: 'build metadata is never served (routes)', path: '/kit-routes.json', status: 404 },
  { name: 'build metadata is never served (assets)', path: '/kit-assets.json', status: 404 },
  {
    name: 'the link runtime is served, no-cache',
    path: '/assets/kit/kit.js',
    status: 200,
    expect: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' },
    includes: ['kit:after-swap', 'X-Kit-Partial'],
  },
  {
    name: 'PUT on a page is 405 with Allow',
    method: 'PUT',
    path: '/about',
    status: 405,
    expect: { allow: 'GET, HEAD', 'x-kit-error-code': 'method_not_allowed', 'cache-control': NO_STORE },
  },
  { name: 'DELETE where nothing lives is 404', method: 'DELETE', path: '/nothing-here', status: 404 },
  // ---- trailing slash
  { name: 'GET /x/ → 308 /x', path: '/about/', status: 308, expect: { location: '/about', 'cache-control': NO_STORE } },
  { name: '308 keeps the query', path: '/about/?a=1&b=two', status: 308, expect: { location: '/about?a=1&b=two' } },
  {
    name: 'HEAD /x/ → 308 too',
    method: 'HEAD',
    path: '/blog/hello/',
    status: 308,
    expect: { location: '/blog/hello' },
  },
  // ---- default deny and guards
  {
    name: 'a guardless page is 403 no-store',
    path: '/draft',
    status: 403,
    equals: '403 forbidden\n',
    expect: { 'cache-control': NO_STORE, 'x-kit-error-code': 'forbidden' },
  },
  {
    name: 'a guardless page through /index.html is 403',
    path: '/draft/index.html',
    status: 403,
    expect: { 'cache-control': NO_STORE },
  },
  {
    name: 'a protective guard redirects to a local path',
    path: '/account',
    status: 303,
    expect: { location: '/login', 'cache-control': NO_STORE },
  },
  {
    name: 'a guard that denies → 403',
    path: '/admin',
    status: 403,
    expect: { 'x-kit-error-code': 'guard_forbidden', 'cache-control': NO_STORE },
  },
  {
    name: 'an unregistered guard fails closed',
    path: '/vault',
    status: 403,
    expect: { 'x-kit-error-code': 'guard_forbidden' },
  },
  {
    name: 'a throwing guard is a generic 500',
    path: '/broken',
    status: 500,
    equals: 'internal server error\n',
    excludes: ['secret-guard-detail'],
    expect: { 'cache-control': NO_STORE },
  },
  {
    name: 'a comment endpoint without //kit:guard is 403 before CSRF',
    method: 'POST',
    path: '/hook',
    status: 403,
    expect: { 'x-kit-error-code': 'forbidden' },
  },
  {
    name: 'a comment endpoint with //kit:guard public serves',
    path: '/api/stats',
    status: 200,
    expect: { 'cache-control': NO_STORE },
    includes: ['"hits":42'],
  },
  // ---- SSR
  {
    name: 'SSR rest page: load data through objects, Maps, class instances and getters, escaped',
    path: '/docs/a/b',
    status: 200,
    expect: { 'content-type': HTML, 'cache-control': 'public, max-age=60, stale-while-revalidate=300' },
    includes: [
      '<h1>a/b</h1>',
      '<a href="/docs/intro">INTRODUCTION</a>',
      '<a href="/docs/guides/routing">ROUTING &lt;RULES&gt;</a>',
      'Edited by Docs &amp; Co',
      'v3',
      '7 pages',
    ],
  },
  {
    name: 'HEAD of an SSR page has headers and no body',
    method: 'HEAD',
    path: '/docs/a',
    status: 200,
    expect: { 'content-type': HTML },
    equals: '',
  },
  { name: 'a rest route needs at least one segment', path: '/docs', status: 404 },
  {
    name: 'a load answering a redirect → no-store redirect',
    path: '/docs/moved',
    status: 303,
    expect: { location: '/docs/intro', 'cache-control': NO_STORE },
  },
  {
    name: 'typed params decode (int) and reach loads and guards',
    path: '/patients/12',
    status: 200,
    expect: { 'cache-control': NO_STORE },
    includes: ['<h1>Patient 12</h1>', 'ssr patient.visible'],
  },
  {
    name: 'a typed param that does not decode → 400 before guards',
    path: '/patients/abc',
    status: 400,
    equals: 'invalid route parameter id\n',
    expect: { 'x-kit-error-code': 'invalid_route_parameter', 'cache-control': NO_STORE },
  },
  { name: 'the 400 never echoes the raw value', path: '/patients/%3Cscript%3E', status: 400, excludes: ['script'] },
  { name: 'guards see typed params', path: '/patients/13', status: 403 },
  {
    name: 'a throwing load is a generic 500',
    path: '/explode',
    status: 500,
    equals: 'internal server error\n',
    excludes: ['secret-load-detail'],
  },
  {
    name: 'an unbound load → 501 text',
    path: '/noload',
    status: 501,
    expect: { 'content-type': TEXT, 'x-kit-error-code': 'handler_not_implemented', 'cache-control': NO_STORE },
    includes: ['LoadNoload'],
  },
  {
    name: 'a signed-in SSR page renders escaped data and injects CSRF (no-store)',
    path: '/account',
    cookie: 'session=ok',
    status: 200,
    expect: { 'cache-control': NO_STORE },
    includes: ['Hello &lt;Ann &amp; Bob&gt;', 'name="_kit_csrf"'],
  },
  { name: 'a hybrid page goes through guards', path: '/members', status: 303, expect: { location: '/login' } },
  {
    name: 'a hybrid page serves its built HTML with CSRF injection',
    path: '/members',
    cookie: 'session=ok',
    status: 200,
    expect: { 'cache-control': NO_STORE },
    includes: ['<h1>Members</h1>', 'name="_kit_csrf"'],
  },
  // ---- actions
  {
    name: 'an action without a token → 403 invalid csrf token',
    method: 'POST',
    path: '/contact',
    body: form([
      ['name', 'Ann'],
      ['email', 'a@x'],
    ]),
    status: 403,
    equals: 'invalid csrf token\n',
    expect: { 'cache-control': NO_STORE, 'x-kit-error-code': 'invalid_csrf_token' },
  },
  {
    name: 'a cookie without the submitted token → 403',
    method: 'POST',
    path: '/contact',
    csrf: 'cookie-only',
    body: form([
      ['name', 'Ann'],
      ['email', 'a@x'],
    ]),
    status: 403,
  },
  {
    name: 'a valid token in the form field decodes into the input',
    method: 'POST',
    path: '/contact',
    csrf: 'field',
    body: form([
      ['name', 'Ann'],
      ['email', 'a@x'],
      ['age', '41'],
      ['newsletter', 'on'],
      ['tags', 'a'],
      ['tags', 'b'],
    ]),
    status: 200,
    expect: { 'cache-control': NO_STORE, 'set-cookie': /sent=1/ },
    includes: ['Thanks Ann (a@x) age=41 news=true tags=a+b'],
  },
  {
    name: 'the token may come in X-Kit-CSRF',
    method: 'POST',
    path: '/contact',
    csrf: 'header',
    body: form([
      ['name', 'Bo'],
      ['email', 'b@x'],
    ]),
    status: 200,
    includes: ['Thanks Bo (b@x) age=none news=undefined tags='],
  },
  {
    name: 'POST tolerates a trailing slash',
    method: 'POST',
    path: '/contact/',
    csrf: 'field',
    body: form([
      ['name', 'Cy'],
      ['email', 'c@x'],
    ]),
    status: 200,
    includes: ['Thanks Cy'],
  },
  {
    name: 'an unknown field → 400 invalid form naming it',
    method: 'POST',
    path: '/contact',
    csrf: 'field',
    body: form([
      ['name', 'Ann'],
      ['email', 'a@x'],
      ['admin', 'yes'],
    ]),
    status: 400,
    equals: 'invalid form: field "admin" is not a field of the input\n',
    expect: { 'x-kit-error-code': 'invalid_form', 'cache-control': NO_STORE },
  },
  {
    name: 'a bad number in a field the form does not have → 400 naming the field, not the value',
    method: 'POST',
    path: '/contact',
    csrf: 'field',
    body: form([
      ['name', 'Ann'],
      ['email', 'a@x'],
      ['age', 'old<b>'],
    ]),
    status: 400,
    equals: 'invalid form: field "age" must be a number\n',
  },
  {
    name: 'a missing required field of the form → 422, the page again with the values',
    method: 'POST',
    path: '/contact',
    csrf: 'field',
    body: form([['email', 'a@x']]),
    status: 422,
    expect: { 'content-type': HTML, 'cache-control': NO_STORE, 'x-kit-error-code': 'validation_failed' },
    includes: ['<input name="name" aria-invalid="true">', '<input name="email" value="a@x">'],
  },
  {
    name: 'a repeated scalar of the form → 422',
    method: 'POST',
    path: '/contact',
    csrf: 'field',
    body: form([
      ['name', 'A'],
      ['name', 'B'],
      ['email', 'a@x'],
    ]),
    status: 422,
    includes: ['<input name="name" value="A" aria-invalid="true">'],
  },
  {
    name: 'a bad boolean → 400',
    method: 'POST',
    path: '/contact',
    csrf: 'field',
    body: form([
      ['name', 'A'],
      ['email', 'a@x'],
      ['newsletter', 'maybe'],
    ]),
    status: 400,
    equals: 'invalid form: field "newsletter" must be a boolean\n',
  },
  {
    name: 'a body that is not UTF-8 → 400 invalid form',
    method: 'POST',
    path: '/contact',
    csrf: 'header',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new Uint8Array([0x6e, 0x3d, 0xff, 0xfe]),
    status: 400,
    equals: 'invalid form\n',
  },
  {
    name: 'FormValues handlers get the raw multi-valued form without the CSRF field',
    method: 'POST',
    path: '/contact/raw',
    csrf: 'field',
    body: form([
      ['x', '1'],
      ['x', '2'],
      ['y', '3'],
    ]),
    status: 200,
    expect: { 'content-type': /application\/json/ },
    equals: '{"names":["x","y"],"all":["1","2"]}',
  },
  {
    name: 'redirect() → 303 to a local path',
    method: 'POST',
    path: '/contact/plain',
    csrf: 'header',
    status: 303,
    expect: { location: '/about', 'cache-control': NO_STORE },
  },
  {
    name: 'a handler error → generic 500 leaking nothing',
    method: 'POST',
    path: '/contact/boom',
    csrf: 'header',
    status: 500,
    equals: 'internal server error\n',
    excludes: ['hunter2'],
    expect: { 'cache-control': NO_STORE, 'x-kit-error-code': 'request_failed' },
  },
  {
    name: "a handler error answering a page's fetch for HTML → the same generic 500 text",
    method: 'POST',
    path: '/contact/boom',
    csrf: 'header',
    headers: { accept: 'text/html', 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' },
    status: 500,
    equals: 'internal server error\n',
    expect: { 'content-type': TEXT, 'x-kit-error-code': 'request_failed' },
  },
  {
    name: 'json() with a status',
    method: 'POST',
    path: '/contact/data',
    csrf: 'header',
    status: 201,
    equals: '{"saved":true}',
    expect: { 'cache-control': NO_STORE },
  },
  {
    name: 'reload() → 204 + X-Kit-Reload',
    method: 'POST',
    path: '/contact/reload',
    csrf: 'header',
    status: 204,
    expect: { 'x-kit-reload': '1', 'cache-control': NO_STORE },
  },
  {
    name: 'fragment() sets target and swap',
    method: 'POST',
    path: '/contact/part',
    csrf: 'header',
    status: 200,
    equals: '<em>partial</em>',
    expect: { 'x-kit-fragment-target': '#result', 'x-kit-fragment-swap': 'outerHTML' },
  },
  {
    name: 'a redirect to another site → 500',
    method: 'POST',
    path: '/contact/away',
    csrf: 'header',
    status: 500,
    expect: { location: null },
  },
  {
    name: 'an unbound action without a token → 403, not 501 (decision 9)',
    method: 'POST',
    path: '/contact/missing',
    status: 403,
    equals: 'invalid csrf token\n',
  },
  {
    name: 'an unbound action with a token → 501 text',
    method: 'POST',
    path: '/contact/missing',
    csrf: 'header',
    status: 501,
    includes: ['Missing'],
    expect: { 'content-type': TEXT },
  },
  {
    name: 'Sec-Fetch-Site: cross-site is refused even with a valid token',
    method: 'POST',
    path: '/contact',
    csrf: 'field',
    headers: { 'sec-fetch-site': 'cross-site' },
    body: form([
      ['name', 'Ann'],
      ['email', 'a@x'],
    ]),
    status: 403,
    equals: 'invalid csrf token\n',
  },
  {
    name: 'a partial submission gets the fragment headers',
    method: 'POST',
    path: '/contact',
    csrf: 'field',
    headers: { 'x-kit-partial': '1', 'x-kit-target': '#result', 'x-kit-swap': 'innerHTML' },
    body: form([
      ['name', 'P'],
      ['email', 'p@x'],
    ]),
    status: 200,
    expect: { 'x-kit-fragment-target': '#result', 'x-kit-fragment-swap': 'innerHTML' },
    includes: ['Thanks P'],
  },
  {
    name: 'a partial submission naming an undeclared target → 400',
    method: 'POST',
    path: '/contact',
    csrf: 'field',
    headers: { 'x-kit-partial': '1', 'x-kit-target': '#elsewhere' },
    body: form([
      ['name', 'P'],
      ['email', 'p@x'],
    ]),
    status: 400,
    equals: 'partial fragment not found\n',
    expect: { 'x-kit-error-code': 'fragment_not_found' },
  },
  {
    name: "a partial submission that fails the form's rules → 422, only the form again to swap in",
    method: 'POST',
    path: '/contact',
    csrf: 'field',
    headers: { 'x-kit-partial': '1', 'x-kit-target': '#result', 'x-kit-swap': 'innerHTML' },
    body: form([['email', 'a@x']]),
    status: 422,
    expect: { 'content-type': HTML, 'x-kit-form-replace': '1', 'cache-control': NO_STORE },
    includes: ['<input name="name" aria-invalid="true">'],
    startsWith: '<form method="post" action="/contact"',
  },
  {
    name: 'a partial submission failing a constraint of the input → 422, the form with its messages',
    method: 'POST',
    path: '/signup',
    csrf: 'field',
    headers: { 'x-kit-partial': '1', 'x-kit-target': '#outcome' },
    body: form([
      ['name', 'A'],
      ['email', 'a@x.example'],
    ]),
    status: 422,
    expect: { 'x-kit-form-replace': '1', 'x-kit-error-code': 'validation_failed' },
    includes: ['data-kit-error="name">Please use at least 2 characters.</p>'],
    startsWith: '<form ',
  },
  {
    name: "a partial submission the action fails → 422, the form with the action's message",
    method: 'POST',
    path: '/signup',
    csrf: 'field',
    headers: { 'x-kit-partial': '1', 'x-kit-target': '#outcome' },
    body: form([
      ['name', 'Ann'],
      ['email', 'ann@taken.example'],
    ]),
    status: 422,
    expect: { 'x-kit-form-replace': '1' },
    includes: ['ann@taken.example is already registered'],
    startsWith: '<form ',
  },
  {
    name: 'a partial submission the action shows the page for → its target only',
    method: 'POST',
    path: '/signup',
    csrf: 'field',
    headers: { 'x-kit-partial': '1', 'x-kit-target': '#outcome' },
    body: form([
      ['name', 'Ann'],
      ['email', 'ann@example.org'],
    ]),
    status: 200,
    expect: { 'x-kit-fragment-target': '#outcome', 'x-kit-form-replace': null },
    includes: ['Welcome, Ann!'],
    excludes: ['<form', '<html'],
  },
  {
    name: 'the same failure without JavaScript → 422, the whole page',
    method: 'POST',
    path: '/signup',
    csrf: 'field',
    body: form([
      ['name', 'Ann'],
      ['email', 'ann@taken.example'],
    ]),
    status: 422,
    expect: { 'x-kit-form-replace': null },
    includes: ['ann@taken.example is already registered', '<h1>Sign up</h1>'],
    startsWith: '<!doctype html>',
  },
  {
    name: 'a guarded page action runs the guard first',
    method: 'POST',
    path: '/account/rename',
    body: form([['name', 'x']]),
    status: 303,
    expect: { location: '/login' },
  },
  // ---- APIs
  {
    name: 'API GET → the handler Response, no-store',
    path: '/api/health',
    status: 200,
    expect: { 'cache-control': NO_STORE },
    equals: '{"ok":true,"path":"/api/health"}',
  },
  {
    name: 'API method mismatch → 405 with Allow',
    method: 'DELETE',
    path: '/api/health',
    status: 405,
    expect: { allow: 'GET' },
  },
  { name: 'API GET on a POST API → 405 with Allow', path: '/api/echo', status: 405, expect: { allow: 'POST' } },
  {
    name: 'HEAD is not routed to a GET API',
    method: 'HEAD',
    path: '/api/health',
    status: 405,
    expect: { allow: 'GET' },
  },
  {
    name: 'a state-changing API without a token → 403 JSON envelope',
    method: 'POST',
    path: '/api/echo',
    body: 'hi',
    status: 403,
    equals: '{"ok":false,"error":{"code":"invalid_csrf_token","message":"invalid csrf token"}}',
    expect: { 'content-type': JSON_TYPE, 'x-kit-error-code': 'invalid_csrf_token', 'cache-control': NO_STORE },
  },
  {
    name: 'a state-changing API with X-Kit-CSRF gets the raw Request',
    method: 'POST',
    path: '/api/echo',
    csrf: 'header',
    headers: { 'content-type': 'text/plain' },
    body: 'ping',
    status: 200,
    equals: '{"method":"POST","received":"ping"}',
  },
  {
    name: 'CORS preflight from a declared origin',
    method: 'OPTIONS',
    path: '/api/echo',
    headers: {
      origin: 'https://app.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-custom',
    },
    status: 204,
    expect: {
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'x-custom',
      'access-control-max-age': '600',
    },
  },
  {
    name: 'CORS preflight from another origin → 403',
    method: 'OPTIONS',
    path: '/api/echo',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    status: 403,
    expect: { 'access-control-allow-origin': null },
    includes: ['cors preflight denied'],
  },
  {
    name: 'CORS headers on the actual answer',
    method: 'POST',
    path: '/api/echo',
    csrf: 'header',
    headers: { origin: 'https://app.example', 'content-type': 'text/plain' },
    body: 'x',
    status: 200,
    expect: { 'access-control-allow-origin': 'https://app.example', vary: 'Origin' },
  },
  {
    name: 'an unbound API → 501 JSON envelope',
    path: '/api/gone',
    status: 501,
    expect: { 'content-type': JSON_TYPE, 'cache-control': NO_STORE },
    includes: ['{"ok":false,"error":{"code":"handler_not_implemented","message":'],
  },
  {
    name: 'a throwing API → 500 JSON leaking nothing',
    path: '/api/crash',
    status: 500,
    equals: '{"ok":false,"error":{"code":"request_failed","message":"internal server error"}}',
    excludes: ['secret-crash'],
  },
  {
    name: 'an API returning a symbol → 500, logged',
    path: '/api/sym',
    status: 500,
    equals: '{"ok":false,"error":{"code":"request_failed","message":"internal server error"}}',
  },
  {
    name: 'an API returning a function → 500, logged',
    path: '/api/fn',
    status: 500,
    equals: '{"ok":false,"error":{"code":"request_failed","message":"internal server error"}}',
  },
  {
    name: 'a path-less action of a dynamic SPA page answers at a generated path',
    method: 'POST',
    path: '/blog/hello',
    csrf: 'field',
    body: '',
    status: 200,
    equals: 'liked hello',
  },
  {
    name: 'it answers at a generated path with encoded characters too',
    method: 'POST',
    path: '/blog/caf%C3%A9',
    csrf: 'field',
    body: '',
    status: 200,
    equals: 'liked café',
  },
  {
    name: 'and nowhere else: 404, the handler never runs',
    method: 'POST',
    path: '/blog/not-generated',
    csrf: 'field',
    body: '',
    status: 404,
    excludes: ['liked'],
  },
  // ---- fragments
  {
    name: 'a fragment hook answers with the declared target, no-store',
    path: '/patients/12/vitals',
    status: 200,
    expect: { 'x-kit-fragment-target': '#vitals', 'x-kit-fragment-swap': 'innerHTML', 'cache-control': NO_STORE },
    equals: '<p>vitals 13 via fragment:Vitals</p>',
  },
  {
    name: 'fragment params decode before guards (400)',
    path: '/patients/abc/vitals',
    status: 400,
    equals: 'invalid route parameter id\n',
  },
  { name: 'fragments inherit the page guards', path: '/patients/13/vitals', status: 403 },
  {
    name: 'a fragment without a hook serves its static body, rest params included',
    path: '/charts/a/b',
    status: 200,
    equals: '<p>chart a/b</p>',
    expect: { 'x-kit-fragment-target': '#chart' },
  },
  // ---- contracts
  {
    name: 'a g:query answers JSON when asked for JSON',
    path: '/notes',
    headers: { accept: 'application/json' },
    status: 200,
    equals: '[{"id":1,"text":"first"}]',
    expect: { 'cache-control': NO_STORE },
  },
  {
    name: 'the same path without JSON is the page',
    path: '/notes',
    status: 200,
    includes: ['<form action="/notes/save"'],
  },
  {
    name: 'a g:command without a token → 403 JSON',
    method: 'POST',
    path: '/notes/save',
    body: form([['text', 'hi']]),
    status: 403,
    expect: { 'content-type': JSON_TYPE },
  },
  {
    name: 'a g:command with a token → its JSON result',
    method: 'POST',
    path: '/notes/save',
    csrf: 'field',
    body: form([['text', 'hi']]),
    status: 200,
    equals: '{"saved":"hi"}',
  },
  // ---- health and trace mount
  {
    name: 'GET /_kit/health',
    path: '/_kit/health',
    status: 200,
    expect: { 'cache-control': NO_STORE },
    includes: ['"status":"ok"'],
  },
  { name: 'the trace mount is 404 while tracing is off', path: '/_kit/traces', status: 404 },
];

export interface Session {
  token: string;
  cookie: string;
}

export async function csrfSession(base: string): Promise<Session> {
  const r = await fetch(base + '/contact');
  const setCookie = r.headers.get('set-cookie') ?? '';
  const token = /kit-csrf=([A-Za-z0-9_-]{86})/.exec(setCookie)?.[1];
  assert.ok(token, `GET /contact sets a CSRF cookie (got ${setCookie})`);
  const html = await r.text();
  assert.ok(
    html.includes(`<input type="hidden" name="_kit_csrf" value="${token}">`),
    'the form field carries the cookie token',
  );
  return { token, cookie: `kit-csrf=${token}` };
}

/** Makes a body comparable across servers (kit dev strips its own additions). */
export type Normalize = (text: string) => string;

/** Sends a row's request (with the session's CSRF cookie, field or header as the row asks). */
export function sendRow(base: string, session: Session, row: Row): Promise<Response> {
  const headers = new Headers(row.headers);
  const cookies: string[] = [];
  if (row.cookie) cookies.push(row.cookie);
  let body = row.body;
  if (row.csrf) {
    cookies.push(session.cookie);
    if (row.csrf === 'header') headers.set('x-kit-csrf', session.token);
    if (row.csrf === 'field')
      body = (typeof body === 'string' && body !== '' ? body + '&' : '') + `_kit_csrf=${session.token}`;
  }
  if (cookies.length) headers.set('cookie', cookies.join('; '));
  if (typeof body === 'string' && !headers.has('content-type'))
    headers.set('content-type', 'application/x-www-form-urlencoded');
  const method = row.method ?? 'GET';
  return fetch(base + row.path, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : ((body ?? '') as BodyInit),
    redirect: 'manual',
  });
}

export async function runRow(base: string, session: Session, row: Row, normalize?: Normalize): Promise<void> {
  const method = row.method ?? 'GET';
  const res = await sendRow(base, session, row);
  const text = normalize ? normalize(await res.text()) : await res.text();
  assert.equal(res.status, row.status, `${method} ${row.path}: status (body ${JSON.stringify(text.slice(0, 200))})`);
  for (const [name, want] of Object.entries(row.expect ?? {})) {
    const got = res.headers.get(name);
    if (want === null) assert.equal(got, null, `header ${name} absent`);
    else if (typeof want === 'string') assert.equal(got, want, `header ${name}`);
    else assert.match(got ?? '', want, `header ${name}`);
  }
  if (row.equals !== undefined) assert.equal(text, row.equals);
  if (row.startsWith !== undefined)
    assert.ok(text.startsWith(row.startsWith), `body starts with ${JSON.stringify(row.startsWith)}:\n${text}`);
  for (const s of row.includes ?? []) assert.ok(text.includes(s), `body includes ${JSON.stringify(s)}:\n${text}`);
  for (const s of row.excludes ?? []) assert.ok(!text.includes(s), `body must not include ${JSON.stringify(s)}`);
}
