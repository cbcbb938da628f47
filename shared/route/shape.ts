// Shape keys: a route's identity for duplicate and conflict checks. Param names and types do not
// change which requests a route answers, so they are erased: `/blog/{slug}` and `/blog/{id:int}`
// are one shape, `/blog/{}`; a rest param becomes `{**}`.
import type { ParsedRoute, Segment } from './types.js';

export const PARAM_SHAPE = '{}';
export const REST_SHAPE = '{**}';

export function shapeKeyOf(segments: readonly Segment[]): string {
  if (segments.length === 0) return '/';
  let key = '';
  for (const s of segments)
    key += '/' + (s.kind === 'static' ? s.value : s.kind === 'param' ? PARAM_SHAPE : REST_SHAPE);
  return key;
}

/** The normalised pattern used for duplicates and conflicts (same as `r.shapeKey`). */
export function routeShapeKey(r: ParsedRoute): string {
  return shapeKeyOf(r.segments);
}
