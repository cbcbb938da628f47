// View markup → proto IR, for one owner (page, layout, component or fragment body). Elements become
// static chunks (their attributes: `markup-attributes.ts`), or `el` nodes where the renderer's
// forms need them (`forms.ts`); interpolations become escaped holes; `g:for`, `g:if` and `g:error`
// wrap an element in a loop or a condition; component calls are instantiated from their
// once-compiled form.
import type { Element, MarkupNode } from '#grammar/index.js';
import { VOID_ELEMENTS } from '#shared/language/facts.js';
import { staticHtml } from '#shared/render/index.js';
import { type CompiledAttribute, compileAttributeList } from './markup-attributes.js';
import { formMark } from './forms.js';
import { attr, attributeExpr, convertExpr, literalValue, type OwnerContext, type Scope } from './owner-context.js';
import { fold, push, pushIf, type PExpr, type PNode } from './proto.js';

export {
  attributeExpr,
  type BoundName,
  freshNesting,
  literalValue,
  type OwnerContext,
  type Scope,
} from './owner-context.js';

const PRESERVE_SPACE = new Set(['pre', 'textarea', 'style', 'listing', 'plaintext']);
const RAW_TEXT = new Set(['style']);

/** Whitespace runs that hold a line break become one line break (outside `pre` and friends). */
function collapse(text: string): string {
  return text.replace(/[ \t\r\f\v]*\n[ \t\r\n\f\v]*/g, '\n');
}

function isBlank(n: MarkupNode): boolean {
  return n.type === 'comment' || (n.type === 'text' && n.value.trim() === '');
}

/** Compiles a node list; `trim` drops the whitespace that opens and closes a whole body. */
export function compileNodes(
  nodes: readonly MarkupNode[],
  ctx: OwnerContext,
  scope: Scope,
  out: PNode[],
  pre = 0,
  trim = false,
): void {
  let first = 0;
  let last = nodes.length - 1;
  if (trim) {
    while (first <= last && isBlank(nodes[first])) first++;
    while (last >= first && isBlank(nodes[last])) last--;
  }
  for (let i = first; i <= last; i++) {
    const n = nodes[i];
    switch (n.type) {
      case 'comment':
        break;
      case 'text': {
        let v = pre > 0 ? n.value : collapse(n.value);
        if (trim && i === first) v = v.replace(/^\s+/, '');
        if (trim && i === last) v = v.replace(/\s+$/, '');
        push(out, staticHtml(v, false));
        break;
      }
      case 'interp':
        push(out, fold({ t: 'text', e: convertExpr(n.expr, ctx, scope) }));
        break;
      case 'element':
        compileElement(n, ctx, scope, out, pre);
        break;
    }
  }
}

export function compileElement(el: Element, ctx: OwnerContext, scope: Scope, out: PNode[], pre: number): void {
  const forAttr = attr(el, 'g:for');
  if (forAttr?.value?.type === 'expr' && forAttr.value.expr.type === 'for') {
    const f = forAttr.value.expr;
    const item = ctx.locals.n++;
    const index = f.index ? ctx.locals.n++ : undefined;
    const inner = new Map(scope);
    inner.set(f.item.text, { k: 'local', i: item, p: [] });
    if (f.index && index !== undefined) inner.set(f.index.text, { k: 'local', i: index, p: [] });
    const body: PNode[] = [];
    compileConditional(el, ctx, inner, body, pre);
    out.push({
      t: 'for',
      e: convertExpr(f.collection, ctx, scope),
      item,
      ...(index !== undefined ? { index } : {}),
      b: body,
    });
    return;
  }
  compileConditional(el, ctx, scope, out, pre);
}

function compileConditional(el: Element, ctx: OwnerContext, scope: Scope, out: PNode[], pre: number): void {
  const ifAttr = attr(el, 'g:if');
  if (ifAttr?.value?.type === 'expr') {
    const body: PNode[] = [];
    compileFieldError(el, ctx, scope, body, pre);
    pushIf(out, convertExpr(ifAttr.value.expr, ctx, scope), body);
    return;
  }
  compileFieldError(el, ctx, scope, out, pre);
}

