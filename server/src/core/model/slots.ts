// Slots as other files see them: the `<slot>` outlets a component declares (their names and the
// values they pass) and the slot content a component call gives (which slot, which `let:` names).
// Both read one element only, so they are remembered per element object, which never changes.
import { letBinding, type Attribute, type Element, type Range } from '../../../../grammar/src/ast.js';
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
    if (ownLets.length) out.push({ name: '', range: call.nameRange, lets: ownLets });
    for (const c of call.children) {
      if (c.type !== 'element') continue;
      const g = c.attrs.find((a) => a.name === 'g:slot');
      if (!g) continue;
      out.push({
        name: attrText(c, 'g:slot')?.value ?? '',
        range: g.range,
        lets: c.attrs.filter((a) => letBinding(a) !== undefined),
      });
    }
    uses.set(call, (list = out));
  }
  return list;
}
