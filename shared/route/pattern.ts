// Route pattern parsing: one pass over the declared text that yields segments with exact spans
// and every rule violation at once (an editor wants all of them, not the first).
import { PARAM_TYPES } from './types.js';
import type { ParamType, ParsedRoute, RouteIssue, RouteIssueKind, RouteParam, Segment, Span } from './types.js';
import { shapeKeyOf } from './shape.js';

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Unicode white space (Go's unicode.IsSpace, plus U+FEFF) and C0/C1 control characters.
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f]/;
// `.` and `..`, and also `...` and longer: the request side answers 404 for any all-dots segment
// (Windows reads them as `.`/`..`), so such a route could never be reached.
const DOTS = /^\.+$/;
const SPACE = /\s/;

export function isParamName(name: string): boolean {
  return PARAM_NAME.test(name);
}

const PARAM_TYPE_SET: ReadonlySet<string> = new Set(PARAM_TYPES);

export function isParamType(type: string): type is ParamType {
  return PARAM_TYPE_SET.has(type);
}

/** Quotes a value the way diagnostics show it (close to Go's %q). */
export function quote(value: string): string {
  return JSON.stringify(value);
}

/**
 * Parses a declared route pattern. Pure and total: any string yields a result; problems are
 * reported in `issues` (several may fire at once) and `segments` is filled as far as it can be.
 */
