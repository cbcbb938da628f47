// misplaced_path_value: where a `{x...}` value may stand. The view rules read it at two levels:
// per element (memoised with the element checks) and in the text at the top of a body.
import type { Element, MarkupNode, Range } from '#grammar/index.js';
import { diag } from '../diagnostics/registry.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { URL_ATTRIBUTES } from '../model/url-safety.js';
import type { RuleContext } from './context.js';
import type { ViewItem } from './view-scope.js';

/**
 * `{x...}` (a value whose slashes separate URL segments) belongs in the path of a URL attribute;
 * anywhere else (text, other attributes, directives) it is an error.
 */
export function segmentValues(ctx: RuleContext, el: Element, out: ViewItem[]): void {
  for (const a of el.attrs) {
    if (!a.value) continue;
    if (a.value.type === 'expr') {
      if (a.value.expr.type === 'path' && a.value.expr.segments)
        misplaced(ctx, a.value.expr.range, `${a.name}={...}`, out);
      continue;
    }
    if (URL_ATTRIBUTES.has(a.name.toLowerCase())) continue;
    for (const p of a.value.parts)
      if (p.type === 'interp' && p.expr.type === 'path' && p.expr.segments) misplaced(ctx, p.expr.range, a.name, out);
  }
  // Only an interpolation child can be misplaced: no report function is made for the other nodes.
  for (const n of el.children) if (n.type === 'interp') textSegmentValue(ctx, n, (d) => out.push({ k: 'diag', d }));
}

function misplaced(ctx: RuleContext, range: Range, where: string, out: ViewItem[]): void {
  out.push({
    k: 'diag',
    d: diag(
      'misplaced_path_value',
      ctx.file.path,
      range,
      `${ctx.summary.ownerId}: {…...} spans URL segments, so it belongs in a URL attribute such as href, not ` +
        `in ${where}`,
    ),
  });
}

/** A `{x...}` written as text. */
export function textSegmentValue(ctx: RuleContext, n: MarkupNode, report: (d: Diagnostic) => void): void {
  if (n.type !== 'interp' || n.expr.type !== 'path' || !n.expr.segments) return;
  report(
    diag(
      'misplaced_path_value',
      ctx.file.path,
      n.expr.range,
      `${ctx.summary.ownerId}: {…...} spans URL segments, so it belongs in a URL attribute such as href, not in text`,
    ),
  );
}
