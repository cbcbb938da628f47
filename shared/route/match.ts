// Matching one pattern against already-decoded request segments. The
// compiled router gives the same answers for many patterns at once; this is the one-pattern form
// for callers that hold a single route (deny registries, tests, tools).
import { isDotLikeSegment } from './request-path.js';
import { setOwn } from './record.js';
import type { ParsedRoute } from './types.js';

/**
 * Whether a decoded segment may be captured by a param: exactly the segments checkRequestTarget
 * can produce (not empty, not dot-like, no `/`, `\\` or control character). Other callers of the
 * matcher may pass anything, so captures are checked here too.
 */
export function isCapturableSegment(s: string): boolean {
  if (s.length === 0) return false;
  const first = s.charCodeAt(0);
  if ((first === 46 || first === 32) && isDotLikeSegment(s)) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 47 || c === 92 || c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return false;
  }
  return true;
}

/**
 * Params of `r` for the decoded request `segments` (`/` is `[]`), or undefined when it does not
 * match. A param takes one segment whatever its declared type (decoding happens later and
 * answers 400); a final rest param takes one or more segments joined with `/`.
 */
export function matchRoute(r: ParsedRoute, segments: readonly string[]): Record<string, string> | undefined {
  if (!r.valid) return undefined;
  const params: Record<string, string> = {};
  const pattern = r.segments;
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (i >= segments.length) return undefined;
    const seg = segments[i];
    if (p.kind === 'static') {
      if (seg !== p.value) return undefined;
    } else if (p.kind === 'param') {
      if (!isCapturableSegment(seg)) return undefined;
      setOwn(params, p.name, seg);
    } else {
      for (let j = i; j < segments.length; j++) if (!isCapturableSegment(segments[j])) return undefined;
      setOwn(params, p.name, segments.slice(i).join('/'));
      return params;
    }
  }
  return segments.length === pattern.length ? params : undefined;
}