/**
 * `g:error="email"`: the element renders only when the re-rendered page's `form.errors.email` is
 * set (a failed submission); an element written empty shows the message itself.
 */
function compileFieldError(el: Element, ctx: OwnerContext, scope: Scope, out: PNode[], pre: number): void {
  const a = attr(el, 'g:error');
  const field = a && literalValue(a);
  if (!field) {
    compileBare(el, ctx, scope, out, pre);
    return;
  }
  const message: PExpr = { k: 'data', p: ['form', 'errors', field] };
  const body: PNode[] = [];
  const empty = el.children.every(isBlank) && !VOID_ELEMENTS.has(el.name);
  // An empty element's content is the message.
  compileBare(el, ctx, scope, body, pre, empty ? [fold({ t: 'text', e: message })] : undefined);
  pushIf(out, message, body);
}

/** An element as written (`content`: compiled content that replaces its children). */
function compileBare(el: Element, ctx: OwnerContext, scope: Scope, out: PNode[], pre: number, content?: PNode[]): void {
  if (el.isComponent) {
    ctx.component(el, ctx, scope, out);
    return;
  }
  if (el.name === 'slot' && ctx.slots) {
    const nameAttr = attr(el, 'name');
    const fb: PNode[] = [];
    ctx.nesting.slot = Math.max(ctx.nesting.slot, ctx.nesting.now);
    compileNodes(el.children, ctx, scope, fb, pre, true);
    const values = new Map<string, PExpr>();
    for (const a of el.attrs)
      if (a.form === 'normal' && a.name !== 'name' && !a.name.startsWith('g:'))
        values.set(a.name, attributeExpr(a, ctx, scope));
    out.push({ t: 'slot', n: (nameAttr && literalValue(nameAttr)) ?? '', fb, ...(values.size ? { v: values } : {}) });
    return;
  }
  if (el.name === 'template' && attr(el, 'g:slot')) {
    // Slot content outside a component call has nowhere to go but here.
    compileNodes(el.children, ctx, scope, out, pre);
    return;
  }
  const attrs = compileAttributeList(el, ctx, scope);
  const mark = formMark(el, ctx);
  const n = ctx.nesting;
  n.max = Math.max(n.max, n.now + 1);
  if (VOID_ELEMENTS.has(el.name)) {
    if (mark) out.push({ t: 'el', n: el.name, a: attrs, ...mark });
    else pushStartTag(el.name, attrs, out);
    return;
  }
  // A plain element's content goes straight after its start tag (no list of its own to copy).
  const body: PNode[] = mark ? [] : out;
  if (!mark) pushStartTag(el.name, attrs, out);
  if (content !== undefined) for (const c of content) push(body, c);
  else compileContent(el, ctx, scope, body, pre);
  if (mark) out.push({ t: 'el', n: el.name, a: attrs, b: body, ...mark });
  else push(out, '</' + el.name + '>');
}

function pushStartTag(name: string, attrs: readonly CompiledAttribute[], out: PNode[]): void {
  push(out, '<' + name);
  for (const [, nodes] of attrs) for (const x of nodes) push(out, x);
  push(out, '>');
}

/** The children of a non-void element, one level deeper. */
function compileContent(el: Element, ctx: OwnerContext, scope: Scope, out: PNode[], pre: number): void {
  const n = ctx.nesting;
  n.now++;
  const innerPre = pre + (PRESERVE_SPACE.has(el.name) ? 1 : 0);
  if (RAW_TEXT.has(el.name)) {
    // CSS text is not HTML: copied as written (interpolations are still escaped).
    for (const c of el.children) {
      if (c.type === 'text') push(out, c.value.replace(/<\//g, '<\\/'));
      else if (c.type === 'interp') push(out, fold({ t: 'text', e: convertExpr(c.expr, ctx, scope) }));
    }
  } else {
    compileNodes(el.children, ctx, scope, out, innerPre);
  }
  n.now--;
}
