// `//kit:act|api METHOD /path` endpoints of handler modules get the checks of their `.kit`
// counterparts: the method per endpoint kind, the path pattern (no rest
// params: those belong to page routes and fragments), and a guard line (default deny).
import type { Range } from '#grammar/index.js';
import { API_METHODS, isOneOf } from '#shared/language/facts.js';
import { parseRoutePattern, type Span } from '#shared/route/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/registry.js';
import type { CommentEndpoint } from '../model/handler-modules.js';

/** Range of `span` (offsets into the path) inside the one-line comment that declares it. */
function pathRange(text: string, ep: CommentEndpoint, span: Span | undefined): Range {
  const line = text.slice(ep.range.start.offset, ep.range.end.offset);
  // The path is the third field: after `//kit:<kind>` and the method.
  const m = /^\/\/kit:\S+\s+\S+\s+/.exec(line);
  const at = m && line.startsWith(ep.path, m[0].length) ? m[0].length : -1;
  if (at < 0) return ep.range;
  const from = at + (span ? span.start : 0);
  const to = at + (span ? span.end : ep.path.length);
  const pos = (delta: number) => ({
    offset: ep.range.start.offset + delta,
    line: ep.range.start.line,
    column: ep.range.start.column + delta,
  });
  return { start: pos(from), end: pos(to) };
}

export function commentEndpointDiagnostics(
  path: string,
  text: string,
  packageName: string,
  endpoints: CommentEndpoint[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const ep of endpoints) {
    const owner = `${packageName}.${ep.functionName}`;
    if (ep.kind === 'act' && ep.method !== 'POST') {
      out.push(
        diag(
          'unsupported_action_method',
          path,
          ep.range,
          `${owner}: //kit:act uses ${ep.method}; actions currently require POST`,
        ),
      );
    }
    if (ep.kind === 'api' && !isOneOf(API_METHODS, ep.method)) {
      out.push(
        diag(
          'unsupported_api_method',
          path,
          ep.range,
          `${owner}: //kit:api uses ${ep.method}; APIs accept GET, POST, PUT, PATCH or DELETE`,
        ),
      );
    }
    const route = parseRoutePattern(ep.path);
    const label = `//kit:${ep.kind} endpoint path`;
    for (const issue of route.issues) {
      const code = issue.code === 'duplicate_route_param' ? 'duplicate_route_param' : 'malformed_route';
      out.push(
        diag(
          code,
          path,
          pathRange(text, ep, issue.span),
          code === 'malformed_route'
            ? `${owner} declares invalid ${label}: ${issue.message}`
            : `${owner}: ${issue.message}`,
        ),
      );
    }
    if (route.valid && route.hasRest) {
      const rest = route.segments.find((s) => s.kind === 'rest');
      out.push(
        diag(
          'malformed_route',
          path,
          pathRange(text, ep, rest?.span),
          `${owner} declares invalid ${label}: rest parameters are only supported on page routes and fragments`,
        ),
      );
    }
    if (ep.guards === undefined) {
      out.push(
        diag(
          'missing_endpoint_guard',
          path,
          ep.range,
          `${ep.kind} ${ep.method} ${ep.path} (${ep.functionName}) has no //kit:guard line; it is denied (403) ` +
            `until //kit:guard public or a protective guard is added`,
        ),
      );
    }
  }
  return out;
}
