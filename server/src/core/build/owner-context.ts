// What the markup of one owner (page, layout, component or fragment body) is compiled against, and
// the expressions it holds turned into proto expressions: shared by the node compiler (`markup.ts`)
// and the attribute compiler (`markup-attributes.ts`), and by the site compiler, which instantiates
// components with it.
import type { Attribute, Element, Expr } from '#grammar/index.js';
import type { ParsedRoute } from '#shared/route/index.js';
import { decodeEntities } from '#shared/render/index.js';
import type { FileSummary } from '../model/summary.js';
import type { PExpr, PNode } from './proto.js';

/** What the markup of one owner is compiled against. */
export interface OwnerContext {
  summary: FileSummary;
  /** Scope class added to every element the owner writes (owners with a `style {}` block). */
  scopeClass?: string;
  /** Prop names, when compiling a component. */
  props?: ReadonlySet<string>;
  /** Whether `<slot>` elements are slot placeholders (components and layouts). */
  slots: boolean;
  /** The route `g:post`/`g:command` forms post to when no path is declared. */
  route?: ParsedRoute;
  /**
   * The owner's declared files (`asset`, `wasm`) by the path as written (`./logo.png`, `logo.png`):
   * a URL attribute naming one exactly is rewritten to its content-hashed URL.
   */
  assetUrls?: ReadonlyMap<string, string>;
  /** Loop slots allocated so far in the template being built. */
  locals: { n: number };
  /** Facts gathered while compiling, merged up through component instantiation. */
  facts: Facts;
  /** How deep the elements being compiled nest (see `Nesting`). */
  nesting: Nesting;
  /** Instantiates a component call in the caller's context (provided by the site compiler). */
  component(call: Element, ctx: OwnerContext, scope: Scope, out: PNode[]): void;
}

export interface Facts {
  /** A literal internal link or a partial/command form: the page needs kit.js. */
  kitJs: boolean;
  /** Component keys (`pkg.Name`) instantiated, transitively, in first-use order. */
  components: string[];
}

/**
 * Element depths in the markup an owner renders, components' content included: `now` is the depth
 * of the element being compiled (0 at the owner's top level), `max` the deepest element so far,
 * `slot` the deepest element a `<slot>` stands in (-1 without one), `cut` whether a component call
 * inside was left out for crossing the limit. The site compiler uses them to keep a rendered page
 * within `MAX_MARKUP_DEPTH` when components and layouts stack up.
 */
export interface Nesting {
  now: number;
  max: number;
  slot: number;
  cut: boolean;
}

export function freshNesting(): Nesting {
  return { now: 0, max: 0, slot: -1, cut: false };
}

/** What a name in scope stands for: a loop variable (a local slot) or a slot value bound by `let:`. */
export type BoundName = Extract<PExpr, { k: 'local' } | { k: 'let' }>;

/** Names in scope. */
export type Scope = ReadonlyMap<string, BoundName>;

/** Expression of the markup language → proto expression, resolved in `scope` and the owner's props. */
export function convertExpr(e: Expr, ctx: OwnerContext, scope: Scope): PExpr {
  switch (e.type) {
    case 'literal':
      return { k: 'lit', v: e.value };
    case 'param':
      return { k: 'param', n: e.name.value };
    case 'not':
      return { k: 'not', e: convertExpr(e.expr, ctx, scope) };
    case 'binary':
      return { k: 'bin', op: e.op, l: convertExpr(e.left, ctx, scope), r: convertExpr(e.right, ctx, scope) };
    case 'path': {
      const [head, ...rest] = e.path;
      const bound = scope.get(head);
      const value: PExpr =
        bound !== undefined
          ? { ...bound, p: rest }
          : ctx.props?.has(head)
            ? { k: 'prop', n: head, p: rest }
            : { k: 'data', p: e.path };
      return e.segments ? { k: 'seg', e: value } : value;
    }
    default:
      return { k: 'lit', v: null };
  }
}

function coerce(text: string, type: string): string | number | boolean {
  if (type === 'bool') return !/^(false|0|no|off)$/i.test(text.trim());
  if (type === 'int' && /^[-+]?\d+$/.test(text.trim())) return Number(text);
  if (type === 'float' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

/**
 * The value an attribute passes to a component: a prop (its text coerced to the prop's `type`) or,
 * without a type, a slot value (a bare attribute is true, text stays text).
 */
export function attributeExpr(a: Attribute, ctx: OwnerContext, scope: Scope, type?: string): PExpr {
  if (!a.value) return { k: 'lit', v: type === undefined || type === 'bool' ? true : '' };
  if (a.value.type === 'expr') return convertExpr(a.value.expr, ctx, scope);
  const parts = a.value.parts;
  if (parts.every((x) => x.type === 'text'))
    return {
      k: 'lit',
      v: coerce(decodeEntities(parts.map((x) => (x.type === 'text' ? x.value : '')).join('')), type ?? ''),
    };
  if (parts.length === 1 && parts[0].type === 'interp') return convertExpr(parts[0].expr, ctx, scope);
  return {
    k: 'cat',
    parts: parts.map(
      (x): PExpr => (x.type === 'text' ? { k: 'lit', v: decodeEntities(x.value) } : convertExpr(x.expr, ctx, scope)),
    ),
  };
}

/** The attribute of `el` named `name`, if any. */
export function attr(el: Element, name: string): Attribute | undefined {
  return el.attrs.find((a) => a.name === name);
}

/** The literal text of an attribute, when it has no interpolation. */
export function literalValue(a: Attribute): string | undefined {
  if (!a.value) return undefined;
  if (a.value.type !== 'string') return undefined;
  let s = '';
  for (const p of a.value.parts) {
    if (p.type !== 'text') return undefined;
    s += p.value;
  }
  return s;
}
