// Linked editing of a tag pair: on the name of an opening or closing tag, both names, so that the
// editor renames them together. Only a pair the parser matched (`closeNameRange`) is offered; a
// self-closing or unclosed element has one name and nothing to link.
import type { LinkedEditingRanges, Position } from 'vscode-languageserver';
import { contains, offsetOf, toRange } from '../convert.js';
import type { FeatureContext } from './context.js';
import { markupPathAt } from './markup-path.js';

/**
 * What a tag name may become while it is edited together: the markup lexer's tag names
 * (`grammar/src/markup/markup-lexer.ts`, `TagStart`): `div`, `ui.Button`, `my-element`.
 */
export const TAG_NAME_PATTERN = '[A-Za-z][\\w.:@$-]*';

export function linkedEditingRanges(ctx: FeatureContext, path: string, position: Position): LinkedEditingRanges | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const offset = offsetOf(entry.ast, position);
  const el = markupPathAt(entry, offset)?.elements.at(-1);
  if (!el?.closeNameRange) return null;
  if (!contains(el.nameRange, offset) && !contains(el.closeNameRange, offset)) return null;
  return { ranges: [toRange(el.nameRange), toRange(el.closeNameRange)], wordPattern: TAG_NAME_PATTERN };
}
