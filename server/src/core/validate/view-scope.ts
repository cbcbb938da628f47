// What the element checks of the view rules share: what they read besides the element
// (`ElementScope`), what they yield (`ViewItem`) and an attribute's static text.
import type { Attribute, Range } from '#grammar/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { RuleContext } from './context.js';

/**
 * What one element yields to the view rules: its `id` values, its diagnostics, and its `g:target`
 * references, whose check needs every id of the body and so happens once the body is walked.
 */
export type ViewItem =
  | { k: 'id'; value: string; range: Range }
  | { k: 'diag'; d: Diagnostic }
  | { k: 'target'; attr: Attribute; value: string };

/** What the element checks read besides the element; `scopeKey` names all of it for the memo. */
export interface ElementScope {
  ctx: RuleContext;
  where: string;
  actions: Set<string>;
}

/** An attribute's text when it has no `{...}` part (`''` without a value); else undefined. */
export function staticText(a: Attribute): string | undefined {
  if (!a.value) return '';
  if (a.value.type !== 'string') return undefined;
  return a.value.parts.every((p) => p.type === 'text')
    ? a.value.parts.map((p) => (p.type === 'text' ? p.value : '')).join('')
    : undefined;
}
