// The Host rule of local servers (`kit dev`, `kit preview`): which `Host` headers each binding
// answers, and how an `allowedHosts` list is read.
// And the scheme a request came with, decided in one place (`requestScheme`) for the app (its CSRF
// cookie, the URL handlers see) and the trace collector (the origin check of browser spans): TLS
// on the socket, else the first `X-Forwarded-Proto` value, else `Forwarded: proto=`, else http.
import { strict as assert } from 'node:assert';
import type { IncomingMessage } from 'node:http';
import { isSecureRequest } from '#shared/app/context.js';
import { isAllowedHost, parseAllowedHosts, requestScheme, type HostRule } from '#shared/trace/http-origin.js';

const loopback: HostRule = { bound: '127.0.0.1', port: 3000, allowed: [] };

describe('isAllowedHost', () => {
  const table: [string, HostRule, (string | undefined)[], (string | undefined)[]][] = [
    [
      'bound to 127.0.0.1',
      loopback,
      ['127.0.0.1:3000', 'localhost:3000', 'LocalHost:3000', 'app.localhost:3000'],
      [
        undefined,
        '',
        'evil.com',
        'evil.com:3000',
        'localhost.evil.com:3000',
        '127.1:3000',
        '0x7f000001:3000',
        '2130706433:3000',
        '127.000.000.001:3000',
        '127.0.0.2:3000',
        '[::1]:3000',
        '127.0.0.1:3001',
        'localhost:3001',
        '127.0.0.1',
        'localhost',
        'localhost:3000:3000',
        'localhost:x',
        '[::1',
      ],
    ],
    ['bound to ::1', { bound: '::1', port: 3000, allowed: [] }, ['[::1]:3000', 'localhost:3000'], ['127.0.0.1:3000']],
    [
      'bound to localhost',
      { bound: 'localhost', port: 3000, allowed: [] },
      ['127.0.0.1:3000', '[::1]:3000', 'localhost:3000'],
      ['127.0.0.2:3000', 'evil.com:3000'],
    ],
    [
      'bound to every interface',
      { bound: '0.0.0.0', port: 3000, allowed: [] },
      ['192.168.1.20:3000', '10.0.0.1:3000', '[fe80::1]:3000', '127.0.0.1:3000', 'localhost:3000'],
      ['192.168.1.20:3001', 'evil.com:3000', 'box.lan:3000', '127.1:3000', '0x7f000001:3000'],
    ],
    [
      'with names allowed',
      { bound: '127.0.0.1', port: 3000, allowed: ['dev.test', '.example.test'] },
      ['dev.test', 'dev.test:443', 'example.test', 'a.example.test:8080', 'localhost:3000'],
      ['evil.com', 'xdev.test', 'dev.test.evil.com', 'notexample.test', 'example.test.evil.com'],
    ],
    ['with all', { bound: '127.0.0.1', port: 3000, allowed: ['all'] }, ['evil.com', undefined], []],
  ];
  for (const [name, rule, yes, no] of table)
    it(name, () => {
      for (const h of yes) assert.equal(isAllowedHost(h, rule), true, `${h} is answered`);
      for (const h of no) assert.equal(isAllowedHost(h, rule), false, `${h} is refused`);
    });
});

describe('parseAllowedHosts', () => {
  it('reads names, .names, addresses and all; refuses anything else naming it', () => {
    assert.deepEqual(parseAllowedHosts(' Dev.Test, .example.test,,192.168.1.2,[::1], all '), [
      'dev.test',
      '.example.test',
      '192.168.1.2',
      '::1',
      'all',
    ]);
    assert.deepEqual(parseAllowedHosts(''), []);
    for (const bad of ['http://x/', 'a b', 'x:80', '*.example.test', 'a..b', '-a.test'])
      assert.throws(
        () => parseAllowedHosts(bad),
        new RegExp(`"${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" is not a host name`),
      );
  });
});

function request(headers: Record<string, string | string[]>, encrypted = false): IncomingMessage {
  return { headers, socket: { encrypted } } as unknown as IncomingMessage;
}

const ROWS: { name: string; headers: Record<string, string | string[]>; tls?: boolean; scheme: string }[] = [
  { name: 'plain socket, no header', headers: {}, scheme: 'http' },
  { name: 'TLS socket', headers: {}, tls: true, scheme: 'https' },
  { name: 'TLS socket, a header saying http', headers: { 'x-forwarded-proto': 'http' }, tls: true, scheme: 'https' },
  { name: 'X-Forwarded-Proto https', headers: { 'x-forwarded-proto': 'https' }, scheme: 'https' },
  { name: 'X-Forwarded-Proto, first value', headers: { 'x-forwarded-proto': 'HTTPS, http' }, scheme: 'https' },
  { name: 'X-Forwarded-Proto repeated', headers: { 'x-forwarded-proto': ['http', 'https'] }, scheme: 'http' },
  { name: 'Forwarded proto=https', headers: { forwarded: 'for=1.2.3.4;proto=https' }, scheme: 'https' },
  { name: 'Forwarded quoted', headers: { forwarded: 'proto="https";by=x' }, scheme: 'https' },
  { name: 'Forwarded, first element', headers: { forwarded: 'proto=http, proto=https' }, scheme: 'http' },
  {
    name: 'X-Forwarded-Proto http wins over Forwarded https',
    headers: { 'x-forwarded-proto': 'http', forwarded: 'proto=https' },
    scheme: 'http',
  },
  {
    name: 'X-Forwarded-Proto https wins over Forwarded http',
    headers: { 'x-forwarded-proto': 'https', forwarded: 'proto=http' },
    scheme: 'https',
  },
  {
    name: 'an X-Forwarded-Proto that is no scheme leaves it to Forwarded',
    headers: { 'x-forwarded-proto': 'wss', forwarded: 'proto=https' },
    scheme: 'https',
  },
  { name: 'Forwarded without proto', headers: { forwarded: 'for=1.2.3.4' }, scheme: 'http' },
];

describe('the request scheme, decided once', () => {
  for (const row of ROWS) {
    it(`${row.name}: ${row.scheme}, for the trace collector and the app alike`, () => {
      const req = request(row.headers, row.tls);
      assert.equal(requestScheme(req), row.scheme);
      assert.equal(isSecureRequest(req), row.scheme === 'https');
    });
  }
});
