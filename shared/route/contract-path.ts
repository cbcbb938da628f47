// Paths written in endpoint and contract declarations (`g:command`, `g:query`, form actions):
// they must name a route of this app, so beyond the pattern rules they must be local (no scheme,
// no `//host`, no `/\host`, which browsers read as another host) and, unless a pattern is
// allowed, concrete.
import { parseRoutePattern, quote } from './pattern.js';
import type { RouteIssue } from './types.js';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

export interface ContractPathOptions {
  /** Accept `{name}`, `{name:type}` and a final `{name...}` (default: only concrete paths). */
  pattern?: boolean;
}

export function validateContractPath(path: string, options: ContractPathOptions = {}): RouteIssue[] {
  const whole = { start: 0, end: path.length };
  const q = quote(path);
  const issues: RouteIssue[] = [];
  const notLocal =
    path !== '' && (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\') || SCHEME.test(path));
  if (notLocal)
    issues.push({
      code: 'malformed_route',
      kind: 'not_local',
      message: `endpoint path ${q} must be a local absolute path`,
      span: whole,
    });
  const parsed = parseRoutePattern(path);
  for (const issue of parsed.issues) {
    if (notLocal && issue.kind === 'leading_slash') continue; // said better above
    issues.push(issue);
  }
  if (!options.pattern) {
    for (const s of parsed.segments) {
      if (s.kind === 'static') continue;
      const shown = s.kind === 'rest' ? `{${s.name}...}` : `{${s.name}}`;
      issues.push({
        code: 'malformed_route',
        kind: 'not_concrete',
        message: `endpoint path ${q} must be a concrete path; route parameter ${shown} is not allowed here`,
        span: s.span,
        param: s.name,
      });
    }
  }
  return issues;
}
