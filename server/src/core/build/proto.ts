// The compile-time form of the template IR. A component or layout is compiled once into proto
// nodes that may still hold `prop` expressions (the component's props) and `slot` nodes (where the
// caller's content goes). Instantiating it at a call site substitutes both, shifts the component's
// loop slots past the caller's, and folds what became constant, so a page ends up as plain IR:
// mostly static chunks. Slot content compiled in the caller's scope may hold `let` expressions (the
// values a scoped `<slot>` passes): they are replaced where the content lands, by the values that
// `<slot>` passes, in the component's scope.
import type { BinaryOp, Expr, Node, PathSegment, Template } from '#shared/render/index.js';
import { escapeHtml, renderStaticUrl, renderTemplate, toText } from '#shared/render/index.js';

export type PExpr =
  | { k: 'lit'; v: string | number | boolean | null }
  | { k: 'data'; p: string[] }
  | { k: 'local'; i: number; p: string[] }
  | { k: 'param'; n: string }
  | { k: 'path'; segs: PathSegment[] }
  | { k: 'not'; e: PExpr }
  | { k: 'bin'; op: BinaryOp; l: PExpr; r: PExpr }
  | { k: 'cat'; parts: PExpr[] }
  | { k: 'seg'; e: PExpr }
  /** A prop of the component being compiled, with an optional field path (`{item.title}`). */
  | { k: 'prop'; n: string; p: string[] }
  /** A name bound by `let:` in slot content (`id` is unique per binding), with an optional field path. */
  | { k: 'let'; id: number; p: string[] };

export type PNode =
  | string
  | { t: 'text' | 'attr'; e: PExpr }
  | { t: 'url'; parts: (string | PExpr)[]; srcset?: true }
  | { t: 'dattr'; n: string; e: PExpr; url?: true }
  | { t: 'if'; e: PExpr; b: PNode[] }
  | { t: 'for'; e: PExpr; item: number; index?: number; b: PNode[] }
  /** An element forms need (`forms.ts`); `raw`: one whose content browsers read as text. */
  | { t: 'el'; n: string; a: [string, PNode[]][]; b?: PNode[]; id?: string; raw?: true }
  /**
   * Where a caller's slot content goes (`n` is '' for the default slot); `fb` is the fallback, `v`
   * the values the slot passes to the content (`<slot name="row" value={item} />`), by name.
   */
  | { t: 'slot'; n: string; fb: PNode[]; v?: ReadonlyMap<string, PExpr> };

/** A caller's content for one slot, and the binding ids of the slot values it takes (`let:` name → id). */
export interface SlotContent {
  nodes: PNode[];
  lets?: ReadonlyMap<string, number>;
}

export interface Substitution {
  /** The part's props; absent: prop expressions stay as they are. */
  props?: ReadonlyMap<string, PExpr>;
  /** Caller content per slot name, absent names render the fallback; absent: slot nodes stay. */
  slots?: ReadonlyMap<string, SlotContent>;
  /** Added to the instantiated part's own loop slots. */
  base: number;
  /** Values of `let` bindings by id; other bindings stay. */
  lets?: ReadonlyMap<number, PExpr>;
}

const NULL: PExpr = { k: 'lit', v: null };

/** A value with a field path appended (`{item.title}` where `item` stands for `v`). */
function withPath(v: PExpr, p: readonly string[]): PExpr {
  if (p.length === 0) return v;
  if (v.k === 'data' || v.k === 'local' || v.k === 'prop' || v.k === 'let') return { ...v, p: [...v.p, ...p] };
  return NULL;
}

function substExpr(e: PExpr, s: Substitution): PExpr {
  switch (e.k) {
    case 'prop':
      return s.props ? withPath(s.props.get(e.n) ?? NULL, e.p) : e;
    case 'let': {
      const v = s.lets?.get(e.id);
      return v ? withPath(v, e.p) : e;
    }
    case 'local':
      return s.base === 0 ? e : { k: 'local', i: e.i + s.base, p: e.p };
    case 'not':
      return { k: 'not', e: substExpr(e.e, s) };
    case 'bin':
      return { k: 'bin', op: e.op, l: substExpr(e.l, s), r: substExpr(e.r, s) };
    case 'cat':
      return { k: 'cat', parts: e.parts.map((p) => substExpr(p, s)) };
    case 'seg':
      return { k: 'seg', e: substExpr(e.e, s) };
    default:
      return e;
  }
}

