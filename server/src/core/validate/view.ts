// View markup rules: markup safety (no scripts, inline handlers or dangerous URLs), the closed set
// of `g:` directives and their references inside the page, lanes, slots and ids.
import { letBinding, type Attribute, type Element, type MarkupNode, type Range } from '../../../../grammar/src/ast.js';
import { validateContractPath } from '../../../../shared/route/index.js';
import { diag } from '../diagnostics/registry.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { MarkupMemo } from '../model/markup-memo.js';
import { attrText } from '../model/summary.js';
import { decodeEntities, isUnsafeUrl, URL_ATTRIBUTES } from '../model/url-safety.js';
import type { RuleContext } from './context.js';

export const DIRECTIVES = new Set([
  'g:post',
  'g:target',
  'g:swap',
  'g:command',
  'g:query',
  'g:if',
  'g:for',
  'g:key',
  'g:lane',
  'g:slot',
  'g:error',
]);
export const MESSAGE_DIRECTIVES = /^g:message:(required|minlength|maxlength|pattern)$/;

function staticText(a: Attribute): string | undefined {
  if (!a.value) return '';
  if (a.value.type !== 'string') return undefined;
  return a.value.parts.every((p) => p.type === 'text')
    ? a.value.parts.map((p) => (p.type === 'text' ? p.value : '')).join('')
    : undefined;
}

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

/**
 * What one element yields to the view rules: its `id` values, its diagnostics, and its `g:target`
 * references, whose check needs every id of the body and so happens once the body is walked.
 */
type ViewItem =
  | { k: 'id'; value: string; range: Range }
  | { k: 'diag'; d: Diagnostic }
  | { k: 'target'; attr: Attribute; value: string };

/** What the element checks read besides the element; `scopeKey` names all of it for the memo. */
interface ElementScope {
  ctx: RuleContext;
  where: string;
  actions: Set<string>;
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

/**
 * `{x...}` (a value whose slashes separate URL segments) belongs in the path of a URL attribute;
 * anywhere else (text, other attributes, directives) it is an error.
 */
function segmentValues(ctx: RuleContext, el: Element, out: ViewItem[]): void {
  const misplaced = (range: Range, where: string): void => {
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
  };
  for (const a of el.attrs) {
    if (!a.value) continue;
    if (a.value.type === 'expr') {
      if (a.value.expr.type === 'path' && a.value.expr.segments) misplaced(a.value.expr.range, `${a.name}={...}`);
      continue;
    }
    if (URL_ATTRIBUTES.has(a.name.toLowerCase())) continue;
    for (const p of a.value.parts)
      if (p.type === 'interp' && p.expr.type === 'path' && p.expr.segments) misplaced(p.expr.range, a.name);
  }
  for (const n of el.children) textSegmentValue(ctx, n, (d) => out.push({ k: 'diag', d }));
}

function textSegmentValue(ctx: RuleContext, n: MarkupNode, report: (d: Diagnostic) => void): void {
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
  const items = VIEW_CHECKS.collect(body, scopeKey(ctx, where), { element: (el, out) => viewItems(scope, el, out) });
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

function checkElement(scope: ElementScope, el: Element, out: ViewItem[]): void {
  const { ctx, where } = scope;
  const { file, summary: s } = ctx;
  const id = s.ownerId;
  const report = (d: Diagnostic) => {
    out.push({ k: 'diag', d });
  };
  if (el.name === 'script')
    report(
      diag(
        'script_element_not_allowed',
        file.path,
        el.nameRange,
        `${id}: <script> is not allowed in a ${where}; load browser code with js "./file.js"`,
      ),
    );
  if (el.isComponent && el.alias && ctx.file.kind !== 'layout' && !s.uses.has(el.alias)) {
    report(
      diag(
        'unknown_use_alias',
        file.path,
        el.nameRange,
        `${id}: <${el.name}> uses alias "${el.alias}", which no use declaration names; add use ${el.alias} "<package>"`,
      ),
    );
  }
  for (const a of el.attrs) attribute(scope, el, a, out);
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

function attribute(scope: ElementScope, el: Element, a: Attribute, out: ViewItem[]): void {
  const { ctx, actions } = scope;
  const { file, summary: s } = ctx;
  const id = s.ownerId;
  const report = (d: Diagnostic) => {
    out.push({ k: 'diag', d });
  };
  if (a.form === 'let') {
    slotLet(scope, el, a, report);
    return;
  }
  const lower = a.name.toLowerCase();
  if (lower.length > 2 && lower.startsWith('on') && !lower.includes(':')) {
    report(
      diag(
        'inline_event_handler_not_allowed',
        file.path,
        a.nameRange,
        `${id}: inline event handler ${a.name} is not allowed; attach behaviour from a js module`,
      ),
    );
    return;
  }
  if (lower === 'srcdoc') {
    report(
      diag(
        'inline_event_handler_not_allowed',
        file.path,
        a.nameRange,
        `${id}: srcdoc is not allowed (it embeds unescaped HTML)`,
      ),
    );
    return;
  }
  if (URL_ATTRIBUTES.has(lower) && a.value) {
    if (a.value.type === 'expr') {
      report(
        diag(
          'unsafe_url',
          file.path,
          a.value.range,
          `${id}: ${a.name} takes a dynamic value only after a literal root-relative prefix, e.g. ` +
            `${a.name}="/items/{id}"`,
        ),
      );
    } else {
      const first = a.value.parts[0];
      const prefix = first && first.type === 'text' ? decodeEntities(first.value) : '';
      if (isUnsafeUrl(prefix)) {
        report(
          diag(
            'unsafe_url',
            file.path,
            a.value.range,
            `${id}: ${a.name} must not use a javascript:, data:, vbscript: or protocol-relative URL`,
          ),
        );
      } else if (first && first.type === 'interp') {
        report(
          diag(
            'unsafe_url',
            file.path,
            a.value.range,
            `${id}: ${a.name} takes a dynamic value only after a literal root-relative prefix, e.g. ` +
              `${a.name}="/items/{id}"`,
          ),
        );
      } else if (
        a.value.parts.length > 1 &&
        !/^\/(?![/\\])/.test(prefix) &&
        !/^(https?:|mailto:|tel:|#|\?|\.)/i.test(prefix.trim())
      ) {
        report(
          diag(
            'unsafe_url',
            file.path,
            a.value.range,
            `${id}: ${a.name} with interpolation must start with a literal root-relative prefix such as "/path/"`,
          ),
        );
      }
    }
  }
  if (!lower.startsWith('g:')) return;
  if (!DIRECTIVES.has(a.name) && !MESSAGE_DIRECTIVES.test(a.name)) {
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

/** `let:<name>` binds a slot value in slot content: where it may stand and how it is written. */
function slotLet(scope: ElementScope, el: Element, a: Attribute, report: (d: Diagnostic) => void): void {
  const { file, summary: s } = scope.ctx;
  const name = letBinding(a) ?? '';
  const problem = !(el.isComponent || el.attrs.some((x) => x.name === 'g:slot'))
    ? `${a.name} binds a slot value, so it belongs on <template g:slot="..."> or on a component call, ` +
      `not on <${el.name}>`
    : !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
      ? `${a.name} needs a name: let:value binds the slot value "value"`
      : a.value
        ? `${a.name} takes no value: it binds the slot value "${name}" under that name`
        : undefined;
  if (problem) report(diag('invalid_slot_let', file.path, a.range, `${s.ownerId}: ${problem}`));
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
