// Walks over the markup of a view, and folds over it remembered per element (`MarkupMemo`): what
// the summary and the view rules collect from a body, recomputed after an edit for the elements
// the edit touched only.
import type { Element, MarkupNode } from '#grammar/index.js';

/** Visits every element of `nodes`, parents before children, in document order. */
export function walkElements(nodes: MarkupNode[], visit: (el: Element) => void): void {
  for (const n of nodes) {
    if (n.type !== 'element') continue;
    visit(n);
    walkElements(n.children, visit);
  }
}

// ---- Markup folds, memoised per element ---------------------------------------------------------
//
// Walks over a long view make every edit cost the whole view. A fold collects, in document order,
// what one element contributes by itself (`element`) and what the non-element nodes contribute
// (`node`); in a large body each element's result, its subtree included, is remembered by element
// identity. That is sound because an element object never changes after parsing except for its
// positions, which the incremental parser shifts in place (ancestors of a re-parsed element are
// copied, not mutated: grammar/src/markup/markup-reuse.ts): results that point at the element's own range
// objects move with it. Anything else a contribution depends on goes into the memo's context key.

/** A remembered subtree: its contributions are `items`, then those of `kids`, in that order. */
class Fold<T> {
  /** How many contributions the subtree has in all. */
  readonly size: number;

  constructor(
    readonly items: readonly T[],
    readonly kids: readonly Fold<T>[],
  ) {
    let size = items.length;
    for (const k of kids) size += k.size;
    this.size = size;
  }
}

export interface MarkupVisitor<T> {
  /** What the element contributes by itself (its attributes, its name), children excluded. */
  element(el: Element, out: T[]): void;
  /** What a text, interpolation or comment node contributes. */
  node?(n: Exclude<MarkupNode, Element>, out: T[]): void;
}

/** Bodies shorter than this (in characters) are walked afresh: cheap, and they leave no memo behind. */
export const MEMO_MIN_BODY_CHARS = 16 * 1024;

/** Contexts kept per memo; an edit that changes a context's key starts a new one. */
const MEMO_CONTEXTS = 8;

/**
 * Subtrees with at most this many contributions keep them in one flat list: emitting a long body
 * then visits a few folds per top-level element instead of one per element.
 */
const FLAT_FOLD = 32;

/**
 * Long child lists are remembered in runs of this many nodes too, keyed by the run's first node:
 * the element enclosing an edit is new each time, and looking its thousands of children up one
 * by one would cost more than the rest of the walk. A run is reused while it holds the same nodes.
 */
const RUN = 64;
/** Runs with at most this many contributions are kept flat. */
const FLAT_RUN = 256;

interface Run<T> {
  nodes: MarkupNode[];
  fold: Fold<T>;
}

interface MemoTable<T> {
  elements: WeakMap<Element, Fold<T>>;
  runs: WeakMap<MarkupNode, Run<T>>;
}

export class MarkupMemo<T> {
  private readonly tables = new Map<string, MemoTable<T>>();
  private readonly empty = new Fold<T>([], []);

  /**
   * Every contribution of `body` in document order: each element's own before its children's.
   * `context` must name everything besides the element that `visitor` reads (file, names in
   * scope, ...): results are reused only under the same context, whichever visitor made them. A
   * function is called only for a body long enough to be remembered (most bodies are not).
   */
  collect(body: MarkupNode[], context: string | (() => string), visitor: MarkupVisitor<T>): T[] {
    const out: T[] = [];
    const table =
      body.length && body[body.length - 1].range.end.offset - body[0].range.start.offset >= MEMO_MIN_BODY_CHARS
        ? this.table(typeof context === 'string' ? context : context())
        : undefined;
    if (!table) this.flat(body, visitor, out);
    else for (const f of this.nodes(body, visitor, table)) this.emit(f, out);
    return out;
  }

  private table(context: string): MemoTable<T> {
    let t = this.tables.get(context);
    if (t) this.tables.delete(context);
    else {
      t = { elements: new WeakMap(), runs: new WeakMap() };
      if (this.tables.size >= MEMO_CONTEXTS) this.tables.delete(this.tables.keys().next().value!);
    }
    this.tables.set(context, t);
    return t;
  }

  private flat(nodes: MarkupNode[], visitor: MarkupVisitor<T>, out: T[]): void {
    for (const n of nodes) {
      if (n.type === 'element') {
        visitor.element(n, out);
        this.flat(n.children, visitor, out);
      } else visitor.node?.(n, out);
    }
  }

  /** The non-empty folds of `nodes`, in order. */
  private nodes(nodes: MarkupNode[], visitor: MarkupVisitor<T>, table: MemoTable<T>): Fold<T>[] {
    if (nodes.length <= RUN) return this.span(nodes, 0, nodes.length, visitor, table);
    const kids: Fold<T>[] = [];
    for (let i = 0; i < nodes.length; i += RUN) {
      const end = Math.min(nodes.length, i + RUN);
      let run = table.runs.get(nodes[i]);
      if (!run || !sameNodes(run.nodes, nodes, i, end)) {
        run = { nodes: nodes.slice(i, end), fold: this.fold([], this.span(nodes, i, end, visitor, table), FLAT_RUN) };
        table.runs.set(nodes[i], run);
      }
      if (run.fold !== this.empty) kids.push(run.fold);
    }
    return kids;
  }

  /** The non-empty folds of `nodes[from, to)`; what the other nodes between them contribute as folds of their own. */
  private span(
    nodes: MarkupNode[],
    from: number,
    to: number,
    visitor: MarkupVisitor<T>,
    table: MemoTable<T>,
  ): Fold<T>[] {
    const kids: Fold<T>[] = [];
    let loose: T[] = [];
    for (let i = from; i < to; i++) {
      const n = nodes[i];
      if (n.type === 'element') {
        const f = this.element(n, visitor, table);
        if (f === this.empty) continue;
        if (loose.length) {
          kids.push(new Fold(loose, []));
          loose = [];
        }
        kids.push(f);
      } else visitor.node?.(n, loose);
    }
    if (loose.length) kids.push(new Fold(loose, []));
    return kids;
  }

  private element(el: Element, visitor: MarkupVisitor<T>, table: MemoTable<T>): Fold<T> {
    const hit = table.elements.get(el);
    if (hit) return hit;
    const items: T[] = [];
    visitor.element(el, items);
    const f = this.fold(items, this.nodes(el.children, visitor, table), FLAT_FOLD);
    table.elements.set(el, f);
    return f;
  }

  /** `items` then `kids` as one fold, flattened when it holds at most `flatMax` contributions. */
  private fold(items: T[], kids: Fold<T>[], flatMax: number): Fold<T> {
    if (kids.length && items.length + kids.reduce((n, k) => n + k.size, 0) <= flatMax) {
      for (const k of kids) this.emit(k, items);
      kids = [];
    }
    return items.length || kids.length ? new Fold(items, kids) : this.empty;
  }

  private emit(f: Fold<T>, out: T[]): void {
    const items = f.items;
    for (let i = 0; i < items.length; i++) out.push(items[i]);
    const kids = f.kids;
    for (let i = 0; i < kids.length; i++) this.emit(kids[i], out);
  }
}

function sameNodes(run: MarkupNode[], nodes: MarkupNode[], from: number, to: number): boolean {
  if (run.length !== to - from) return false;
  for (let i = from; i < to; i++) if (run[i - from] !== nodes[i]) return false;
  return true;
}
