// The closed set of `g:` directives: which exist, what value each takes, which combine on one
// element (g:if and g:for need g:lane="server"; a form posts with g:post or calls a contract), and
// the endpoint paths of g:command forms.
import type { Attribute, Element } from '#grammar/index.js';
import { DIRECTIVES, messageConstraint } from '#shared/language/facts.js';
import { validateContractPath } from '#shared/route/index.js';
import { diag } from '../diagnostics/registry.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { attrText } from '../model/summary.js';
import type { RuleContext } from './context.js';
import { staticText, type ElementScope, type ViewItem } from './view-scope.js';

/** One `g:` attribute on its own: a known directive with the value it takes; a g:target is queued in `out`. */
export function directiveAttribute(scope: ElementScope, el: Element, a: Attribute, out: ViewItem[]): void {
  const { ctx, actions } = scope;
  const { file, summary: s } = ctx;
  const id = s.ownerId;
  const report = (d: Diagnostic) => {
    out.push({ k: 'diag', d });
  };
  if (!DIRECTIVES.has(a.name) && messageConstraint(a.name) === undefined) {
    const hint =
      a.name.startsWith('g:on:') || a.name.startsWith('g:bind:') || a.name === 'g:island'
        ? ' (client island directives are not supported by kit)'
        : a.name === 'g:html' || a.name === 'g:unsafe-html'
          ? ' (raw HTML is not supported; values are always escaped)'
          : a.name === 'g:each'
            ? ' (use g:for)'
            : a.name === 'g:when'
              ? ' (use g:if)'
              : '';
    report(diag('unsupported_markup_directive', file.path, a.nameRange, `${id}: unknown directive ${a.name}${hint}`));
    return;
  }
  if (a.name === 'g:post') {
    if (el.name !== 'form')
      report(
        diag(
          'g_post_requires_form',
          file.path,
          a.nameRange,
          `${id}: g:post is only valid on a <form>, not <${el.name}>`,
        ),
      );
    const ref =
      a.value && a.value.type === 'expr' && a.value.expr.type === 'path' && a.value.expr.path.length === 1
        ? a.value.expr.path[0]
        : a.value
          ? staticText(a)
          : undefined;
    if (!ref) {
      report(
        diag('invalid_directive_value', file.path, a.range, `${id}: g:post expects an action symbol: g:post={Save}`),
      );
    } else if (!actions.has(ref)) {
      const decl = s.actions.length ? ` (declared: ${s.actions.map((x) => x.symbol.text).join(', ')})` : '';
      report(
        diag(
          'unknown_action',
          file.path,
          a.value!.range,
          `${id}: g:post={${ref}} names no action of this page${decl}; add act ${ref} POST "/path"`,
        ),
      );
    }
  }
  if (a.name === 'g:target') {
    const v = staticText(a);
    if (!v || !v.startsWith('#'))
      report(diag('unknown_target_id', file.path, a.range, `${id}: g:target must be a literal "#id"`));
    else out.push({ k: 'target', attr: a, value: v });
  }
  if (
    (a.name === 'g:command' || a.name === 'g:query') &&
    !(a.value && (staticText(a) || (a.value.type === 'expr' && a.value.expr.type === 'path')))
  ) {
    report(
      diag(
        'invalid_directive_value',
        file.path,
        a.range,
        `${id}: ${a.name} expects a contract name: ${a.name}="Name" or ${a.name}="alias.Name"`,
      ),
    );
  }
}

function hasDirective(el: Element): boolean {
  for (const a of el.attrs) if (a.name.startsWith('g:')) return true;
  return false;
}

