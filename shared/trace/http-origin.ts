// Request-origin checks: the collector's ingest endpoint and loopback gate for local trace access,
// and the `Host` rule of local servers (`kit dev`, `kit preview`): a page on another site that
// rebinds its own name to 127.0.0.1 still sends its own name, so a server that answers only the
// names it was started for cannot be read through such a page.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
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

/** A `Host` header's name (lowercased, without IPv6 brackets) and port ('' when none), or undefined. */
function splitHost(host: string | undefined): { name: string; port: string } | undefined {
  if (typeof host !== 'string' || host === '') return undefined;
  const h = host.toLowerCase();
  let name: string;
  let port: string;
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return undefined;
    name = h.slice(1, end);
    port = h.slice(end + 1);
  } else {
    const colon = h.indexOf(':');
    name = colon < 0 ? h : h.slice(0, colon);
    port = colon < 0 ? '' : h.slice(colon);
  }
  if (port !== '' && !/^:[0-9]{1,5}$/.test(port)) return undefined;
  return { name, port: port.slice(1) };
}

/** `localhost` or a name under `.localhost`, which browsers resolve to loopback themselves. */
function isLocalhostName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * True when `Host` names this machine's loopback: `localhost` (or a name under `.localhost`),
 * 127.0.0.0/8 or `[::1]`, with any port. A page on another site that rebinds its own name to
 * 127.0.0.1 still sends its own name: it is refused.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  const h = splitHost(host);
  return h !== undefined && (isLocalhostName(h.name) || isLoopbackAddress(h.name));
}

/** What `Host` a local server answers (`kit dev`, `kit preview`; see `isAllowedHost`). */
export interface HostRule {
  /** The address (or name) the server listens on, as given: `127.0.0.1`, `::1`, `0.0.0.0`, `localhost`... */
  bound: string;
  /** The port it listens on. */
  port: number;
  /**
   * More names it answers, with any port (Vite's `server.allowedHosts`): `example.test`, or
   * `.example.test` for that name and every name under it; `all` turns the check off.
   */
  allowed: readonly string[];
}

/** The canonical form of an IP literal as a `Host` carries it (`::1` for `[::1]`), or undefined. */
function ipLiteral(name: string): string | undefined {
  // `isIP` takes only canonical dotted quads: `127.1` and `0x7f000001` are names, not addresses.
  return isIP(name) === 0 ? undefined : name;
}

/**
 * Whether a local server answers a request for `host`. Always the loopback names with the server's
 * own port: `localhost` and names under `.localhost`, and the loopback address it listens on (both
 * 127.0.0.1 and ::1 when it listens on `localhost`). A server that listens on another interface
 * (`0.0.0.0`, a LAN address) answers every IP address with its port too: a rebinding page sends a
 * name, never an address. Any other name only when `allowed` lists it (with any port: a proxy or a
 * tunnel in front of the server has its own).
 */
export function isAllowedHost(host: string | undefined, rule: HostRule): boolean {
  if (rule.allowed.includes('all')) return true;
  const h = splitHost(host);
  if (h === undefined) return false;
  for (const a of rule.allowed)
    if (a.startsWith('.') ? h.name === a.slice(1) || h.name.endsWith(a) : h.name === a) return true;
  if ((h.port === '' ? 80 : Number(h.port)) !== rule.port) return false;
  if (isLocalhostName(h.name)) return true;
  const bound = rule.bound.toLowerCase().replace(/^\[|\]$/g, '');
  const ip = ipLiteral(h.name);
  if (bound === 'localhost') return ip === '127.0.0.1' || ip === '::1';
  if (isLoopbackAddress(bound)) return ip === bound;
  return ip !== undefined || h.name === bound;
}

/**
 * The names of an `allowedHosts` option (`--allowed-hosts`, `KIT_ALLOWED_HOSTS`): comma-separated
 * host names, `.name` for a name and those under it, IP addresses, or `all`. Throws a TypeError
 * naming the first entry that is none of these.
 */
export function parseAllowedHosts(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const bare = entry.replace(/^\[|\]$/g, '');
    if (
      entry !== 'all' &&
      ipLiteral(bare) === undefined &&
      !/^\.?[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/.test(entry)
    )
      throw new TypeError(
        `${JSON.stringify(raw.trim())} is not a host name (expected names such as example.test or .example.test, ` +
          'IP addresses, or all)',
      );
    out.push(ipLiteral(bare) ?? entry);
  }
  return out;
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
