// The concrete paths a page is generated at: a static route's own path, or one path per `paths {}`
// record of a dynamic SPA route (records that do not make a valid path, and repeats, are skipped:
// the checker reports them). Shared by the build (which writes a file per path), the reports (a
// path-less action of a dynamic SPA page answers on exactly these paths) and the editor's answer to
// "what serves this URL" (`report/url-routing.ts`), so that the three never disagree.
import type { PathRecord } from '#grammar/index.js';
import { concretePath, type ParsedRoute } from '#shared/route/index.js';
import type { FileSummary } from './summary.js';

export interface ConcretePath {
  /** Percent-encoded request path (`/blog/caf%C3%A9`). */
  path: string;
  /** Decoded param values. */
  params: Record<string, string>;
  /** The `paths {}` record that makes it (absent for a static route's own path). */
  record?: PathRecord;
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
    out.push({ path, params, record: rec });
  }
  return out;
}

/**
 * A page behind a protective guard is never written ahead of time, whatever its render mode: the
 * static output is meant for hosts that serve every file to anyone. `kit check` rejects such a
 * page when it is built ahead of time (`guard_requires_request_render`); a hybrid one is rendered
 * per request by the app instead.
 */
export function isProtected(s: FileSummary): boolean {
  return s.guards.some((g) => g !== 'public');
}

/** The paths a page is written at ahead of time: none for a page rendered per request or behind a guard. */
export function prerenderedPaths(s: FileSummary, route: ParsedRoute): ConcretePath[] {
  return s.render === 'ssr' || isProtected(s) ? [] : concretePaths(s, route);
}

/**
 * The paths a page action answers at when it is limited to them: a path-less action (`path`
 * absent or empty) of a dynamic SPA page answers only where the page exists, its generated paths
 * (sorted). Undefined for an action that answers its whole route.
 */
export function limitedActionPaths(
  s: FileSummary,
  route: ParsedRoute,
  path: { value: string } | undefined,
): string[] | undefined {
  if (s.render !== 'spa' || !route.valid || !route.isDynamic || (path && path.value !== '')) return undefined;
  return concretePaths(s, route)
    .map((c) => c.path)
    .sort();
}
