// Selection ranges ("expand selection"): from what is under the cursor outwards. In markup: the
// expression, the attribute value, the attribute, the opening tag, the element, each enclosing
// element, the block's body, the declaration, the file. Outside markup: the word or string part
// (a route param inside its pattern), its line in a block (a prop, a `paths {}` record and field),
// the declaration, the file. Each range holds the one before it; equal ranges are given once.
import type { Position, SelectionRange } from 'vscode-languageserver';
import type { Declaration, Element, Range, StringLit } from '#grammar/index.js';
import { parseRoutePattern } from '#shared/route/index.js';
import type { KitEntry } from '#core/model/entries.js';
import { stringSpanRange } from '#core/model/ranges.js';
import { contains, offsetOf, rangeOfOffsets } from '../convert.js';
import type { FeatureContext } from './context.js';
import { declarationAt } from './locate.js';
import { exprsAt, markupPathAt } from './markup-path.js';

type Span = [start: number, end: number];

const span = (r: Range): Span => [r.start.offset, r.end.offset];

/** A string literal, its text without the quotes, and the route segment or param under the cursor. */
function stringSpans(entry: KitEntry, lit: StringLit, offset: number, route: boolean, out: Span[]): void {
  if (!contains(lit.range, offset)) return;
  out.push(span(lit.range));
  const inner = stringSpanRange(entry.ast, lit, { start: 0, end: lit.value.length });
  out.push(span(inner));
  if (!route) return;
  for (const seg of parseRoutePattern(lit.value).segments) {
    const r = stringSpanRange(entry.ast, lit, seg.span);
    if (!contains(r, offset)) continue;
    out.push(span(r));
    if (seg.kind !== 'static') out.push(span(stringSpanRange(entry.ast, lit, seg.nameSpan)));
    return;
  }
}

/** The parts of a declaration line or block that hold the cursor, outermost first. */
function declarationSpans(entry: KitEntry, d: Declaration, offset: number, out: Span[]): void {
  const word = (r: Range | undefined) => {
    if (r && contains(r, offset)) out.push(span(r));
  };
  switch (d.kind) {
    case 'route':
      stringSpans(entry, d.path, offset, true, out);
      return;
    case 'act':
    case 'api':
    case 'fragment':
      word(d.kind === 'fragment' ? d.name.range : d.symbol.range);
      word(d.method.range);
      if (d.path) stringSpans(entry, d.path, offset, true, out);
      if (d.kind === 'fragment') stringSpans(entry, d.target, offset, false, out);
      else if (d.error) stringSpans(entry, d.error, offset, false, out);
      return;
    case 'guard':
      for (const g of d.guards) word(g.range);
      return;
    case 'layout':
      for (const l of d.layouts) word(l.range);
      return;
    case 'page':
      word(d.id.range);
      return;
    case 'component':
      word(d.name.range);
      return;
    case 'package':
      word(d.name.range);
      return;
    case 'use':
      word(d.alias.range);
      stringSpans(entry, d.pkg, offset, false, out);
      return;
    case 'cache':
    case 'meta':
      stringSpans(entry, d.value, offset, false, out);
      return;
    case 'revalidate':
    case 'render':
      word(d.kind === 'render' ? d.mode.range : d.value.range);
      return;
    case 'props':
      for (const p of d.props) {
        if (!contains(p.range, offset)) continue;
        out.push(span(p.range));
        word(p.name.range);
        word(p.type.range);
        word(p.default?.range);
      }
      return;
    case 'paths':
      for (const r of d.records) {
        if (!contains(r.range, offset)) continue;
        out.push(span(r.range));
        for (const f of r.fields) {
          if (!contains(f.range, offset)) continue;
          out.push(span(f.range));
          word(f.name.range);
          if ('kind' in f.value) word(f.value.range);
          else stringSpans(entry, f.value, offset, false, out);
        }
      }
      return;
    case 'server':
      for (const f of d.fields) word(f.range);
      return;
    case 'style':
      word(d.cssRange);
      return;
    default:
      return;
  }
}

