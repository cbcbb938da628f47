// The controls of a view's forms as written: which named inputs, textareas and selects a form holds
// and their literal constraint attributes. `kit check` reads it to check `g:error` names; the app
// build reads it for the constraints the server checks before an action runs.
import type { Attribute, Element, MarkupNode } from '#grammar/index.js';
import type { FieldConstraint } from '#shared/app/manifest.js';
import { FORM_CONTROLS, messageConstraint } from '#shared/language/facts.js';
import { decodeEntities } from './url-safety.js';

const CHECKED_TYPES = new Set(['email', 'url', 'number', 'range']);

function literal(a: Attribute | undefined): string | undefined {
  if (!a) return undefined;
  if (!a.value) return '';
  if (a.value.type !== 'string' || !a.value.parts.every((p) => p.type === 'text')) return undefined;
  return decodeEntities(a.value.parts.map((p) => (p.type === 'text' ? p.value : '')).join(''));
}

function attr(el: Element, name: string): Attribute | undefined {
  return el.attrs.find((a) => a.name.toLowerCase() === name);
}

/** The `g:post` symbol of a form (`g:post={Save}` or `g:post="Save"`). */
export function postSymbol(el: Element): string | undefined {
  const a = el.attrs.find((x) => x.name === 'g:post');
  if (!a?.value) return undefined;
  if (a.value.type === 'expr') return a.value.expr.type === 'path' ? a.value.expr.path.join('.') : undefined;
  return literal(a);
}

/** Named controls below `nodes` (nested forms are not looked into: HTML does not nest forms). */
export function formControls(nodes: readonly MarkupNode[], out: Element[] = []): Element[] {
  for (const n of nodes) {
    if (n.type !== 'element' || n.name === 'form') continue;
    if (FORM_CONTROLS.has(n.name) && literal(attr(n, 'name'))) out.push(n);
    formControls(n.children, out);
  }
  return out;
}

/** The name of a control (its literal `name`). */
export function controlName(el: Element): string {
  return literal(attr(el, 'name')) ?? '';
}

function whole(text: string | undefined): number | undefined {
  return text !== undefined && /^[0-9]+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/** The constraint a control's literal attributes declare. */
export function controlConstraint(el: Element): FieldConstraint {
  const type = el.name === 'input' ? (literal(attr(el, 'type')) ?? 'text').trim().toLowerCase() : el.name;
  const c: FieldConstraint = { name: controlName(el), type };
  if (attr(el, 'required')) c.required = true;
  const minlength = whole(literal(attr(el, 'minlength')));
  if (minlength !== undefined) c.minlength = minlength;
  const maxlength = whole(literal(attr(el, 'maxlength')));
  if (maxlength !== undefined) c.maxlength = maxlength;
  const min = literal(attr(el, 'min'));
  if (min) c.min = min.trim();
  const max = literal(attr(el, 'max'));
  if (max) c.max = max.trim();
  const pattern = literal(attr(el, 'pattern'));
  if (pattern) c.pattern = pattern;
  for (const a of el.attrs) {
    const constraint = messageConstraint(a.name);
    const text = constraint ? literal(a) : undefined;
    if (constraint && text) (c.messages ??= {})[constraint] = text;
  }
  return c;
}

/**
 * The constraints of the fields of every form in `body` posting to `symbol`, one per name (the
 * first control of a name decides, `required` if any control of the name has it); undefined when
 * no such form constrains anything.
 */
export function actionConstraints(body: readonly MarkupNode[], symbol: string): FieldConstraint[] | undefined {
  const byName = new Map<string, FieldConstraint>();
  const visit = (nodes: readonly MarkupNode[]): void => {
    for (const n of nodes) {
      if (n.type !== 'element') continue;
      if (n.name === 'form' && postSymbol(n) === symbol) {
        for (const control of formControls(n.children)) {
          const c = controlConstraint(control);
          const first = byName.get(c.name);
          if (first === undefined) byName.set(c.name, c);
          else if (c.required) first.required = true;
        }
      } else visit(n.children);
    }
  };
  visit(body);
  const out = [...byName.values()].filter(
    (c) =>
      c.required ||
      c.minlength !== undefined ||
      c.maxlength !== undefined ||
      c.min !== undefined ||
      c.max !== undefined ||
      c.pattern !== undefined ||
      CHECKED_TYPES.has(c.type),
  );
  return out.length ? out : undefined;
}
