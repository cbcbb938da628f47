// Forms as the renderer writes them. The compiler marks the elements forms need (`el` nodes, see
// ir.ts); rendering with a `FormRender` (the per-request form state) then
// - writes the hidden CSRF field right after the start tag of each `<form>` whose method is POST
//   and whose action stays on this origin (missing or empty, or a relative URL: `//host`, `/\host`
//   and any URL with a scheme never get a token, so a token never leaks to another origin);
// - puts a submission's values back into the controls of the form it came from (text-like inputs
//   get `value`, checkboxes and radios `checked`, options `selected`, textareas their text; a
//   repeated name fills its controls in order; password, file, hidden and button inputs are left as
//   rendered) and marks the controls of fields with an error `aria-invalid="true"`;
// - records the forms it wrote (to find which one a submission came from) and keeps the HTML of
//   the element a partial answer is made of.
// A control written again has its start tag rewritten: attribute names in lower case, the first of
// a repeated name kept, an empty value written bare, the changed attributes last. Attribute values
// are read as written (`"` never occurs unescaped in them); names and URLs are compared after
// decoding the basic character references.
import { FORM_CONTROLS } from '../language/facts.js';
import { escapeHtml } from './escape.js';
import type { ElementNode, Node, Template } from './ir.js';

/** The name of the hidden CSRF field kit writes into its forms. */
export const CSRF_FIELD = '_kit_csrf';

