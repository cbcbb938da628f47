// Route rules of one file: pattern validity of the page route and of every endpoint path, rest
// params only where request-time rendering allows them, `paths {}` records and `param()` references.
import type { MarkupNode, StringLit, Expr, TextOrInterpolation, PathRecord } from '#grammar/index.js';
import { concretePath, type ParsedRoute } from '#shared/route/index.js';
import { decodesAs } from '#shared/route/params.js';
import { parsedRoute } from '../model/route-cache.js';
import { MarkupMemo, type MarkupVisitor } from '../model/markup-memo.js';
import { diag } from '../diagnostics/registry.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { stringSpanRange } from '../model/ranges.js';
import type { RuleContext } from './context.js';

function reportPatternIssues(ctx: RuleContext, parsed: ParsedRoute, lit: StringLit, label: string): void {
  const id = ctx.summary.ownerId;
  for (const issue of parsed.issues) {
    const range = stringSpanRange(ctx.file, lit, issue.span);
    if (issue.code === 'duplicate_route_param') {
      ctx.report(diag('duplicate_route_param', ctx.file.path, range, `${id}: ${issue.message}`));
    } else {
      ctx.report(diag('malformed_route', ctx.file.path, range, `${id} declares invalid ${label}: ${issue.message}`));
    }
  }
}

export function routesRule(ctx: RuleContext): void {
  const { file, summary: s } = ctx;
  if (file.kind !== 'page') return;
  const id = s.ownerId;
  const page = s.route?.parsed;
  if (s.route && page) {
    reportPatternIssues(ctx, page, s.route.decl.path, 'page route');
    if (page.valid && page.hasRest && s.render !== 'ssr') {
      const rest = page.segments.find((x) => x.kind === 'rest');
      ctx.report(
        diag(
          'malformed_route',
          file.path,
          stringSpanRange(file, s.route.decl.path, rest?.span),
          `${id} declares invalid page route: render mode is ${s.render}; rest parameters ` +
            `${rest ? `{${rest.name}...}` : ''} require SSR rendering (add server {})`,
        ),
      );
    }
    if (page.valid && page.isDynamic && !page.hasRest && s.render !== 'ssr' && !s.paths) {
      const first = page.segments.find((x) => x.kind === 'param');
      const names = page.params.map((p) => p.name).join(', ');
      ctx.report(
        diag(
          'spa_dynamic_route_missing_paths',
          file.path,
          stringSpanRange(file, s.route.decl.path, first?.span),
          `${id} has dynamic route params: {${names}}, but render mode is ${s.render} and no paths block exists. ` +
            `Fix: add paths { => { ${page.params.map((p) => `${p.name}: "..."`).join(', ')} } } or render it at ` +
            `request time with server {}`,
        ),
      );
    }
  }
  for (const a of s.actions) endpointPath(ctx, page, a.path, `action ${a.symbol.text} endpoint path`, a.range);
  for (const a of s.apis) endpointPath(ctx, page, a.path, `api ${a.symbol.text} endpoint path`, a.range);
  for (const f of s.fragments) {
    const r = parsedRoute(f.path.value);
    reportPatternIssues(ctx, r, f.path, `fragment ${f.name.text} endpoint path`);
    if (f.path.value === '') void 0;
  }
  if (s.paths && page && page.valid) pathsRecords(ctx, page);
  // param("x") must name a param of the route the markup belongs to.
  if (s.view && page && page.valid) paramRefs(ctx, s.view.body, page, 'route');
  for (const f of s.fragments) {
    const r = parsedRoute(f.path.value);
    if (r.valid) paramRefs(ctx, f.body, r, `fragment ${f.name.text} route`);
  }
  void id;
}

function endpointPath(
  ctx: RuleContext,
  page: ParsedRoute | undefined,
  path: StringLit | undefined,
  label: string,
  declRange: import('#grammar/index.js').Range,
): void {
  const id = ctx.summary.ownerId;
  if (path && path.value !== '') {
    const r = parsedRoute(path.value);
    reportPatternIssues(ctx, r, path, label);
    if (r.valid && r.hasRest) {
      const rest = r.segments.find((x) => x.kind === 'rest');
      ctx.report(
        diag(
          'malformed_route',
          ctx.file.path,
          stringSpanRange(ctx.file, path, rest?.span),
          `${id} declares invalid ${label}: rest parameters are only supported on page routes and fragments`,
        ),
      );
    }
    return;
  }
  if (page && page.valid && page.hasRest) {
    ctx.report(
      diag(
        'malformed_route',
        ctx.file.path,
        declRange,
        `${id} declares invalid ${label}: it inherits page route "${page.pattern}", whose rest parameter is only ` +
          `supported on page routes; declare a concrete path`,
      ),
    );
  }
}

