// The scheme a request came with, decided in one place (`requestScheme`) for the app (its CSRF
// cookie, the URL handlers see) and the trace collector (the origin check of browser spans): TLS
// on the socket, else the first `X-Forwarded-Proto` value, else `Forwarded: proto=`, else http.
import { strict as assert } from 'node:assert';
import type { IncomingMessage } from 'node:http';
import { isSecureRequest } from '../../../shared/app/context.js';
import { requestScheme } from '../../../shared/trace/http-origin.js';

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
