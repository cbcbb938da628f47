// The markup under a position: the markup block that holds it and the elements that contain it,
// outermost first, down to the innermost node. Highlights, linked editing, selection ranges and
// signature help read a view through it, the way `locate.ts` finds the declaration first.
import type { Element, Expr, FragmentDecl, MarkupNode, Range, ViewBlock } from '#grammar/index.js';
import type { KitEntry } from '#core/model/entries.js';
import { contains } from '../convert.js';
import { declarationAt } from './locate.js';

export interface MarkupPath {
  block: ViewBlock | FragmentDecl;
  /** The elements holding the position, outermost first. */
  elements: Element[];
  /** The innermost node holding the position when it is not an element (a text, an interpolation). */
  leaf?: Exclude<MarkupNode, Element>;
}

/**
 * The node of `nodes` holding `offset`: one whose range holds it before its end, else one that
 * ends there (a cursor right after `</p>` is still on the `p`).
 */
function nodeAt(nodes: readonly MarkupNode[], offset: number): MarkupNode | undefined {
  let ending: MarkupNode | undefined;
  for (const n of nodes) {
    if (n.range.start.offset > offset) break;
    if (offset < n.range.end.offset) return n;
    if (offset === n.range.end.offset) ending = n;
  }
  return ending;
}

/** The markup block (a view or a fragment body) holding `offset`, and the nodes down to it. */
export function markupPathAt(entry: KitEntry, offset: number): MarkupPath | undefined {
  const d = declarationAt(entry, offset);
  if (!d || (d.kind !== 'view' && d.kind !== 'fragment')) return undefined;
  if (!contains(d.bodyRange, offset)) return undefined;
  const path: MarkupPath = { block: d, elements: [] };
  let nodes: readonly MarkupNode[] = d.body;
  for (;;) {
    const n = nodeAt(nodes, offset);
    if (!n) return path;
    if (n.type !== 'element') {
      path.leaf = n;
      return path;
    }
    path.elements.push(n);
    nodes = n.children;
  }
}

/** Is the opening tag of `el` ended by its own `>` (or `/>`)? An unfinished one runs on into what follows. */
export function openTagClosed(text: string, el: Element): boolean {
  return text.charCodeAt(el.openRange.end.offset - 1) === 0x3e; // '>'
}

/** Whether `offset` is inside the opening tag of `el`, past its name (where attributes go). */
export function inAttributes(text: string, el: Element, offset: number): boolean {
  if (offset <= el.nameRange.end.offset || offset < el.openRange.start.offset) return false;
  // Before the `>` (or `/>`) that ends the tag; an unfinished tag reaches as far as the parser read it.
  if (!openTagClosed(text, el)) return offset <= el.openRange.end.offset;
  const end = el.openRange.end.offset - (el.selfClosing ? 2 : 1);
  return offset <= end;
}

/** An expression, or the item or index name a `g:for` loop declares. */
export type ExprPart = Expr | { type: 'word'; range: Range };

/** The expressions of `e` that hold `offset`, outermost first (a path inside `!a`, a loop's item). */
export function exprsAt(e: Expr, offset: number, out: ExprPart[] = []): ExprPart[] {
  if (!contains(e.range, offset)) return out;
  out.push(e);
  switch (e.type) {
    case 'not':
      exprsAt(e.expr, offset, out);
      break;
    case 'binary':
      if (contains(e.left.range, offset)) exprsAt(e.left, offset, out);
      else exprsAt(e.right, offset, out);
      break;
    case 'for':
      if (contains(e.item.range, offset)) out.push({ type: 'word', range: e.item.range });
      else if (e.index && contains(e.index.range, offset)) out.push({ type: 'word', range: e.index.range });
      else exprsAt(e.collection, offset, out);
      break;
    default:
      break;
  }
  return out;
}
