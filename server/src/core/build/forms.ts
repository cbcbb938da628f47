// What forms need from a compiled template. The markup compiler writes as `el` nodes the elements
// the renderer fills per request (shared/render/forms.ts: CSRF fields, a submission's values put
// back, the element a partial answer is made of): forms, their controls, the elements a `g:target`
// names, and the elements whose content browsers read as text (nothing inside those is a form, for
// a browser, so nothing inside them gets a field). `finishTemplate` then keeps an `el` node only
// where a request can need it: a form that may post to this origin, a control inside one, an
// element a `g:target` names, none of them inside raw text. Every other one becomes the plain
// chunks it stands for, so a template without such forms renders as fast as before.
import type { Element } from '#grammar/index.js';
import { FORM_CONTROLS } from '#shared/language/facts.js';
import { isSameOriginAction, type Template, writtenValue } from '#shared/render/index.js';
import { walkElements } from '../model/markup-memo.js';
import type { FileSummary } from '../model/summary.js';
import { attr, literalValue, type OwnerContext } from './owner-context.js';
import { push, type PNode, toTemplate } from './proto.js';

type ElementPNode = Extract<PNode, { t: 'el' }>;

const CONTROL_TAGS: ReadonlySet<string> = new Set([...FORM_CONTROLS, 'option']);
const FORM_TAGS: ReadonlySet<string> = new Set(['form', ...CONTROL_TAGS]);
/** Elements whose content browsers read as text (`style`'s is compiled as text already). */
const RAW_TEXT = new Set(['script', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

const targetsOf = new WeakMap<FileSummary, ReadonlySet<string>>();

/** The ids (`outcome` for `g:target="#outcome"`) the `g:target`s of an owner's markup name. */
function targetIds(s: FileSummary): ReadonlySet<string> {
  let ids = targetsOf.get(s);
  if (ids === undefined) {
    const found = new Set<string>();
    const visit = (el: Element): void => {
      const a = attr(el, 'g:target');
      const v = a && literalValue(a);
      if (v?.startsWith('#')) found.add(v.slice(1));
    };
    if (s.view) walkElements(s.view.body, visit);
    for (const f of s.fragments) walkElements(f.body, visit);
    targetsOf.set(s, (ids = found));
  }
  return ids;
}

/**
 * How `el` is marked for forms: an `el` node (with the `id` a `g:target` names, or as raw text),
 * or undefined for plain chunks.
 */
export function formMark(el: Element, ctx: OwnerContext): { id?: string; raw?: true } | undefined {
  const name = el.name.toLowerCase();
  const raw = RAW_TEXT.has(name);
  const idAttr = attr(el, 'id');
  const id = idAttr && literalValue(idAttr);
  const targeted = id !== undefined && targetIds(ctx.summary).has(id);
  if (!FORM_TAGS.has(name) && !raw && !targeted) return undefined;
  return { ...(targeted ? { id } : {}), ...(raw ? { raw: true as const } : {}) };
}

/** The value of the first attribute of this name, when its nodes fix it: null when a value decides at render time. */
function fixedValue(n: ElementPNode, name: string): string | undefined | null {
  for (const [attrName, nodes] of n.a) {
    if (attrName !== name) continue;
    if (!nodes.every((x) => typeof x === 'string')) return null;
    return writtenValue(nodes.join(''));
  }
  return undefined;
}

/** A form that may get a CSRF field or be a submission's form: POST (or decided later) to this origin. */
function mayPost(n: ElementPNode): boolean {
  const method = fixedValue(n, 'method');
  if (method !== null && (method ?? '').trim().toLowerCase() !== 'post') return false;
  const action = fixedValue(n, 'action');
  return action === null || isSameOriginAction(action);
}

/** The plain chunks an `el` node stands for, its content kept by `inside`. */
function flatten(n: ElementPNode, out: PNode[], inside: (nodes: readonly PNode[], out: PNode[]) => void): void {
  push(out, '<' + n.n);
  for (const [, nodes] of n.a) for (const x of nodes) push(out, x);
  push(out, '>');
  if (n.b === undefined) return;
  inside(n.b, out);
  push(out, `</${n.n}>`);
}

/** `nodes` with the `el` nodes a request can need kept (see the file comment), the others flattened. */
function keep(nodes: readonly PNode[], out: PNode[], inForm: boolean, forms: boolean): void {
  for (const n of nodes) {
    if (typeof n === 'string' || (n.t !== 'el' && n.t !== 'if' && n.t !== 'for')) {
      push(out, n);
      continue;
    }
    if (n.t === 'if' || n.t === 'for') {
      const b: PNode[] = [];
      keep(n.b, b, inForm, forms);
      out.push({ ...n, b });
      continue;
    }
    const tag = n.n.toLowerCase();
    const form = tag === 'form' && forms && mayPost(n);
    const kept = form || (forms && n.id !== undefined) || (forms && inForm && CONTROL_TAGS.has(tag));
    // Nothing inside raw text is an element for a browser (a textarea's content is its text).
    const inside = (b: readonly PNode[], o: PNode[]): void => keep(b, o, inForm || form, forms && !n.raw);
    if (!kept) {
      flatten(n, out, inside);
      continue;
    }
    const node: ElementPNode = { t: 'el', n: n.n, a: n.a, ...(n.id !== undefined ? { id: n.id } : {}) };
    if (n.b !== undefined) inside(n.b, (node.b = []));
    out.push(node);
  }
}

/**
 * The finished template of a page (`forms`: its forms are filled per request) or of a fragment or
 * an error page (rendered without form state: every element plain).
 */
export function finishTemplate(nodes: readonly PNode[], locals: number, where: string, forms: boolean): Template {
  const out: PNode[] = [];
  keep(nodes, out, false, forms);
  return toTemplate(out, locals, where);
}
