// Slots as other files see them: the `<slot>` outlets a component declares (their names and the
// values they pass) and the slot content a component call gives (which slot, which `let:` names).
// Both read one element only, so they are remembered per element object, which never changes.
import { letBinding, type Attribute, type Element, type Expr, type MarkupNode, type Range } from '#grammar/index.js';
import { attrText } from './summary.js';

/** A `<slot>` of a component's view: `name` is '' for the default slot. */
export interface SlotOutlet {
  name: string;
  /** The values it passes: attributes other than `name` and `g:` directives. */
  values: readonly Attribute[];
  element: Element;
}

/** Slot content of a component call: a child with `g:slot="name"`, or the call itself for `let:` on it. */
export interface SlotUse {
  /** The slot it fills ('' for the default slot). */
  name: string;
  /** The `g:slot` attribute, or the call's name for the default slot. */
  range: Range;
  /** Its `let:` attributes. */
  lets: readonly Attribute[];
  /** Reads of a field of a `let:` name in the content (`{value.title}`): checked against what the slot passes. */
  fieldReads: readonly FieldRead[];
}

/** `{value.title}` in slot content: the let-bound name, the whole path and where it is. */
export interface FieldRead {
  name: string;
  path: readonly string[];
  range: Range;
}

/** What a slot value is, as far as the component's file tells: a prop, a literal, or anything else. */
export type SlotValueKind = { k: 'prop'; prop: string } | { k: 'text' } | { k: 'bool' } | { k: 'other' };

export function slotValueKind(a: Attribute): SlotValueKind {
  if (a.value === undefined) return { k: 'bool' };
  if (a.value.type === 'expr') {
    const e = a.value.expr;
    return e.type === 'path' && e.path.length === 1 ? { k: 'prop', prop: e.path[0] } : { k: 'other' };
  }
  return a.value.parts.every((p) => p.type === 'text') ? { k: 'text' } : { k: 'other' };
}

function exprReads(e: Expr, names: ReadonlySet<string>, out: FieldRead[]): void {
  if (e.type === 'path') {
    if (e.path.length > 1 && names.has(e.path[0])) out.push({ name: e.path[0], path: e.path, range: e.range });
  } else if (e.type === 'not') exprReads(e.expr, names, out);
  else if (e.type === 'binary') {
    exprReads(e.left, names, out);
    exprReads(e.right, names, out);
  } else if (e.type === 'for') exprReads(e.collection, names, out);
}

/** Field reads of `names` in `nodes`, in document order (an explicit stack: content may nest deep). */
function fieldReadsIn(nodes: readonly MarkupNode[], names: ReadonlySet<string>): FieldRead[] {
  const out: FieldRead[] = [];
  if (names.size === 0) return out;
  const stack: MarkupNode[] = [...nodes].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'interp') exprReads(n.expr, names, out);
    else if (n.type === 'element') {
      for (const a of n.attrs) {
        if (!a.value) continue;
        if (a.value.type === 'expr') exprReads(a.value.expr, names, out);
        else for (const p of a.value.parts) if (p.type === 'interp') exprReads(p.expr, names, out);
      }
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
  }
  return out;
}

function letNames(lets: readonly Attribute[]): Set<string> {
  return new Set(lets.map((a) => letBinding(a) ?? ''));
}

const outlets = new WeakMap<Element, SlotOutlet>();
const uses = new WeakMap<Element, readonly SlotUse[]>();

export function slotOutlet(el: Element): SlotOutlet {
  let o = outlets.get(el);
  if (o === undefined) {
    o = {
      name: attrText(el, 'name')?.value ?? '',
      values: el.attrs.filter((a) => a.form === 'normal' && a.name !== 'name' && !a.name.startsWith('g:')),
      element: el,
    };
    outlets.set(el, o);
  }
  return o;
}

/** The slot content of a call that names a slot (`g:slot`) or binds values (`let:` on the call). */
export function slotUses(call: Element): readonly SlotUse[] {
  let list = uses.get(call);
  if (list === undefined) {
    const out: SlotUse[] = [];
    const ownLets = call.attrs.filter((a) => letBinding(a) !== undefined);
    if (ownLets.length) {
      const rest = call.children.filter((c) => c.type !== 'element' || !c.attrs.some((a) => a.name === 'g:slot'));
      out.push({ name: '', range: call.nameRange, lets: ownLets, fieldReads: fieldReadsIn(rest, letNames(ownLets)) });
    }
    for (const c of call.children) {
      if (c.type !== 'element') continue;
      const g = c.attrs.find((a) => a.name === 'g:slot');
      if (!g) continue;
      const lets = c.attrs.filter((a) => letBinding(a) !== undefined);
      out.push({
        name: attrText(c, 'g:slot')?.value ?? '',
        range: g.range,
        lets,
        fieldReads: fieldReadsIn(c.children, letNames(lets)),
      });
    }
    uses.set(call, (list = out));
  }
  return list;
}
