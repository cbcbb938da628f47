// Route patterns repeat across a workspace (a page route is read by the summary, the rules and the
// registrations; actions inherit it), and a ParsedRoute is immutable data: parse each once.
import { parseRoutePattern, type ParsedRoute } from '#shared/route/index.js';

const cache = new Map<string, ParsedRoute>();
const LIMIT = 100_000;

export function parsedRoute(pattern: string): ParsedRoute {
  let r = cache.get(pattern);
  if (!r) {
    if (cache.size >= LIMIT) cache.clear();
    r = parseRoutePattern(pattern);
    // Kept as long as a summary or registration points at it: without the spare room of a list
    // grown by `push` (17 slots for a route's two segments).
    if (r.segments.length > 0) r.segments = r.segments.slice();
    cache.set(pattern, r);
  }
  return r;
}