/** An element's opening tag and what in it holds the cursor. */
function openTagSpans(el: Element, offset: number, out: Span[]): void {
  out.push(span(el.openRange));
  if (contains(el.nameRange, offset)) {
    out.push(span(el.nameRange));
    return;
  }
  for (const a of el.attrs) {
    if (!contains(a.range, offset)) continue;
    out.push(span(a.range));
    if (contains(a.nameRange, offset)) out.push(span(a.nameRange));
    const v = a.value;
    if (!v || !contains(v.range, offset)) return;
    out.push(span(v.range));
    if (v.type === 'expr') {
      for (const e of exprsAt(v.expr, offset)) out.push(span(e.range));
      return;
    }
    out.push(span(v.innerRange));
    for (const p of v.parts) {
      if (!contains(p.range, offset)) continue;
      out.push(span(p.range));
      if (p.type === 'interp') for (const e of exprsAt(p.expr, offset)) out.push(span(e.range));
    }
    return;
  }
}

/** The nested spans holding `offset`, outermost first (not yet checked for nesting). */
function spansAt(entry: KitEntry, offset: number): Span[] {
  const out: Span[] = [[0, entry.ast.length]];
  const d = declarationAt(entry, offset);
  if (!d) {
    for (const c of entry.ast.comments) if (contains(c.range, offset)) out.push(span(c.range));
    return out;
  }
  out.push([Math.min(d.keyword.start.offset, d.range.start.offset), d.range.end.offset]);
  const markup = markupPathAt(entry, offset);
  if (!markup) {
    declarationSpans(entry, d, offset, out);
    return out;
  }
  if (offset > markup.block.bodyRange.start.offset) out.push(span(markup.block.bodyRange));
  else declarationSpans(entry, d, offset, out);
  for (const el of markup.elements) out.push(span(el.range));
  const el = markup.elements.at(-1);
  if (el && contains(el.openRange, offset) && !markup.leaf) openTagSpans(el, offset, out);
  else if (el?.closeNameRange && contains(el.closeNameRange, offset)) out.push(span(el.closeNameRange));
  const leaf = markup.leaf;
  if (leaf) {
    out.push(span(leaf.range));
    if (leaf.type === 'interp') for (const e of exprsAt(leaf.expr, offset)) out.push(span(e.range));
    else if (leaf.type === 'text') {
      // The text without the white space around it, then the word.
      const raw = leaf.value;
      const start = leaf.range.start.offset + (raw.length - raw.trimStart().length);
      const end = leaf.range.end.offset - (raw.length - raw.trimEnd().length);
      if (start <= offset && offset <= end) out.push([start, end]);
      const text = entry.text;
      let a = offset;
      let b = offset;
      while (a > start && /[\p{L}\p{N}_'-]/u.test(text[a - 1])) a--;
      while (b < end && /[\p{L}\p{N}_'-]/u.test(text[b])) b++;
      if (a < b) out.push([a, b]);
    }
  }
  return out;
}

/** One position's chain, innermost first as the protocol nests it (`parent` outwards). */
function selectionAt(entry: KitEntry, position: Position): SelectionRange {
  const offset = offsetOf(entry.ast, position);
  let chain: SelectionRange | undefined;
  let last: Span | undefined;
  for (const s of spansAt(entry, offset)) {
    // Each range must lie inside its parent; a part that does not (recovered markup) is left out.
    if (last && (s[0] < last[0] || s[1] > last[1] || (s[0] === last[0] && s[1] === last[1]))) continue;
    chain = { range: rangeOfOffsets(entry.ast, s[0], s[1]), parent: chain };
    last = s;
  }
  return chain!;
}

export function selectionRanges(ctx: FeatureContext, path: string, positions: Position[]): SelectionRange[] | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  return positions.map((p) => selectionAt(entry, p));
}
