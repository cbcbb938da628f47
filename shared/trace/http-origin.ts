// Request-origin checks for the ingest endpoint and the loopback gate for local trace access.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** The first comma-separated value of a header (of its first line, when repeated). */
function firstValue(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined ? undefined : v.split(',')[0]!.trim();
}

/** `http` or `https` in any case (the only schemes a proxy header may name), else undefined. */
function httpScheme(value: string | undefined): 'http' | 'https' | undefined {
  const v = value?.replace(/^"|"$/g, '').toLowerCase();
  return v === 'http' || v === 'https' ? v : undefined;
}

/** `proto=` of the first element of a `Forwarded` header (RFC 7239). */
function forwardedProto(header: string | string[] | undefined): string | undefined {
  const first = firstValue(header);
  if (first === undefined) return undefined;
  for (const pair of first.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'proto') return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The scheme the client used, decided here for every part of kit (the app's CSRF cookie and the
 * URL handlers see, the collector's origin check): TLS on the socket is `https` whatever a header
 * says; otherwise the first `X-Forwarded-Proto` value, then `proto=` of the first `Forwarded`
 * element, each counted only when it names `http` or `https`; otherwise `http`. Proxy headers are
 * believed from whoever sends them: behind a balancer, it must set them (docs/deploy.md).
 */
export function requestScheme(req: IncomingMessage): 'http' | 'https' {
  if ((req.socket as TLSSocket).encrypted) return 'https';
  return (
    httpScheme(firstValue(req.headers['x-forwarded-proto'])) ??
    httpScheme(forwardedProto(req.headers.forwarded)) ??
    'http'
  );
}

/** `scheme://host[:port]` with default ports removed and the host lowercased, or null if unparsable. */
export function normalizeOrigin(origin: string): string | null {
  try {
    const u = new URL(origin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) return null;
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

/**
 * True when the request carries an `Origin` and it is the origin the request was sent to. A request
 * without one is refused too: browsers send `Origin` on every cross-site POST, so only a same-origin
 * page (or a tool that says where it comes from) gets through.
 */
export function isSameOriginRequest(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  const host = req.headers.host;
  if (typeof host !== 'string' || host === '') return false;
  const want = normalizeOrigin(`${requestScheme(req)}://${host}`);
  return want !== null && normalizeOrigin(origin) === want;
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped IPv6 forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const a = address.toLowerCase();
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * True when `Host` names this machine's loopback: `localhost` (or a name under `.localhost`, which
 * browsers resolve to loopback themselves), 127.0.0.0/8 or `[::1]`, with any port. A page on another
 * site that rebinds its own name to 127.0.0.1 still sends its own name: it is refused.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (typeof host !== 'string' || host === '') return false;
  const h = host.toLowerCase();
  let name: string;
  let port: string;
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return false;
    name = h.slice(1, end);
    port = h.slice(end + 1);
  } else {
    const colon = h.indexOf(':');
    name = colon < 0 ? h : h.slice(0, colon);
    port = colon < 0 ? '' : h.slice(colon);
  }
  if (port !== '' && !/^:[0-9]{1,5}$/.test(port)) return false;
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name);
}

/**
 * The local-trace-access gate: the peer AND the local address are loopback, and no proxy header
 * (`Forwarded`, `X-Forwarded-*`, `X-Real-IP`) is present — a request relayed by a local proxy is refused.
 */
export function isLoopbackRequest(req: IncomingMessage): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress) || !isLoopbackAddress(req.socket.localAddress)) return false;
  for (const name of Object.keys(req.headers)) {
    const n = name.toLowerCase();
    if (n === 'forwarded' || n === 'x-real-ip' || n.startsWith('x-forwarded-')) return false;
  }
  return true;
}