/** Instantiates proto nodes: props and slots substituted, own loop slots shifted, constants folded. */
export function substitute(nodes: readonly PNode[], s: Substitution): PNode[] {
  const out: PNode[] = [];
  for (const n of nodes) {
    if (typeof n === 'string') {
      push(out, n);
      continue;
    }
    switch (n.t) {
      case 'slot': {
        if (!s.slots) {
          const v = n.v && new Map([...n.v].map(([name, e]) => [name, substExpr(e, s)]));
          out.push({ t: 'slot', n: n.n, fb: substitute(n.fb, s), ...(v ? { v } : {}) });
          break;
        }
        const given = s.slots.get(n.n);
        if (given) for (const g of placeContent(given, n.v, s)) push(out, g);
        else for (const g of substitute(n.fb, s)) push(out, g);
        break;
      }
      case 'text':
      case 'attr':
        push(out, fold({ t: n.t, e: substExpr(n.e, s) }));
        break;
      case 'url':
        push(
          out,
          fold({
            t: 'url',
            parts: n.parts.map((p) => (typeof p === 'string' ? p : substExpr(p, s))),
            ...(n.srcset ? { srcset: true as const } : {}),
          }),
        );
        break;
      case 'dattr':
        push(out, fold({ t: 'dattr', n: n.n, e: substExpr(n.e, s), ...(n.url ? { url: true as const } : {}) }));
        break;
      case 'if': {
        const e = substExpr(n.e, s);
        const b = substitute(n.b, s);
        pushIf(out, e, b);
        break;
      }
      case 'for': {
        out.push({
          t: 'for',
          e: substExpr(n.e, s),
          item: n.item + s.base,
          ...(n.index !== undefined ? { index: n.index + s.base } : {}),
          b: substitute(n.b, s),
        });
        break;
      }
      case 'el':
        out.push({
          ...n,
          a: n.a.map(([name, nodes]) => [name, substitute(nodes, s)]),
          ...(n.b !== undefined ? { b: substitute(n.b, s) } : {}),
        });
        break;
    }
  }
  return out;
}

/**
 * Caller content for a slot. It is already compiled in the caller's scope, so it is inserted as it is,
 * unless it takes slot values: then its `let` bindings become the values this slot passes, read in
 * the component's scope (its props and loop slots as substituted here); a value the slot does not
 * pass is null.
 */
function placeContent(given: SlotContent, values: ReadonlyMap<string, PExpr> | undefined, s: Substitution): PNode[] {
  if (!given.lets?.size) return given.nodes;
  const lets = new Map<number, PExpr>();
  for (const [name, id] of given.lets) {
    const v = values?.get(name);
    lets.set(id, v ? substExpr(v, s) : NULL);
  }
  return substitute(given.nodes, { base: 0, lets });
}

/** Appends a node, merging adjacent static chunks. */
export function push(out: PNode[], n: PNode): void {
  if (typeof n === 'string') {
    if (n === '') return;
    const last = out.length - 1;
    if (last >= 0 && typeof out[last] === 'string') {
      out[last] = (out[last] as string) + n;
      return;
    }
  }
  out.push(n);
}

/** Appends a `g:if`, or its body directly (or nothing) when the condition is a constant. */
export function pushIf(out: PNode[], e: PExpr, body: PNode[]): void {
  if (isConstant(e)) {
    if (renderTemplate({ v: 1, locals: 0, nodes: [{ t: 'if', e: e as Expr, b: ['1'] }] }) === '1')
      for (const b of body) push(out, b);
    return;
  }
  out.push({ t: 'if', e, b: body });
}

function isConstant(e: PExpr): boolean {
  switch (e.k) {
    case 'lit':
      return true;
    case 'not':
      return isConstant(e.e);
    case 'bin':
      return isConstant(e.l) && isConstant(e.r);
    case 'cat':
      return e.parts.every(isConstant);
    case 'seg':
      return isConstant(e.e);
    default:
      return false;
  }
}

