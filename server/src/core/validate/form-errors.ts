// `g:error="field"`: where a failed submission's message for a field shows. The name must be a
// field of the form the element sits in (a named input, textarea or select of it), or, outside any
// form, of a form of the view posting to an action; otherwise the message could never show.
import type { Attribute, Element, MarkupNode } from '../../../../grammar/src/ast.js';
import { closestOf } from '../../../../grammar/src/keywords.js';
import { diag } from '../diagnostics/registry.js';
import { controlName, formControls, postSymbol } from '../model/form-fields.js';
import type { RuleContext } from './context.js';

function literalAttrValue(a: Attribute): string | undefined {
  if (!a.value || a.value.type !== 'string' || !a.value.parts.every((p) => p.type === 'text')) return undefined;
  return a.value.parts.map((p) => (p.type === 'text' ? p.value : '')).join('');
}

function fieldsOf(form: Element): Set<string> {
  return new Set(formControls(form.children).map(controlName));
}

export function formErrorsRule(ctx: RuleContext): void {
  const { file, summary: s } = ctx;
  if (!s.view || file.kind !== 'page') return;
  const postForms: Element[] = [];
  const errors: { el: Element; form: Element | undefined }[] = [];
  const walk = (nodes: readonly MarkupNode[], form: Element | undefined): void => {
    for (const n of nodes) {
      if (n.type !== 'element') continue;
      if (n.name === 'form' && postSymbol(n) !== undefined) postForms.push(n);
      if (n.attrs.some((a) => a.name === 'g:error')) errors.push({ el: n, form });
      walk(n.children, n.name === 'form' ? n : form);
    }
  };
  walk(s.view.body, undefined);
  if (errors.length === 0) return;
  let anyForm: Set<string> | undefined;
  for (const { el, form } of errors) {
    const a = el.attrs.find((x) => x.name === 'g:error')!;
    const field = literalAttrValue(a);
    if (!field) {
      ctx.report(
        diag(
          'invalid_directive_value',
          file.path,
          a.range,
          `${s.ownerId}: g:error expects a field name: g:error="email"`,
        ),
      );
      continue;
    }
    let fields: Set<string>;
    let where: string;
    if (form !== undefined) {
      fields = fieldsOf(form);
      where = 'its form';
    } else {
      anyForm ??= new Set(postForms.flatMap((f) => [...fieldsOf(f)]));
      fields = anyForm;
      where = 'any g:post form of the view';
    }
    if (fields.has(field)) continue;
    const near = closestOf(field, fields);
    ctx.report(
      diag(
        'unknown_error_field',
        file.path,
        a.value!.range,
        `${s.ownerId}: g:error="${field}" names no field of ${where} (no input, textarea or select ` +
          `name="${field}")${near ? `; did you mean "${near}"?` : ''}`,
      ),
    );
  }
}
