// Rename a route, its links follow. Rename on a route string (a page's `route`, an endpoint's own
// path) edits the pattern and every literal link that the app answers with it today and would
// answer with it after the rename (`core/report/route-rename.ts`); the others are left as they are
// and reported. `prepareRename` on a static segment offers that segment alone; elsewhere in the
// string, the whole pattern. The edit is one WorkspaceEdit: with change annotations when the
// client takes them (the links as a group that needs confirmation), else plain changes.
import type {
  AnnotatedTextEdit,
  ChangeAnnotation,
  Position,
  Range as LspRange,
  TextDocumentEdit,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver';
import type { Range, StringLit } from '#grammar/index.js';
import { parseRoutePattern, type Span } from '#shared/route/index.js';
import type { KitEntry } from '#core/model/entries.js';
import { stringSpanRange } from '#core/model/ranges.js';
import { planRouteRename, renamedRegistrations, type LinkLeft } from '#core/report/route-rename.js';
import { contains, offsetOf, toRange } from '../convert.js';
import type { FeatureContext } from './context.js';
import type { Target } from './locate.js';
import { RenameError } from './rename-error.js';
import { answerMemo, routeStringOf } from './url-links.js';

export interface RouteRenameOptions {
  /** The client applies change annotations (`workspace.workspaceEdit.changeAnnotationSupport`) in `documentChanges`. */
  annotations: boolean;
}

export interface RouteRenameResult {
  edit: WorkspaceEdit;
  /** Links that reach the route but are not rewritten, with why. */
  left: LinkLeft[];
  /** The pattern before and after. */
  from: string;
  to: string;
}

/** The static segment of the pattern under the cursor: its span in the pattern and its document range. */
function staticSegmentAt(entry: KitEntry, lit: StringLit, offset: number): { span: Span; range: Range } | undefined {
  for (const seg of parseRoutePattern(lit.value).segments) {
    if (seg.kind !== 'static') continue;
    const range = stringSpanRange(entry.ast, lit, seg.span);
    if (contains(range, offset)) return { span: seg.span, range };
  }
  return undefined;
}

/** The pattern's text between its quotes. */
function innerRange(entry: KitEntry, lit: StringLit): Range {
  return stringSpanRange(entry.ast, lit, { start: 0, end: lit.value.length });
}

export function prepareRouteRename(
  entry: KitEntry,
  t: Target | undefined,
  position: Position,
): { range: LspRange; placeholder: string } | undefined {
  const at = routeStringOf(entry, t);
  if (!at) return undefined;
  const seg = staticSegmentAt(entry, at.lit, offsetOf(entry.ast, position));
  if (seg) return { range: toRange(seg.range), placeholder: at.lit.value.slice(seg.span.start, seg.span.end) };
  return { range: toRange(innerRange(entry, at.lit)), placeholder: at.lit.value };
}

/** The new pattern: `newName` itself when it starts with `/`, else the static segment under the cursor renamed. */
function newPattern(entry: KitEntry, lit: StringLit, offset: number, newName: string): string {
  if (newName.startsWith('/')) return newName;
  const seg = staticSegmentAt(entry, lit, offset);
  if (!seg) throw new RenameError(`"${newName}" is not a route pattern: give the whole new pattern, starting with /`);
  return lit.value.slice(0, seg.span.start) + newName + lit.value.slice(seg.span.end);
}

/** The text of a pattern inside its string literal's quotes. */
function quoted(pattern: string): string {
  return JSON.stringify(pattern).slice(1, -1);
}

const ROUTE_ANNOTATION = 'kit.route';
const LINKS_ANNOTATION = 'kit.links';

export function renameRoute(
  ctx: FeatureContext,
  entry: KitEntry,
  t: Target | undefined,
  position: Position,
  newName: string,
  options: RouteRenameOptions,
): RouteRenameResult | undefined {
  const at = routeStringOf(entry, t);
  if (!at) return undefined;
  const from = at.lit.value;
  const to = newPattern(entry, at.lit, offsetOf(entry.ast, position), newName);
  const next = parseRoutePattern(to);
  if (!next.valid)
    throw new RenameError(`"${to}" is not a valid route: ${next.issues.map((i) => i.message).join('; ')}`);
  const old = parseRoutePattern(from);
  const targets = renamedRegistrations(entry, at.decl.range);
  const plan = planRouteRename(ctx.ws, targets, old, next, answerMemo(ctx));
  const edits = new Map<string, (TextEdit | AnnotatedTextEdit)[]>();
  const add = (file: string, edit: TextEdit, annotation: string) => {
    const list = edits.get(file) ?? [];
    list.push(options.annotations ? { ...edit, annotationId: annotation } : edit);
    edits.set(file, list);
  };
  add(entry.path, { range: toRange(innerRange(entry, at.lit)), newText: quoted(to) }, ROUTE_ANNOTATION);
  for (const w of plan.rewrites) add(w.file, { range: toRange(w.range), newText: w.href }, LINKS_ANNOTATION);
  const result: RouteRenameResult = { edit: {}, left: plan.left, from, to };
  if (!options.annotations) {
    result.edit.changes = {};
    for (const [file, list] of edits) result.edit.changes[ctx.uriOf(file)] = list;
    return result;
  }
  const files = new Set(plan.rewrites.map((w) => w.file)).size;
  const links = plan.rewrites.length;
  const annotations: Record<string, ChangeAnnotation> = {
    [ROUTE_ANNOTATION]: { label: `Route "${from}" → "${to}"`, needsConfirmation: false },
    [LINKS_ANNOTATION]: {
      label: `Links to "${from}"`,
      needsConfirmation: true,
      description:
        `${links} link${links === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} follow the route` +
        (plan.left.length ? `; ${plan.left.length} left as they are (see the message)` : ''),
    },
  };
  result.edit.documentChanges = [...edits].map(
    ([file, list]): TextDocumentEdit => ({ textDocument: { uri: ctx.uriOf(file), version: null }, edits: list }),
  );
  result.edit.changeAnnotations = annotations;
  return result;
}

/** The message telling which links were left, or undefined when every link followed. */
export function leftLinksMessage(r: RouteRenameResult, max = 5): string | undefined {
  if (r.left.length === 0) return undefined;
  const lines = r.left.slice(0, max).map((l) => {
    return `${l.file}:${l.link.range.start.line + 1} "${l.link.href}": ${l.reason}`;
  });
  const more = r.left.length > max ? `; and ${r.left.length - max} more (the kit log lists them)` : '';
  const n = r.left.length;
  const what = `${n} link${n === 1 ? '' : 's'} to "${r.from}" left as ${n === 1 ? 'it is' : 'they are'}`;
  return `kit: ${what} by the rename to "${r.to}": ${lines.join('; ')}${more}`;
}
