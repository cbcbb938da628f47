// CORS for APIs that declare `cors origins "..." methods "..." headers "..." expose "..." credentials
// true maxAge 600`. Preflights are answered before guards and CSRF; a
// preflight the policy does not allow gets 403 `cors preflight denied`.
import type { IncomingMessage } from 'node:http';
import type { CorsPolicy } from './manifest.js';

/** `scheme://host[:port]` lowercased without default ports, or undefined. */
export function normalizeOrigin(origin: string): string | undefined {
  if (origin === '*') return '*';
  try {
    const u = new URL(origin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return `${u.protocol}//${u.host}`;
  } catch {
    return undefined;
  }
}

export function originAllowed(policy: CorsPolicy, origin: string | undefined): boolean {
  if (origin === undefined) return false;
  if (policy.origins.includes('*')) return !policy.credentials;
  const o = normalizeOrigin(origin);
  return o !== undefined && policy.origins.includes(o);
}

/** Headers of an actual (non-preflight) response to an allowed origin. */
export function corsResponseHeaders(policy: CorsPolicy, origin: string): Record<string, string> {
  const h: Record<string, string> = {
    'Access-Control-Allow-Origin': policy.origins.includes('*') ? '*' : origin,
    Vary: 'Origin',
  };
  if (policy.credentials) h['Access-Control-Allow-Credentials'] = 'true';
  if (policy.expose?.length) h['Access-Control-Expose-Headers'] = policy.expose.join(', ');
  return h;
}

/** Always-safe request headers a client may send without listing them. */
const SAFELISTED = new Set(['accept', 'accept-language', 'content-language', 'content-type', 'x-kit-csrf']);

/** The preflight answer headers, or undefined when the policy does not allow the request. */
export function preflight(
  policy: CorsPolicy,
  endpointMethod: string,
  req: IncomingMessage,
): Record<string, string> | undefined {
  const origin = req.headers.origin;
  if (!originAllowed(policy, origin)) return undefined;
  const method = String(req.headers['access-control-request-method'] ?? '').toUpperCase();
  const methods = policy.methods?.length ? policy.methods : [endpointMethod];
  if (!methods.includes(method)) return undefined;
  const asked = String(req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const allowedHeaders = new Set([...SAFELISTED, ...(policy.headers ?? [])]);
  if (asked.some((h) => !allowedHeaders.has(h))) return undefined;
  const h = corsResponseHeaders(policy, origin!);
  delete h['Access-Control-Expose-Headers'];
  h['Access-Control-Allow-Methods'] = methods.join(', ');
  if (asked.length) h['Access-Control-Allow-Headers'] = asked.join(', ');
  if (policy.maxAge !== undefined) h['Access-Control-Max-Age'] = String(policy.maxAge);
  h.Vary = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
  return h;
}