export function csrfInput(token: string): string {
  return `<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  quot: '"',
  '#39': "'",
  '#x27': "'",
  lt: '<',
  gt: '>',
  '#47': '/',
  '#x2f': '/',
  '#92': '\\',
  '#x5c': '\\',
};

/** Decodes the character references the renderer writes (and `/`, `\` spelt as references). */
export function decodeBasicEntities(s: string): string {
  return s.includes('&')
    ? s.replace(/&(amp|quot|#39|#x27|lt|gt|#47|#x2f|#92|#x5c);/gi, (m, e: string) => ENTITIES[e.toLowerCase()] ?? m)
    : s;
}

/** The action keeps the request on this origin (see the file comment); undefined is no action. */
export function isSameOriginAction(action: string | undefined): boolean {
  if (action === undefined) return true;
  const a = decodeBasicEntities(action).trim();
  if (a === '') return true;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  if (a.startsWith('//') || a.startsWith('/\\') || a.startsWith('\\')) return false;
  // A scheme (`https:`, `javascript:`) before any `/`, `?` or `#`: not relative.
  const colon = a.indexOf(':');
  if (colon >= 0) {
    const slash = a.search(/[/?#]/);
    if (slash < 0 || colon < slash) return false;
  }
  return true;
}

/**
 * The value of an attribute as one of its nodes wrote it: undefined when it wrote nothing, `''`
 * for a bare attribute, else the text between its quotes.
 */
export function writtenValue(written: string): string | undefined {
  if (written === '') return undefined;
  const eq = written.indexOf('="');
  return eq < 0 ? '' : written.slice(eq + 2, written.length - 1);
}

/** A form the renderer wrote, as a submission is matched against it. */
export interface RenderedForm {
  /** `method`, trimmed, in lower case (`''` without one). */
  method: string;
  /** `action`, decoded. */
  action: string;
  /** `data-kit-target` (the `g:target`), decoded. */
  target: string;
  /** The names of its controls (`input`, `textarea`, `select`), decoded. */
  names: Set<string>;
}

/** A submission to show again: its values go back into the form the renderer wrote `form`-th (from 0). */
export interface Refill {
  form: number;
  values: ReadonlyMap<string, readonly string[]>;
  /** Fields with an error: their controls get `aria-invalid`. */
  invalid: ReadonlySet<string>;
}

/** The HTML of the element a partial answer is made of, and the CSRF fields written in each part. */
export interface Captured {
  outer: string;
  inner: string;
  outerFields: number;
  innerFields: number;
}

export interface FormRenderOptions {
  /** The CSRF token, asked for when the first form that gets a field is written. */
  token?: () => string;
  /** Record the forms written (`forms`). */
  probe?: boolean;
  refill?: Refill;
  /** Keep the HTML (`captured`) of the form `refill` names, or of the element with this `id`. */
  capture?: { form: true } | { id: string };
}

/** What one submission's refill is doing while its form is written. */
interface Filling {
  refill: Refill;
  /** Values of a name used so far (a repeated name fills its controls in order). */
  used: Map<string, number>;
  /** The name of the `<select>` being written, when the submission has values for it. */
  select: string | undefined;
}

/** The form state of one render (one request): see the file comment. */
export class FormRender {
  /** CSRF fields written so far. */
  fields = 0;
  /** The forms written, in order (when probing). */
  readonly forms: RenderedForm[] = [];
  captured: Captured | undefined;
  /** @internal Forms counted so far, the ones being written (probing), the refill under way. */
  count = 0;
  readonly open: RenderedForm[] = [];
  filling: Filling | undefined;
  capturing = false;
  private token: string | undefined;

  constructor(readonly options: FormRenderOptions = {}) {}

  /** The CSRF field, or `''` when this render writes none. */
  csrfField(): string {
    const ask = this.options.token;
    if (ask === undefined) return '';
    this.fields++;
    return csrfInput((this.token ??= ask()));
  }
}

/** Whether rendering `ir` may write a CSRF field (it holds a form that may post to this origin). */
export function hasTokenForms(ir: Template): boolean {
  let known = tokenForms.get(ir);
  if (known === undefined || known.nodes !== ir.nodes)
    tokenForms.set(ir, (known = { nodes: ir.nodes, has: hasForm(ir.nodes) }));
  return known.has;
}

const tokenForms = new WeakMap<Template, { nodes: readonly Node[]; has: boolean }>();

function hasForm(nodes: readonly Node[]): boolean {
  for (const n of nodes) {
    if (typeof n === 'string') continue;
    if (n.t === 'el' && (n.n.toLowerCase() === 'form' || (n.b !== undefined && hasForm(n.b)))) return true;
    if ((n.t === 'if' || n.t === 'for') && hasForm(n.b)) return true;
  }
  return false;
}

// ---- rendering -----------------------------------------------------------------------------------

/** What the renderer's scope offers this module. */
export interface FormScope {
  forms: FormRender | undefined;
}

type Emit<S> = (s: S) => string;

const NO_VALUE_BACK = new Set(['password', 'file', 'hidden', 'submit', 'button', 'reset', 'image']);

/** Attribute changes of a control written again: a value, or null to leave the attribute out. */
type Changes = [string, string | null][];

/**
 * Compiles an `el` node: without form state it writes exactly the chunks it stands for; with it,
 * see the file comment. `compile` compiles a node list (the renderer's own).
 */
export function compileElement<S extends FormScope>(
  n: ElementNode,
  compile: (nodes: readonly Node[]) => Emit<S>,
): Emit<S> {
  const site = new ElementSite(n, compile);
  return (s) => (s.forms === undefined ? site.plain(s) : site.render(s, s.forms));
}

class ElementSite<S extends FormScope> {
  readonly tag: string;
  readonly names: readonly string[];
  readonly attrs: readonly Emit<S>[];
  readonly plain: Emit<S>;
  readonly body: Emit<S> | undefined;
  readonly close: string;
  readonly id: string | undefined;

  private readonly start: string;

  constructor(n: ElementNode, compile: (nodes: readonly Node[]) => Emit<S>) {
    this.tag = n.n.toLowerCase();
    this.names = n.a.map((a) => a[0]);
    this.attrs = n.a.map((a) => compile(a[1]));
    const body = (this.body = n.b === undefined ? undefined : compile(n.b));
    const close = (this.close = n.b === undefined ? '' : `</${n.n}>`);
    this.id = n.id;
    this.start = '<' + n.n;
    const tag: Node[] = [this.start];
    for (const a of n.a) tag.push(...a[1]);
    tag.push('>');
    // The start tag as one emitter; the content's emitter is shared with `render`.
    const open = compile(tag);
    this.plain = body === undefined ? open : (s) => open(s) + body(s) + close;
  }

  /** The value of the first attribute of this name that was written. */
  private value(written: readonly string[], name: string): string | undefined {
    for (let i = 0; i < written.length; i++) {
      if (this.names[i] !== name) continue;
      const v = writtenValue(written[i]);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  render(s: S, f: FormRender): string {
    const tag = this.tag;
    const isForm = tag === 'form';
    const isControl = FORM_CONTROLS.has(tag) || tag === 'option';
    const wanted = f.options.capture;
    const region = !f.capturing && wanted !== undefined && 'id' in wanted && wanted.id === this.id;
    if (!isForm && !region && !(isControl && (f.filling !== undefined || f.open.length > 0))) return this.plain(s);
    const written = this.attrs.map((a) => a(s));
    if (isForm) return this.form(s, f, written);
    if (region) f.capturing = true;
    const fields = f.fields;
    const { open, body } = isControl ? this.control(s, f, written) : { open: this.open(written), body: undefined };
    const inner = body ?? (this.body === undefined ? '' : this.body(s));
    const html = open + inner + this.close;
    // No field is written in a start tag: the element's fields are all inside it.
    if (region) f.captured = { outer: html, inner, outerFields: f.fields - fields, innerFields: f.fields - fields };
    return html;
  }

  private open(written: readonly string[]): string {
    return this.start + written.join('') + '>';
  }

  /** A form: its CSRF field, what a probe records, the refill of its controls when it is the one. */
  private form(s: S, f: FormRender, written: readonly string[]): string {
    const number = f.count++;
    const method = (this.value(written, 'method') ?? '').trim().toLowerCase();
    const action = this.value(written, 'action');
    const fieldsBefore = f.fields;
    const field = method === 'post' && isSameOriginAction(action) ? f.csrfField() : '';
    const seen: RenderedForm | undefined = f.options.probe
      ? {
          method,
          action: decodeBasicEntities(action ?? ''),
          target: decodeBasicEntities(this.value(written, 'data-kit-target') ?? ''),
          names: new Set(),
        }
      : undefined;
    if (seen !== undefined) {
      f.forms.push(seen);
      f.open.push(seen);
    }
    const refill = f.options.refill?.form === number ? f.options.refill : undefined;
    const wanted = f.options.capture;
    const region =
      !f.capturing && wanted !== undefined && ('id' in wanted ? wanted.id === this.id : refill !== undefined);
    if (region) f.capturing = true;
    const outer = f.filling;
    if (refill !== undefined) f.filling = { refill, used: new Map(), select: undefined };
    const bodyBefore = f.fields;
    const inner = this.body === undefined ? '' : this.body(s);
    f.filling = outer;
    if (seen !== undefined) f.open.pop();
    const html = this.open(written) + field + inner + this.close;
    if (region)
      f.captured = { outer: html, inner, outerFields: f.fields - fieldsBefore, innerFields: f.fields - bodyBefore };
    return html;
  }

  /** A control: recorded by a probe, written again when its form is being refilled. */
  private control(s: S, f: FormRender, written: readonly string[]): { open: string; body?: string } {
    const tag = this.tag;
    const name = decodeBasicEntities(this.value(written, 'name') ?? '');
    if (tag !== 'option') for (const form of f.open) form.names.add(name);
    const fill = f.filling;
    if (fill === undefined) return { open: this.open(written) };
    if (tag === 'option') return this.option(s, fill, written);
    if (name === '') return { open: this.open(written) };
    const values = fill.refill.values;
    const invalid = fill.refill.invalid.has(name);
    const mark = (changes: Changes): Changes => (invalid ? [...changes, ['aria-invalid', 'true']] : changes);
    if (tag === 'select') {
      const open = invalid ? this.rewrite(written, mark([])) : this.open(written);
      const outer = fill.select;
      fill.select = values.has(name) ? name : undefined;
      const body = this.body === undefined ? '' : this.body(s);
      fill.select = outer;
      return { open, body };
    }
    if (tag === 'textarea') {
      const open = invalid ? this.rewrite(written, mark([])) : this.open(written);
      const v = values.has(name) ? next(fill, name) : undefined;
      return v === undefined ? { open } : { open, body: escapeHtml(v) };
    }
    const type = (this.value(written, 'type') ?? 'text').trim().toLowerCase();
    if (NO_VALUE_BACK.has(type) || !values.has(name))
      return { open: invalid ? this.rewrite(written, mark([])) : this.open(written) };
    if (type === 'checkbox' || type === 'radio') {
      const own = decodeBasicEntities(this.value(written, 'value') ?? 'on');
      return { open: this.rewrite(written, mark([['checked', values.get(name)!.includes(own) ? '' : null]])) };
    }
    const v = next(fill, name);
    if (v === undefined && !invalid) return { open: this.open(written) };
    return { open: this.rewrite(written, mark(v === undefined ? [] : [['value', escapeHtml(v)]])) };
  }

  /** An option of a `<select>` the submission has values for: `selected` when its value is one of them. */
  private option(s: S, fill: Filling, written: readonly string[]): { open: string; body?: string } {
    const select = fill.select;
    if (select === undefined) return { open: this.open(written) };
    const body = this.body === undefined ? '' : this.body(s);
    let own = this.value(written, 'value');
    if (own === undefined) {
      const lt = body.indexOf('<');
      own = (lt < 0 ? body : body.slice(0, lt)).trim();
    }
    const chosen = fill.refill.values.get(select)!.includes(decodeBasicEntities(own));
    return { open: this.rewrite(written, [['selected', chosen ? '' : null]]), body };
  }

  /** The start tag written again with `changes` (see the file comment). */
  private rewrite(written: readonly string[], changes: Changes): string {
    let out = '<' + this.tag;
    const seen = new Set<string>();
    for (let i = 0; i < written.length; i++) {
      const name = this.names[i];
      const v = writtenValue(written[i]);
      if (v === undefined || seen.has(name)) continue;
      seen.add(name);
      if (changes.some((c) => c[0] === name)) continue;
      out += v === '' ? ` ${name}` : ` ${name}="${v.replace(/"/g, '&quot;')}"`;
    }
    for (const [name, value] of changes) if (value !== null) out += value === '' ? ` ${name}` : ` ${name}="${value}"`;
    return out + '>';
  }
}

/** The next submitted value of a repeated name. */
function next(fill: Filling, name: string): string | undefined {
  const i = fill.used.get(name) ?? 0;
  fill.used.set(name, i + 1);
  return fill.refill.values.get(name)?.[i];
}
