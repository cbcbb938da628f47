// Route patterns repeat across a workspace (a page route is read by the summary, the rules and the
// registrations; actions inherit it), and a ParsedRoute is immutable data: parse each once.
import { parseRoutePattern, type ParsedRoute } from '#shared/route/index.js';
import { exactSize } from './exact-size.js';

const cache = new Map<string, ParsedRoute>();
const LIMIT = 100_000;

export function parsedRoute(pattern: string): ParsedRoute {
  let r = cache.get(pattern);
  if (!r) {
    if (cache.size >= LIMIT) cache.clear();
    r = parseRoutePattern(pattern);
    // Kept as long as a summary or registration points at it.
    r.segments = exactSize(r.segments);
    cache.set(pattern, r);
  }
  return r;
}
