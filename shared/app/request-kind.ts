// What a request asks for, read from its headers: the trace lane of an endpoint kind, JSON for
// query contracts, partial form submissions, single header values.
import type { IncomingMessage } from 'node:http';
import { LaneAction, LaneAPI, LaneContract, LaneFragment, LaneRoute, type Lane } from '../trace/index.js';

export function laneOf(kind: string): Lane {
  switch (kind) {
    case 'action':
      return LaneAction;
    case 'api':
      return LaneAPI;
    case 'fragment':
      return LaneFragment;
    case 'command':
    case 'query':
      return LaneContract;
    default:
      return LaneRoute;
  }
}

export function wantsJson(req: IncomingMessage): boolean {
  const q = req.headers['x-kit-query'];
  if (q === '1' || q === 'true') return true;
  const accept = req.headers.accept;
  if (typeof accept !== 'string') return false;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

export function isPartial(req: IncomingMessage): boolean {
  const p = req.headers['x-kit-partial'];
  return typeof p === 'string' && p !== '' && p !== '0';
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