/** An element's directives together: g:if and g:for with their lane, a form's g:post, g:command and g:swap. */
export function elementDirectives(ctx: RuleContext, el: Element, report: (d: Diagnostic) => void): void {
  // Every check below reads a `g:` attribute, and most elements have none: one pass answers for them.
  if (!hasDirective(el)) return;
  const { file, summary: s } = ctx;
  const id = s.ownerId;
  const hasIf = el.attrs.find((a) => a.name === 'g:if');
  const hasFor = el.attrs.find((a) => a.name === 'g:for');
  const lane = el.attrs.find((a) => a.name === 'g:lane');
  for (const d of [hasIf, hasFor]) {
    if (!d) continue;
    if (!lane) {
      report(diag('directive_lane_required', file.path, d.nameRange, `${id}: ${d.name} needs g:lane="server"`));
      continue;
    }
    const laneValue = staticText(lane);
    if (laneValue !== 'server') {
      report(
        diag(
          'directive_lane_mismatch',
          file.path,
          lane.range,
          `${id}: g:lane="${laneValue ?? '?'}" is not supported; kit renders g:if and g:for in the server lane ` +
            `(g:lane="server")`,
        ),
      );
    } else if (s.render !== 'ssr' && ctx.file.kind === 'page') {
      report(
        diag(
          'directive_lane_mismatch',
          file.path,
          lane.range,
          `${id}: g:lane="server" needs a request-time page; add server { => { ... } }`,
        ),
      );
    }
  }
  if (hasFor && hasFor.value && !(hasFor.value.type === 'expr' && hasFor.value.expr.type === 'for')) {
    report(
      diag(
        'invalid_directive_value',
        file.path,
        hasFor.range,
        `${id}: g:for expects {item in items} or {item, i in items}`,
      ),
    );
  }
  if (hasIf && !(hasIf.value && hasIf.value.type === 'expr' && hasIf.value.expr.type !== 'for')) {
    report(diag('invalid_directive_value', file.path, hasIf.range, `${id}: g:if expects an expression: g:if={field}`));
  }
  const post = el.attrs.find((a) => a.name === 'g:post');
  const command = el.attrs.find((a) => a.name === 'g:command');
  const query = el.attrs.find((a) => a.name === 'g:query');
  if (post && (command || query))
    report(
      diag(
        'invalid_directive_value',
        file.path,
        (command ?? query)!.range,
        `${id}: a form cannot combine g:post with ${command ? 'g:command' : 'g:query'}`,
      ),
    );
  if (command && el.name !== 'form')
    report(diag('invalid_directive_value', file.path, command.range, `${id}: g:command is only valid on a <form>`));
  if (command) contractPath(ctx, el, command, report);
  const swap = el.attrs.find((a) => a.name === 'g:swap');
  if (swap) {
    const v = staticText(swap);
    if (v !== 'innerHTML' && v !== 'outerHTML')
      report(diag('invalid_swap', file.path, swap.range, `${id}: g:swap must be innerHTML or outerHTML`));
    else if (!el.attrs.some((a) => a.name === 'g:target'))
      report(diag('invalid_swap', file.path, swap.range, `${id}: g:swap needs g:target="#id"`));
  }
}

function contractPath(ctx: RuleContext, el: Element, attr: Attribute, report: (d: Diagnostic) => void): void {
  const { file, summary: s } = ctx;
  const action = attrText(el, 'action');
  if (action) {
    const issues = validateContractPath(action.value);
    if (issues.length)
      report(
        diag(
          'contract_route_invalid',
          file.path,
          action.range,
          `${s.ownerId}: endpoint path "${action.value}" for ${attr.name} must be a local absolute path: ` +
            `${issues[0].message}`,
        ),
      );
  } else if (el.attrs.some((a) => a.name === 'action' && a.value)) {
    // `action="/p/{id}"` interpolates: the contract would have no single route to register.
    const dynamic = el.attrs.find((a) => a.name === 'action' && a.value)!;
    report(
      diag(
        'contract_route_invalid',
        file.path,
        dynamic.value!.range,
        `${s.ownerId}: endpoint path for ${attr.name} must be a concrete path; the action attribute may not ` +
          `contain {...} values`,
      ),
    );
  } else if (s.route?.parsed.valid && s.route.parsed.isDynamic) {
    report(
      diag(
        'contract_route_invalid',
        file.path,
        attr.range,
        `${s.ownerId}: ${attr.name} on a dynamic page route needs an explicit action="/path"`,
      ),
    );
  }
}
