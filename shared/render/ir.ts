// The template IR: what the build compiles a page (its layouts, components and `g:` lowerings
// included) into, and what the renderer turns into HTML with data — at build time for SPA pages,
// per request in generated apps. Plain JSON data (no classes, no functions, no `undefined` that
// matters), so the app generator can embed it verbatim with `JSON.stringify`.
//
// Shape
// - A `Template` is `{ v: 1, locals, nodes }`. `nodes` is a flat list; adjacent static chunks are
//   merged at compile time, so a page without request data is a single string.
// - A node is either a string — static HTML, already escaped and emitted verbatim — or an object
//   tagged by `t`:
//     `text`  escaped text content (`{name}` in markup);
//     `attr`  the escaped value of a quoted attribute, between static `name="` and `"` chunks;
//     `url`   the whole value of a URL attribute (`href`, `src`, `action`, ...): literal parts are
//             emitted as written (already HTML-safe), value parts percent-encoded and escaped; the
//             result is checked by `isUnsafeUrl` after decoding character references (unsafe →
//             `about:invalid#kit-unsafe-url`);
//     `dattr` an attribute written `name={expr}`: `true` → ` name`, `false`/null/undefined → nothing,
//             anything else → ` name="escaped"` (URL-checked when `url` is set);
//     `if`    `g:if={expr}`: the body renders when the value is truthy (see `isTruthy`);
//     `for`   `g:for={item[, i] in coll}`: the body renders per item with the item (and index or
//             key) stored in the local slots `item` / `index`;
//     `el`    an element kit's forms need to find as it renders (`forms.ts`): a `<form>` that may
//             post to this origin, a control (`input`, `textarea`, `select`, `option`) inside one,
//             an element a `g:target` names by its `id`. Its start tag is kept as a list of
//             attributes, so that the renderer can read them and write them again; without form
//             state it renders exactly as the plain chunks it stands for.
// - Expressions (`Expr`, tagged by `k`) read data without side effects:
//     `lit`   a literal; `data` a dotted path from the render data (the `paths` record at build
//     time, the `Load<PageID>` result per request); `local` a dotted path from a loop variable
//     slot; `param` a route param; `not`, `bin` (`== != && || < <= > >=`); `cat` string
//     concatenation (a component prop written `"Post: {title}"`); `path` a concrete URL path built
//     from route segments and params (the `action` of a `g:post` form on a dynamic page); `seg`
//     the value of `e` written `{x...}`: in a URL path its slashes separate segments.
// - Loop variables live in numbered slots (`locals` is how many a template uses), assigned at
//   compile time, so components inlined into a page can never capture a caller's variable.

export interface Template {
  v: 1;
  /** Number of loop-variable slots the nodes use. */
  locals: number;
  nodes: Node[];
}

export type Node = string | TextNode | AttrNode | UrlNode | DynAttrNode | IfNode | ForNode | ElementNode;

export interface TextNode {
  t: 'text';
  e: Expr;
}
export interface AttrNode {
  t: 'attr';
  e: Expr;
}
/** `parts`: strings are literal, HTML-safe URL text as written; expressions are values. */
export interface UrlNode {
  t: 'url';
  parts: (string | Expr)[];
  srcset?: true;
}
export interface DynAttrNode {
  t: 'dattr';
  n: string;
  e: Expr;
  url?: true;
}
export interface IfNode {
  t: 'if';
  e: Expr;
  b: Node[];
}
/** `item`/`index`: local slots for the current item and its index (arrays) or key (maps, objects). */
export interface ForNode {
  t: 'for';
  e: Expr;
  item: number;
  index?: number;
  b: Node[];
}

/**
 * An element forms need (see the file comment): `<n` + its attributes + `>`, then its content and
 * `</n>` unless it is void. `a` holds each attribute as its name in lower case and the nodes that
 * write it (` name="value"`, ` name`, or a hole that writes one of those or nothing).
 */
export interface ElementNode {
  t: 'el';
  /** The tag name as written. */
  n: string;
  a: [string, Node[]][];
  /** The content; absent for a void element. */
  b?: Node[];
  /** The element's `id`, when a `g:target` names it: a partial answer may be this element alone. */
  id?: string;
}

export type BinaryOp = '==' | '!=' | '&&' | '||' | '<' | '<=' | '>' | '>=';

export type Expr =
  | { k: 'lit'; v: string | number | boolean | null }
  | { k: 'data'; p: string[] }
  | { k: 'local'; i: number; p: string[] }
  | { k: 'param'; n: string }
  | { k: 'not'; e: Expr }
  | { k: 'bin'; op: BinaryOp; l: Expr; r: Expr }
  | { k: 'cat'; parts: Expr[] }
  | { k: 'seg'; e: Expr }
  | { k: 'path'; segs: PathSegment[] };

/** A route segment of a `path` expression: literal text, a param, or a final rest param. */
export type PathSegment = { s: string } | { p: string; rest?: true };

/** The IR version the renderer understands. */
export const IR_VERSION = 1;

/** True when `value` looks like a template this renderer can render (for embedders reading JSON). */
export function isTemplate(value: unknown): value is Template {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Template).v === IR_VERSION &&
    Array.isArray((value as Template).nodes)
  );
}
