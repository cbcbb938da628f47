// Indentation plans for block bodies. A plan answers, per line, how deep the line sits (in 2-space
// steps) or that its leading whitespace must stay as written, and marks the offsets whose whitespace
// is content (inside `<pre>`, `<textarea>`, comments, multi-line attribute values, interpolations,
// CSS strings and comments). Only whitespace that HTML and CSS collapse is ever changed.
import type { Element, MarkupNode } from '#grammar/index.js';

/** Offsets [a, b) whose whitespace is content (`b` is also no place to insert any). */
export interface Frozen {
  a: number;
  b: number;
}

export interface BlockPlan {
  /** Depth per line index (absent: the line keeps its leading whitespace). */
  depth: Map<number, number>;
  /** Lines whose trailing whitespace is content. */
  keepTrailing: Set<number>;
}

/** Elements whose text keeps every whitespace character. */
export const PRESERVE_WHITESPACE: ReadonlySet<string> = new Set(['pre', 'textarea']);

export interface LineTable {
  text: string;
  lineStarts: readonly number[];
}

function lineOf(t: LineTable, offset: number): number {
  let lo = 0;
  let hi = t.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function firstNonSpace(t: LineTable, line: number, end: number): number {
  let i = t.lineStarts[line];
  while (i < end) {
    const c = t.text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 12 && c !== 11 && c !== 0xfeff) break;
    i++;
  }
  return i;
}

/**
 * Markup bodies: a line is as deep as the elements whose content holds its first character; a line
 * that continues an opening tag with an attribute is one deeper than the tag.
 */
export function markupPlan(
  t: LineTable,
  body: MarkupNode[],
  firstLine: number,
  lastLine: number,
  base: number,
  lineEnd: (line: number) => number,
): BlockPlan {
  const depth = new Map<number, number>();
  const frozen: Frozen[] = [];
  const first = new Map<number, number>();
  for (let l = firstLine; l <= lastLine; l++) {
    const o = firstNonSpace(t, l, lineEnd(l));
    first.set(l, o);
    depth.set(l, base);
  }
  const linesIn = (from: number, to: number, visit: (line: number, o: number) => void) => {
    // Lines whose first character lies in [from, to).
    const start = Math.max(firstLine, lineOf(t, from));
    const end = Math.min(lastLine, lineOf(t, Math.max(from, to)));
    for (let l = start; l <= end; l++) {
      const o = first.get(l)!;
      if (o >= from && o < to) visit(l, o);
    }
  };
  const element = (el: Element, d: number) => {
    const attrStarts = new Set(el.attrs.map((a) => a.range.start.offset));
    linesIn(el.openRange.start.offset + 1, el.openRange.end.offset, (l, o) => {
      const rest = t.text.slice(o, o + 2);
      if (attrStarts.has(o)) depth.set(l, d + 1);
      else if (rest === '/>' || rest[0] === '>') depth.set(l, d);
      else depth.delete(l);
    });
    for (const a of el.attrs) {
      if (a.value && a.value.range.start.line !== a.value.range.end.line)
        frozen.push({ a: a.value.range.start.offset, b: a.value.range.end.offset });
    }
    const contentStart = el.openRange.end.offset;
    const closeStart = el.selfClosing ? -1 : t.text.lastIndexOf('</', el.range.end.offset - 1);
    if (closeStart < contentStart) {
      nodes(el.children, d + 1);
      return;
    }
    if (PRESERVE_WHITESPACE.has(el.name)) {
      frozen.push({ a: contentStart, b: closeStart });
      return;
    }
    linesIn(contentStart, closeStart, (l) => depth.set(l, d + 1));
    nodes(el.children, d + 1);
  };
  const nodes = (list: MarkupNode[], d: number) => {
    for (const n of list) {
      if (n.type === 'element') element(n, d);
      else if ((n.type === 'interp' || n.type === 'comment') && n.range.start.line !== n.range.end.line) {
        frozen.push({ a: n.range.start.offset, b: n.range.end.offset });
      }
    }
  };
  nodes(body, base);
  const plan = { depth, keepTrailing: new Set<number>() };
  applyFrozen(t, frozen, plan, firstLine, lastLine, lineEnd);
  return plan;
}

/** CSS bodies: depth by braces, skipping strings and comments; lines starting inside either stay. */
export function cssPlan(
  t: LineTable,
  from: number,
  to: number,
  firstLine: number,
  lastLine: number,
  base: number,
  lineEnd: (line: number) => number,
): BlockPlan {
  const depth = new Map<number, number>();
  const frozen: Frozen[] = [];
  const text = t.text;
  let level = 0;
  let quote = 0;
  let open = -1;
  let commentAt = -1;
  let line = firstLine;
  for (let i = from; i < to; i++) {
    if (line <= lastLine && i === t.lineStarts[line]) {
      if (quote === 0 && commentAt < 0) {
        const o = firstNonSpace(t, line, lineEnd(line));
        depth.set(line, base + Math.max(0, text.charCodeAt(o) === 125 ? level - 1 : level));
      }
      line++;
    }
    const c = text.charCodeAt(i);
    if (commentAt >= 0) {
      if (c === 42 && text.charCodeAt(i + 1) === 47) {
        frozen.push({ a: commentAt, b: i + 2 });
        commentAt = -1;
        i++;
      }
      continue;
    }
    if (quote !== 0) {
      if (c === 92) i++;
      else if (c === quote) {
        frozen.push({ a: open, b: i + 1 });
        quote = 0;
      }
      continue;
    }
    if (c === 34 || c === 39) {
      quote = c;
      open = i;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      commentAt = i;
      i++;
    } else if (c === 123) level++;
    else if (c === 125) level = Math.max(0, level - 1);
  }
  if (commentAt >= 0) frozen.push({ a: commentAt, b: to });
  if (quote !== 0) frozen.push({ a: open, b: to });
  const plan = { depth, keepTrailing: new Set<number>() };
  applyFrozen(t, frozen, plan, firstLine, lastLine, lineEnd);
  return plan;
}

/** Does changing the whitespace [from, to) (or inserting at `from`) touch a frozen interval [a, b)? */
function touchesFrozen(f: Frozen, from: number, to: number): boolean {
  return (from < f.b && to > f.a) || (f.a < from && from <= f.b);
}

function applyFrozen(
  t: LineTable,
  frozen: Frozen[],
  plan: { depth: Map<number, number>; keepTrailing: Set<number> },
  firstLine: number,
  lastLine: number,
  lineEnd: (line: number) => number,
): void {
  for (const f of frozen) {
    const s = Math.max(firstLine, lineOf(t, f.a));
    const e = Math.min(lastLine, lineOf(t, f.b));
    for (let l = s; l <= e; l++) {
      const end = lineEnd(l);
      const o = firstNonSpace(t, l, end);
      if (touchesFrozen(f, t.lineStarts[l], o)) plan.depth.delete(l);
      let te = end;
      while (te > o && /\s/.test(t.text[te - 1])) te--;
      if (te < end && touchesFrozen(f, te, end)) plan.keepTrailing.add(l);
    }
  }
}