/** A hole whose expressions are all constant is rendered now, with the renderer itself. */
export function fold(n: PNode): PNode {
  if (typeof n === 'string') return n;
  // The most common hole by far (a literal prop value in a component's text or attribute), spelt
  // as the renderer spells a text or attribute hole: without compiling a one-node template.
  if ((n.t === 'text' || n.t === 'attr') && n.e.k === 'lit') return escapeHtml(toText(n.e.v));
  // The next most common: a literal link (`<a href="/docs">`), checked as the renderer checks it.
  if (n.t === 'url' && n.parts.every((p) => typeof p === 'string'))
    return renderStaticUrl((n.parts as string[]).join(''), n.srcset === true);
  let constant = false;
  if (n.t === 'text' || n.t === 'attr' || n.t === 'dattr') constant = isConstant(n.e);
  else if (n.t === 'url') constant = n.parts.every((p) => typeof p === 'string' || isConstant(p));
  return constant ? renderTemplate({ v: 1, locals: 0, nodes: [n as Node] }) : n;
}

function finalExpr(e: PExpr, where: string): Expr {
  switch (e.k) {
    case 'prop':
      throw new Error(`internal: unresolved prop ${e.n} in ${where}`);
    case 'let':
      throw new Error(`internal: unresolved slot value in ${where}`);
    case 'not':
      return { k: 'not', e: finalExpr(e.e, where) };
    case 'bin':
      return { k: 'bin', op: e.op, l: finalExpr(e.l, where), r: finalExpr(e.r, where) };
    case 'cat':
      return { k: 'cat', parts: e.parts.map((p) => finalExpr(p, where)) };
    case 'seg':
      return { k: 'seg', e: finalExpr(e.e, where) };
    default:
      return e;
  }
}

/**
 * The string with its characters in one piece. `push` joins a template's static chunks with `+`,
 * which makes a rope: a tree of every piece joined, layouts' and components' included, that a
 * compiled page would keep (a fifth of a 4,000-page build's heap) and the renderer would walk at
 * every render. A slice of a rope is cut from a flat copy of it (made once, here), and the pieces
 * are garbage; the space before it makes sure the slice is not the rope itself.
 */
export function flat(s: string): string {
  return (' ' + s).slice(1);
}

function finalNodes(nodes: readonly PNode[], where: string): Node[] {
  const out: Node[] = [];
  for (const n of nodes) {
    if (typeof n === 'string') {
      out.push(flat(n));
      continue;
    }
    switch (n.t) {
      case 'slot':
        throw new Error(`internal: unfilled slot in ${where}`);
      case 'text':
      case 'attr':
        out.push({ t: n.t, e: finalExpr(n.e, where) });
        break;
      case 'url':
        out.push({
          t: 'url',
          parts: n.parts.map((p) => (typeof p === 'string' ? p : finalExpr(p, where))),
          ...(n.srcset ? { srcset: true as const } : {}),
        });
        break;
      case 'dattr':
        out.push({ t: 'dattr', n: n.n, e: finalExpr(n.e, where), ...(n.url ? { url: true as const } : {}) });
        break;
      case 'if':
        out.push({ t: 'if', e: finalExpr(n.e, where), b: finalNodes(n.b, where) });
        break;
      case 'for':
        out.push({
          t: 'for',
          e: finalExpr(n.e, where),
          item: n.item,
          ...(n.index !== undefined ? { index: n.index } : {}),
          b: finalNodes(n.b, where),
        });
        break;
      case 'el':
        out.push({
          t: 'el',
          n: n.n,
          a: n.a.map(([name, nodes]) => [name, finalNodes(nodes, where)]),
          ...(n.b !== undefined ? { b: finalNodes(n.b, where) } : {}),
          ...(n.id !== undefined ? { id: n.id } : {}),
        });
        break;
    }
  }
  return out;
}

/**
 * The finished template of a page or fragment: no props or slots may remain (`forms.ts`
 * `finishTemplate` decides first which elements stay `el` nodes).
 */
export function toTemplate(nodes: readonly PNode[], locals: number, where: string): Template {
  return { v: 1, locals, nodes: finalNodes(nodes, where) };
}