export function parseRoutePattern(pattern: string): ParsedRoute {
  const issues: RouteIssue[] = [];
  // Quoted only for a message: most patterns have no issue.
  const q = (): string => quote(pattern);
  const segments: Segment[] = [];
  const whole: Span = { start: 0, end: pattern.length };
  const issue = (kind: RouteIssueKind, message: string, span: Span = whole, param?: string): void => {
    const entry: RouteIssue = { code: 'malformed_route', kind, message, span };
    if (param !== undefined) entry.param = param;
    issues.push(entry);
  };

  if (pattern === '') {
    issue('empty', 'route is required');
    return finish(pattern, segments, issues);
  }

  // Counted char by char: `/\s+$/` backtracks quadratically on long inner runs of spaces.
  let lead = 0;
  while (lead < pattern.length && SPACE.test(pattern[lead])) lead++;
  let trail = 0;
  while (trail < pattern.length - lead && SPACE.test(pattern[pattern.length - 1 - trail])) trail++;
  if (lead > 0 || trail > 0) {
    const span = lead > 0 ? { start: 0, end: lead } : { start: pattern.length - trail, end: pattern.length };
    issue('whitespace', `route ${q()} must not include leading or trailing whitespace`, span);
  }
  if (!pattern.startsWith('/')) issue('leading_slash', `route ${q()} must start with /`);

  const queryAt = queryOrFragmentIndex(pattern);
  if (queryAt >= 0) {
    issue('query', `route ${q()} must not contain query strings or fragments`, {
      start: queryAt,
      end: pattern.length,
    });
  }
  const backslashAt = pattern.indexOf('\\');
  if (backslashAt >= 0)
    issue('backslash', `route ${q()} must use / path separators`, {
      start: backslashAt,
      end: backslashAt + 1,
    });

  // Leading/trailing white space already has its own issue; report only what lies inside.
  const inner = pattern.slice(lead, pattern.length - trail);
  const controlRel = inner.search(SPACE_OR_CONTROL);
  if (controlRel >= 0) {
    const at = lead + controlRel;
    issue('control', `route ${q()} must not contain whitespace or control characters`, {
      start: at,
      end: at + 1,
    });
  }

  if (pattern === '/') return finish(pattern, segments, issues);

  const base = pattern.startsWith('/') ? 1 : 0;
  const raw = pattern.slice(base).split('/');
  // Param names so far, made at the first param (most routes have none).
  let seen: Set<string> | undefined;
  let offset = base;
  for (let index = 0; index < raw.length; index++) {
    const text = raw[index];
    const start = offset;
    const end = start + text.length;
    offset = end + 1;
    const span: Span = { start, end };
    const isLast = index === raw.length - 1;

    if (text === '') {
      const message = `route ${q()} must not contain empty path segments; omit trailing slashes except for /`;
      // After an empty segment the trailing slash is the same character (`//`): one issue.
      if (isLast && index > 0 && raw[index - 1] === '') continue;
      if (isLast) issue('trailing_slash', message, { start: start - 1, end: start });
      else issue('empty_segment', message, { start, end: start + 1 });
      continue;
    }
    if (text.charCodeAt(0) === 46 && DOTS.test(text)) {
      issue('dot_segment', `route ${q()} contains unsafe path segment ${quote(text)}`, span);
      segments.push({ kind: 'static', value: text, span });
      continue;
    }
    if (!text.includes('{') && !text.includes('}')) {
      segments.push({ kind: 'static', value: text, span });
      continue;
    }

    if (!text.startsWith('{') || !text.endsWith('}') || count(text, '{') !== 1 || count(text, '}') !== 1) {
      issue(
        'param_segment',
        `route ${q()} has invalid route parameter segment ${quote(text)}; ` +
          'use {name} or {name:type} as the whole segment',
        span,
      );
      segments.push({ kind: 'static', value: text, span });
      continue;
    }
    const body = text.slice(1, -1);
    const colon = body.indexOf(':');
    const hasType = colon >= 0;
    let name = hasType ? body.slice(0, colon) : body;
    const typeText = hasType ? body.slice(colon + 1) : 'string';
    const rest = name.endsWith('...');
    if (rest) name = name.slice(0, -3);
    const nameSpan: Span = { start: start + 1, end: start + 1 + name.length };
    const typeSpan: Span | undefined = hasType ? { start: start + 2 + colon, end: end - 1 } : undefined;

    if (name.endsWith('?')) {
      issue(
        'optional',
        `route ${q()} uses optional route parameter ${quote(text)}; optional route parameters are not supported; ` +
          `declare explicit routes for each shape (rest parameters {name...} are supported as the final segment)`,
        span,
      );
      segments.push({ kind: 'static', value: text, span });
      continue;
    }
    if (rest && name === '') {
      issue(
        'rest_unnamed',
        `route ${q()} has rest route parameter segment ${quote(text)} without a name; declare it as {name...}`,
        span,
      );
      segments.push({ kind: 'static', value: text, span });
      continue;
    }
    if (!rest && name.includes('.')) {
      issue(
        'rest_dots',
        `route ${q()} has invalid route parameter segment ${quote(text)}; rest route parameters use exactly three ` +
          `dots, such as {name...}`,
        span,
      );
      segments.push({ kind: 'static', value: text, span });
      continue;
    }
    if (!isParamName(name)) {
      issue(
        'param_name',
        `route ${q()} has invalid route parameter name ${quote(name)}; names match [A-Za-z_][A-Za-z0-9_]*`,
        span,
        name,
      );
      segments.push({ kind: 'static', value: text, span });
      continue;
    }
    if (rest && hasType) {
      issue(
        'rest_typed',
        `route ${q()} declares typed rest route parameter ${quote(text)}; rest route parameters are always ` +
          `strings, declare it as {${name}...}`,
        span,
        name,
      );
      segments.push({ kind: 'rest', name, span, nameSpan });
      continue;
    }
    if (!isParamType(typeText)) {
      issue(
        'param_type',
        `route ${q()} has unsupported route parameter type ${quote(typeText)} for ${quote(name)}; supported types ` +
          `are ${PARAM_TYPES.join(', ')}`,
        span,
        name,
      );
      segments.push({
        kind: 'param',
        name,
        type: 'string',
        typed: true,
        span,
        nameSpan,
        ...(typeSpan ? { typeSpan } : {}),
      });
      continue;
    }
    if (rest) {
      segments.push({ kind: 'rest', name, span, nameSpan });
      if (!isLast) {
        issue(
          'rest_not_last',
          `route ${q()} declares rest route parameter {${name}...} before the end of the route; rest parameters ` +
            `must be the last segment`,
          span,
          name,
        );
        continue;
      }
    } else {
      // The canonical constant, not the slice of the pattern: routers compare types on every lookup.
      const type = PARAM_TYPES[PARAM_TYPES.indexOf(typeText)];
      const segment: Segment = { kind: 'param', name, type, typed: hasType, span, nameSpan };
      if (typeSpan) segment.typeSpan = typeSpan;
      segments.push(segment);
    }
    seen ??= new Set();
    if (seen.has(name)) {
      issues.push({
        code: 'duplicate_route_param',
        kind: 'duplicate_param',
        message: `route ${q()} repeats route parameter ${quote(name)}`,
        span,
        param: name,
      });
      continue;
    }
    seen.add(name);
  }
  return finish(pattern, segments, issues);
}

function finish(pattern: string, segments: Segment[], issues: RouteIssue[]): ParsedRoute {
  const params: RouteParam[] = [];
  let names: Set<string> | undefined;
  let hasRest = false;
  for (const s of segments) {
    if (s.kind === 'static') continue;
    if (s.kind === 'rest') hasRest = true;
    names ??= new Set();
    if (names.has(s.name)) continue;
    names.add(s.name);
    params.push({ name: s.name, type: s.kind === 'rest' ? 'string' : s.type });
  }
  return {
    pattern,
    segments,
    issues,
    valid: issues.length === 0,
    params,
    hasRest,
    isDynamic: params.length > 0,
    shapeKey: shapeKeyOf(segments),
  };
}

/** Index of the first `#`, or of a `?` outside `{...}` (a `?` inside braces is the optional-param mistake). */
function queryOrFragmentIndex(pattern: string): number {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '#') return i;
    if (c === '{') depth++;
    else if (c === '}') {
      if (depth > 0) depth--;
    } else if (c === '?' && depth === 0) return i;
  }
  return -1;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0; i = text.indexOf(ch, i + 1)) n++;
  return n;
}
