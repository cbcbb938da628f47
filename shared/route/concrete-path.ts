// Concrete paths from a pattern and param values (the `paths {}` records of dynamic SPA pages,
// links in reports). The result is always a path that checkRequestTarget accepts and that matches
// the pattern back with the same values; a value that could not round-trip makes it undefined.
import { isCapturableSegment } from './match.js';
import { getOwn } from './record.js';
import type { ParsedRoute } from './types.js';

// Characters RFC 3986 allows in a path segment that encodeURIComponent escapes anyway.
const PCHAR_ESCAPES = /%(?:24|26|2B|2C|3A|3B|3D|40)/g;

// The characters the encoding below leaves as they are: encodeURIComponent's unreserved marks plus
// the sub-delimiters it escapes and PCHAR_ESCAPES restores.
const KEEP = new Uint8Array(128);
for (let c = 48; c <= 57; c++) KEEP[c] = 1;
for (let c = 65; c <= 90; c++) KEEP[c] = 1;
for (let c = 97; c <= 122; c++) KEEP[c] = 1;
for (const ch of "-_.!~*'()$&+,:;=@") KEEP[ch.charCodeAt(0)] = 1;

/** Percent-encodes one decoded segment; undefined for text that cannot be encoded (lone surrogates). */
export function encodePathSegment(segment: string): string | undefined {
  let i = 0;
  while (i < segment.length) {
    const c = segment.charCodeAt(i);
    if (c >= 128 || KEEP[c] === 0) break;
    i++;
  }
  // Nothing to encode (ids, slugs, most names): the segment is its own encoding.
  if (i === segment.length) return segment;
  try {
    return encodeURIComponent(segment).replace(PCHAR_ESCAPES, decodeURIComponent);
  } catch {
    return undefined;
  }
}

export function concretePath(r: ParsedRoute, values: Record<string, string> | Map<string, string>): string | undefined {
  if (!r.valid) return undefined;
  if (r.segments.length === 0) return '/';
  let out = '';
  for (const s of r.segments) {
    const parts = s.kind === 'static' ? [s.value] : readValue(values, s.name, s.kind === 'rest');
    if (parts === undefined) return undefined;
    for (const part of parts) {
      if (s.kind !== 'static' && !isCapturableSegment(part)) return undefined;
      const encoded = encodePathSegment(part);
      if (encoded === undefined) return undefined;
      out += '/' + encoded;
    }
  }
  return out;
}

function readValue(
  values: Record<string, string> | Map<string, string>,
  name: string,
  rest: boolean,
): string[] | undefined {
  const value = getOwn(values, name);
  if (typeof value !== 'string' || value === '') return undefined;
  return rest ? value.split('/') : [value];
}
