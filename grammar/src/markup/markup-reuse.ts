// Incremental re-parsing inside one view or fragment: an edit that stays strictly inside one
// properly closed element re-parses that element alone and splices it into the previous tree, so
// typing in a long view costs the element, not the view. Whenever the result could differ from a
// full parse of the block (the edit touches an element boundary, the element parses to anything but
// one closed element, structural markup errors appear), the caller parses the whole block instead.
import type { Element, MarkupNode, SyntaxDiagnostic } from '../ast.js';
import type { ChunkResult } from '../declarations/declarations.js';
import { VOID_ELEMENTS } from '#shared/language/facts.js';
import { parseMarkup } from './markup-parser.js';
import { Shifter } from '../chunking/shift.js';
import type { PosMaker } from '../common/text-lines.js';

/** The edit, in previous-text offsets [from, to), and how everything after it moves. */
export interface EditSpan {
  from: number;
  to: number;
  delta: number;
  lineDelta: number;
  /** Previous line holding `to`, and how far the rest of that line moves sideways. */
  toLine: number;
  columnDelta: number;
}

/** An element whose range is delimited by its own tokens: closed by its closing tag, `/>` or void. */
function delimited(el: Element): boolean {
  if (el.closeNameRange !== undefined || el.selfClosing) return true;
  return !el.isComponent && VOID_ELEMENTS.has(el.name) && el.range.end.offset === el.openRange.end.offset;
}

function containing(nodes: MarkupNode[], edit: EditSpan): number {
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (n.range.start.offset >= edit.to) return -1;
    // The first and the last character of the element must survive the edit.
    if (n.type === 'element' && n.range.start.offset < edit.from && edit.to < n.range.end.offset && delimited(n))
      return i;
  }
  return -1;
}

/**
 * Re-parses the innermost delimited element holding the edit and splices it into the previous
 * result of the same markup block (mutated in place: the previous result is consumed). Answers
 * undefined when the whole block must be parsed again.
 */
export function reparseInsideMarkup(
  previous: ChunkResult,
  text: string,
  pm: PosMaker,
  edit: EditSpan,
): ChunkResult | undefined {
  if (previous.decls.length !== 1) return undefined;
  const block = previous.decls[0];
  if (block.kind !== 'view' && block.kind !== 'fragment') return undefined;

  // Descend to the innermost delimited element that holds the edit.
  const path: Element[] = [];
  let siblings = block.body;
  let at = containing(siblings, edit);
  if (at < 0) return undefined;
  const levels: { nodes: MarkupNode[]; index: number }[] = [];
  for (;;) {
    const el = siblings[at] as Element;
    levels.push({ nodes: siblings, index: at });
    path.push(el);
    const inner = containing(el.children, edit);
    if (inner < 0) break;
    siblings = el.children;
    at = inner;
  }
  const target = path[path.length - 1];
  const start = target.range.start.offset;
  const oldEnd = target.range.end.offset;

  // The element alone: it must come back as one delimited element over the same (moved) extent,
  // with no structural markup error (those would interact with the surrounding tags).
  const diags: SyntaxDiagnostic[] = [];
  const nodes = parseMarkup(text, start, oldEnd + edit.delta, pm, diags, levels.length - 1);
  if (
    nodes.length !== 1 ||
    nodes[0].type !== 'element' ||
    !delimited(nodes[0]) ||
    nodes[0].range.end.offset !== oldEnd + edit.delta
  )
    return undefined;
  if (diags.some((d) => d.code === 'view_parse_error' || d.code === 'markup_too_deep')) return undefined;

  // The block's diagnostics split into those before the element, inside it and after it, in that order.
  const before: SyntaxDiagnostic[] = [];
  const after: SyntaxDiagnostic[] = [];
  let phase = 0;
  for (const d of previous.diags) {
    const s = d.range.start.offset;
    const e = d.range.end.offset;
    const p = e <= start && s < start ? 0 : s >= start && e <= oldEnd ? 1 : s >= oldEnd ? 2 : -1;
    if (p < 0 || p < phase) return undefined;
    phase = p;
    if (p === 0) before.push(d);
    else if (p === 2) after.push(d);
  }

  // Splice, then move what follows the element: later siblings at every level, the ends of the
  // enclosing elements and of the block, and the diagnostics after it. The enclosing elements are
  // replaced by copies holding the new child rather than changed: an element object's content then
  // never changes once parsed (only its positions move), so consumers may remember results per
  // element object (the validator does, for long views).
  const shifter = new Shifter(edit.delta, edit.lineDelta, edit.toLine, edit.columnDelta);
  let replacement: Element = nodes[0];
  for (let l = levels.length - 1; l >= 0; l--) {
    const { nodes: sibs, index } = levels[l];
    if (l < levels.length - 1) {
      const anc = sibs[index] as Element;
      shifter.end(anc.range);
      shifter.range(anc.closeNameRange!);
    }
    shifter.markup(sibs.slice(index + 1));
    if (l === 0) sibs[index] = replacement;
    else {
      const children = sibs.slice();
      children[index] = replacement;
      replacement = { ...(levels[l - 1].nodes[levels[l - 1].index] as Element), children };
    }
  }
  shifter.end(block.range);
  shifter.end(block.bodyRange);
  for (const d of after) shifter.range(d.range);
  return { decls: previous.decls, comments: previous.comments, diags: [...before, ...diags, ...after] };
}
