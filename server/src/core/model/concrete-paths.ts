// The concrete paths a page is generated at: a static route's own path, or one path per `paths {}`
// record of a dynamic SPA route (records that do not make a valid path, and repeats, are skipped:
// the checker reports them). Shared by the build (which writes a file per path) and the reports
// (a path-less action of a dynamic SPA page answers on exactly these paths).
import { concretePath, type ParsedRoute } from '../../../../shared/route/index.js';
import type { FileSummary } from './summary.js';

export interface ConcretePath {
  /** Percent-encoded request path (`/blog/caf%C3%A9`). */
  path: string;
  /** Decoded param values. */
  params: Record<string, string>;
}

export function concretePaths(s: FileSummary, route: ParsedRoute): ConcretePath[] {
  if (!route.isDynamic) return [{ path: concretePath(route, {}) ?? route.pattern, params: {} }];
  if (route.hasRest || !s.paths) return [];
  const out: ConcretePath[] = [];
  const seen = new Set<string>();
  for (const rec of s.paths.records) {
    const params: Record<string, string> = {};
    for (const f of rec.fields) if (!('kind' in f.value)) params[f.name.text] = f.value.value;
    const path = concretePath(route, params);
    if (path === undefined || seen.has(path)) continue;
    seen.add(path);
    out.push({ path, params });
  }
  return out;
}
