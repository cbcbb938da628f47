// View markup rules: each view and fragment body is walked element by element (memoised per element
// across revisions) with the element checks (view-element.ts: markup safety, the closed set of `g:`
// directives, lanes, slots) and the `{x...}` placement (view-path-values.ts), then checked as a
// whole: duplicate ids and the ids g:target names. A layout holds exactly one default slot.
import type { Element, MarkupNode, Range } from '#grammar/index.js';
import { diag } from '../diagnostics/registry.js';
import { MarkupMemo } from '../model/markup-memo.js';
import type { RuleContext } from './context.js';
import { checkElement } from './view-element.js';
import { segmentValues, textSegmentValue } from './view-path-values.js';
import { staticText, type ElementScope, type ViewItem } from './view-scope.js';

export function viewRule(ctx: RuleContext): void {
  const { summary: s } = ctx;
  if (s.view) checkBody(ctx, s.view.body, 'view');
  for (const f of s.fragments) checkBody(ctx, f.body, `fragment ${f.name.text}`);
  if (ctx.file.kind === 'layout' && s.view && s.defaultSlotCount !== 1) {
    ctx.report(
      diag(
        'layout_slot_count',
        ctx.file.path,
        s.view.keyword,
        `layout ${s.ownerId} must contain exactly one <slot />, found ${s.defaultSlotCount}`,
      ),
    );
  }
}

const VIEW_CHECKS = new MarkupMemo<ViewItem>();

function viewItems(scope: ElementScope, el: Element, out: ViewItem[]): void {
  for (const a of el.attrs) {
    if (a.name !== 'id') continue;
    const v = staticText(a);
    if (v) out.push({ k: 'id', value: v, range: a.range });
  }
  checkElement(scope, el, out);
  segmentValues(scope.ctx, el, out);
}

function scopeKey(ctx: RuleContext, where: string): string {
  const { file, summary: s } = ctx;
  const dynamicRoute = Boolean(s.route?.parsed.valid && s.route.parsed.isDynamic);
  return [
    file.path,
    file.kind,
    s.ownerId,
    where,
    s.render,
    dynamicRoute,
    [...s.uses.keys()].join(' '),
    s.actions.map((a) => a.symbol.text).join(' '),
  ].join('\u0001');
}

function checkBody(ctx: RuleContext, body: MarkupNode[], where: string): void {
  const { file, summary: s } = ctx;
  const id = s.ownerId;
  const scope: ElementScope = { ctx, where, actions: new Set(s.actions.map((a) => a.symbol.text)) };
  const items = VIEW_CHECKS.collect(body, () => scopeKey(ctx, where), {
    element: (el, out) => viewItems(scope, el, out),
  });
  for (const n of body) textSegmentValue(ctx, n, (d) => ctx.report(d));
  const ids = new Map<string, Range>();
  for (const x of items) {
    if (x.k !== 'id') continue;
    const first = ids.get(x.value);
    if (first)
      ctx.report(
        diag('duplicate_id', file.path, x.range, `${id}: id "${x.value}" is used twice in the ${where}`, {
          related: [{ file: file.path, range: first, message: `id "${x.value}" first used here` }],
        }),
      );
    else ids.set(x.value, x.range);
  }
  for (const x of items) {
    if (x.k === 'diag') ctx.report(x.d);
    else if (x.k === 'target' && !ids.has(x.value.slice(1))) {
      ctx.report(
        diag(
          'unknown_target_id',
          file.path,
          x.attr.value!.range,
          `${id}: g:target "${x.value}" references no element id in the ${where}`,
        ),
      );
    }
  }
}
