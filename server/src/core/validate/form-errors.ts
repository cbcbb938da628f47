// `g:error="field"`: where a failed submission's message for a field shows. The name must be a
// field of the form the element sits in (a named input, textarea or select of it), or, outside any
// form, of a form of the view posting to an action; otherwise the message could never show.
import type { Attribute, Element } from '#grammar/index.js';
import { diag } from '../diagnostics/registry.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { controlName, formControls, postSymbol } from '../model/form-fields.js';
import { MarkupMemo, type MarkupVisitor } from '../model/markup-memo.js';
import type { RuleContext } from './context.js';

function literalAttrValue(a: Attribute): string | undefined {
  if (!a.value || a.value.type !== 'string' || !a.value.parts.every((p) => p.type === 'text')) return undefined;
  return a.value.parts.map((p) => (p.type === 'text' ? p.value : '')).join('');
}

function fieldsOf(form: Element): Set<string> {
  return new Set(formControls(form.children).map(controlName));
}

/** A form of the view, or an element with `g:error`, in document order. */
type FormItem = { k: 'form'; el: Element; post: boolean } | { k: 'error'; el: Element };

const FORM_ITEMS: MarkupVisitor<FormItem> = {
  element(el, out) {
    // g:error on a form itself belongs to the form around it: its item comes before the form's.
    if (el.attrs.some((a) => a.name === 'g:error')) out.push({ k: 'error', el });
    if (el.name === 'form') out.push({ k: 'form', el, post: postSymbol(el) !== undefined });
  },
};

/** Remembered per element (an edit inside a long view walks only what it changed). */
const FORM_MEMO = new MarkupMemo<FormItem>();

/** Elements with `g:error` alone: views without any (most) are done after a walk of what changed. */
const ERROR_ITEMS: MarkupVisitor<true> = {
  element(el, out) {
    if (el.attrs.some((a) => a.name === 'g:error')) out.push(true);
  },
};
const ERROR_MEMO = new MarkupMemo<true>();

export function formErrorsRule(ctx: RuleContext): void {
  const { file, summary: s } = ctx;
  if (!s.view || file.kind !== 'page') return;
  if (ERROR_MEMO.collect(s.view.body, '', ERROR_ITEMS).length === 0) return;
  const postForms: Element[] = [];
  const errors: { el: Element; form: Element | undefined }[] = [];
  // Items come each element's own before its children's: the innermost open form is the last one
  // whose range has not ended.
  const open: Element[] = [];
  for (const x of FORM_MEMO.collect(s.view.body, '', FORM_ITEMS)) {
    const at = x.el.range.start.offset;
    while (open.length && open[open.length - 1].range.end.offset <= at) open.pop();
    if (x.k === 'form') {
      if (x.post) postForms.push(x.el);
      open.push(x.el);
    } else errors.push({ el: x.el, form: open[open.length - 1] });
  }
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
    ctx.report(
      diag(
        'unknown_error_field',
        file.path,
        a.value!.range,
        `${s.ownerId}: g:error="${field}" names no field of ${where} (no input, textarea or select ` +
          `name="${field}")` +
          didYouMean(field, fields),
      ),
    );
  }
}
