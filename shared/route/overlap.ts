// Overlap and ambiguity between two declared routes: two patterns overlap when some path matches both.
//
// `routesOverlap` answers a purely structural question: could some request path match both
// patterns? It knows nothing about methods or about which declarations may share a path. By that
// test `/blog/about` and `/blog/{slug}` DO overlap, yet the pair is legal because the router
// prefers the concrete route. Whether an overlap is an `ambiguous_dynamic_route` depends on who
// declared the two routes; `ambiguousOverlap` holds that policy:
//   - identical shapes are never "ambiguous" (duplicate_route / route_method_conflict own them);
//   - page vs page: only when both are dynamic, or either has a rest param;
//   - any other pair: only with the same method and at least one dynamic side.
import type { ParsedRoute, Segment } from './types.js';

function compatible(a: Segment, b: Segment): boolean {
  if (a.kind !== 'static' || b.kind !== 'static') return true;
  return a.value === b.value;
}

function prefixCompatible(a: readonly Segment[], b: readonly Segment[], length: number): boolean {
  for (let i = 0; i < length; i++) if (!compatible(a[i], b[i])) return false;
  return true;
}

/**
 * Whether some request path could match both routes. Meant for two DISTINCT shapes (identical
 * shapes trivially overlap and answer true). Invalid routes never overlap: they are reported as
 * malformed instead and never registered.
 */
export function routesOverlap(a: ParsedRoute, b: ParsedRoute): boolean {
  if (!a.valid || !b.valid) return false;
  const as = a.segments;
  const bs = b.segments;
  // A valid route has at most one rest segment, always the last.
  const aPrefix = a.hasRest ? as.length - 1 : as.length;
  const bPrefix = b.hasRest ? bs.length - 1 : bs.length;
  if (!a.hasRest && !b.hasRest) return as.length === bs.length && prefixCompatible(as, bs, as.length);
  if (a.hasRest && b.hasRest) return prefixCompatible(as, bs, Math.min(aPrefix, bPrefix));
  // One rest route: it needs at least one segment past its prefix, so the other route must be at
  // least as long as the rest route itself.
  const [rest, restPrefix, other] = a.hasRest ? [as, aPrefix, bs] : [bs, bPrefix, as];
  return other.length > restPrefix && prefixCompatible(rest, other, restPrefix);
}

export interface RouteOwner {
  route: ParsedRoute;
  /** HTTP method the declaration answers (pages answer GET). */
  method: string;
  /** True for page routes; actions, APIs, fragments and contracts are not pages. */
  page: boolean;
}

/** The `ambiguous_dynamic_route` decision for two declarations (policy in the header comment). */
export function ambiguousOverlap(a: RouteOwner, b: RouteOwner): boolean {
  if (a.route.shapeKey === b.route.shapeKey) return false;
  if (a.page && b.page) {
    const applies = (a.route.isDynamic && b.route.isDynamic) || a.route.hasRest || b.route.hasRest;
    if (!applies) return false;
  } else if (a.method !== b.method || (!a.route.isDynamic && !b.route.isDynamic)) {
    return false;
  }
  return routesOverlap(a.route, b.route);
}
