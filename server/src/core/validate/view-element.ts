// The checks of one element of a view and of each of its attributes, in the order they report:
// markup safety, the `use` alias of a component call, `let:` slot bindings, then the directives.
import { letBinding, type Attribute, type Element } from '#grammar/index.js';
import { diag } from '../diagnostics/registry.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { directiveAttribute, elementDirectives } from './view-directives.js';
import { scriptElement, unsafeAttribute } from './view-safety.js';
import { patternAttribute } from './view-pattern.js';
import type { ElementScope, ViewItem } from './view-scope.js';

export function checkElement(scope: ElementScope, el: Element, out: ViewItem[]): void {
  const { ctx, where } = scope;
  const { file, summary: s } = ctx;
  const id = s.ownerId;
  const report = (d: Diagnostic) => {
    out.push({ k: 'diag', d });
  };
  scriptElement(ctx, where, el, report);
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
  for (const a of el.attrs) attribute(scope, el, a, out, report);
  elementDirectives(ctx, el, report);
}

function attribute(
  scope: ElementScope,
  el: Element,
  a: Attribute,
  out: ViewItem[],
  report: (d: Diagnostic) => void,
): void {
  if (a.form === 'let') {
    slotLet(scope, el, a, report);
    return;
  }
  const lower = a.name.toLowerCase();
  if (unsafeAttribute(scope.ctx, a, lower, report)) return;
  if (lower === 'pattern') patternAttribute(scope.ctx, el, a, report);
  if (!lower.startsWith('g:')) return;
  directiveAttribute(scope, el, a, out);
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