function pathsRecords(ctx: RuleContext, page: ParsedRoute): void {
  const { file, summary: s } = ctx;
  const paths = s.paths!;
  if (!page.isDynamic) {
    ctx.report(
      diag(
        'paths_without_params',
        file.path,
        paths.keyword,
        `${s.ownerId}: route "${page.pattern}" has no parameters; paths {} has no effect`,
      ),
    );
    return;
  }
  const declared = new Map(page.params.map((p) => [p.name, p.type]));
  /** Concrete path → the record that gave it first. */
  const seen = new Map<string, PathRecord>();
  for (const rec of paths.records) {
    const values: Record<string, string> = {};
    let literal = true;
    let typed = true;
    for (const f of rec.fields) {
      if (!declared.has(f.name.text)) {
        ctx.report(
          diag(
            'paths_unknown_param',
            file.path,
            f.name.range,
            `${s.ownerId}: paths record names "${f.name.text}", which route "${page.pattern}" does not declare`,
          ),
        );
        continue;
      }
      if ('kind' in f.value) {
        literal = false;
        ctx.report(
          diag(
            'paths_record_not_literal',
            file.path,
            f.value.range,
            `${s.ownerId}: paths value for "${f.name.text}" must be a string literal`,
          ),
        );
        continue;
      }
      values[f.name.text] = f.value.value;
      const type = declared.get(f.name.text)!;
      if (type !== 'string' && !decodesAs(type, f.value.value)) {
        typed = false;
        ctx.report(
          diag(
            'paths_value_type',
            file.path,
            f.value.range,
            `${s.ownerId}: paths value ${JSON.stringify(f.value.value)} for {${f.name.text}:${type}} is not a ` +
              `valid ${type}`,
          ),
        );
      }
    }
    const missing = page.params.filter((p) => !(p.name in values) && !rec.fields.some((f) => f.name.text === p.name));
    if (missing.length) {
      ctx.report(
        diag(
          'paths_missing_param',
          file.path,
          rec.range,
          `${s.ownerId}: paths record has no value for ${missing.map((m) => `"${m.name}"`).join(', ')}`,
        ),
      );
      continue;
    }
    if (!literal) continue;
    const path = concretePath(page, values);
    if (path === undefined) {
      ctx.report(
        diag(
          'paths_invalid_value',
          file.path,
          rec.range,
          `${s.ownerId}: paths record values must be non-empty and must not be "." or ".." or contain "/"`,
        ),
      );
      continue;
    }
    const first = seen.get(path);
    if (first && typed) {
      ctx.report(
        diag('duplicate_paths_record', file.path, rec.range, `${s.ownerId}: paths record repeats ${path}`, {
          related: [{ file: file.path, range: first.range, message: `${path} first listed here` }],
        }),
      );
    } else if (!first) seen.set(path, rec);
  }
}

function exprParams(e: Expr, out: Expr[]): void {
  switch (e.type) {
    case 'param':
      out.push(e);
      break;
    case 'not':
      exprParams(e.expr, out);
      break;
    case 'binary':
      exprParams(e.left, out);
      exprParams(e.right, out);
      break;
    case 'for':
      exprParams(e.collection, out);
      break;
    default:
      break;
  }
}

function partsParams(parts: TextOrInterpolation[], out: Expr[]): void {
  for (const p of parts) if (p.type === 'interp') exprParams(p.expr, out);
}

/** The `param(...)` calls of a markup body, element by element (they depend on nothing else). */
const PARAM_CALLS = new MarkupMemo<Expr>();
const PARAM_CALL_VISITOR: MarkupVisitor<Expr> = {
  element(el, out) {
    for (const a of el.attrs) {
      if (!a.value) continue;
      if (a.value.type === 'expr') exprParams(a.value.expr, out);
      else partsParams(a.value.parts, out);
    }
  },
  node(n, out) {
    if (n.type === 'interp') exprParams(n.expr, out);
  },
};

function paramRefs(ctx: RuleContext, body: MarkupNode[], route: ParsedRoute, label: string): void {
  const declared = new Set(route.params.map((p) => p.name));
  for (const e of PARAM_CALLS.collect(body, '', PARAM_CALL_VISITOR)) {
    if (e.type !== 'param') continue;
    if (!declared.has(e.name.value)) {
      ctx.report(
        diag(
          'unknown_route_param',
          ctx.file.path,
          e.name.range,
          `${ctx.summary.ownerId}: param("${e.name.value}") names no parameter of ${label} "${route.pattern}"` +
            didYouMean(e.name.value, declared, (n) => `param("${n}")`),
        ),
      );
    }
  }
}
