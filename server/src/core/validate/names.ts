// `unknown_name`: an interpolation or attribute expression whose first name nothing puts in scope.
// It would render as empty text, so it is an error. What is in scope mirrors what the build's
// markup compiler resolves (`core/build/markup.ts`, `convertExpr`) and what the renderer is given:
// - pages rendered ahead (spa, hybrid): the route params (a `paths {}` record is the page's data);
// - pages rendered per request (ssr): the first names of the `server {}` fields (the load result);
// - components: their props; fragment bodies: nothing (they render without data);
// - pages with actions: also `form` (what a failed or `showPage` submission re-renders with);
// - everywhere: the variables of enclosing `g:for` elements and the `let:` names of slot content.
// Layouts are not checked: their markup reads the data of whichever page they wrap. Components read
// the data of the page they are rendered in too, so there a name that is not a prop is only
// reported when it is a near miss of one (`{lable}` for the prop `label`).
import {
  type Attribute,
  type Element,
  type Expr,
  type FileKind,
  type MarkupNode,
  type PathExpr,
  letBinding,
} from '#grammar/index.js';
import { diag } from '../diagnostics/registry.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { MarkupMemo, type MarkupVisitor } from '../model/markup-memo.js';
import { parsedRoute } from '../model/route-cache.js';
import type { FileSummary } from '../model/summary.js';
import type { RuleContext } from './context.js';

/** One element's contribution: the paths it reads, and where a `g:for` opens a scope. */
type NameItem = { k: 'ref'; expr: PathExpr } | { k: 'for'; names: string[]; el: Element };

/** Directives whose values are symbols, ids or keywords, not data (the editor's highlights read it too). */
export function readsData(attrName: string): boolean {
  return (!attrName.startsWith('g:') && !attrName.startsWith('let:')) || attrName === 'g:if';
}

/** Paths read by `e` whose first name is not `known` (names every scope of the file has). */
function exprRefs(e: Expr, known: ReadonlySet<string>, out: NameItem[]): void {
  switch (e.type) {
    case 'path':
      if (!known.has(e.path[0])) out.push({ k: 'ref', expr: e });
      break;
    case 'not':
      exprRefs(e.expr, known, out);
      break;
    case 'binary':
      exprRefs(e.left, known, out);
      exprRefs(e.right, known, out);
      break;
    case 'for':
      exprRefs(e.collection, known, out);
      break;
    default:
      break;
  }
}

function attrRefs(el: Element, known: ReadonlySet<string>, out: NameItem[]): void {
  for (const a of el.attrs) {
    if (!a.value || !readsData(a.name)) continue;
    if (a.value.type === 'expr') exprRefs(a.value.expr, known, out);
    else for (const p of a.value.parts) if (p.type === 'interp') exprRefs(p.expr, known, out);
  }
}

/**
 * What the check needs of each element: the paths whose first name the owner does not give (the
 * rest are fine wherever they are, and most reads are of those: leaving them out keeps the memo's
 * folds empty, so an edit inside a long view costs what it changed), and where `g:for` loops and
 * `let:` content open a scope.
 */
function nameVisitor(known: ReadonlySet<string>): MarkupVisitor<NameItem> {
  return {
    element(el, out) {
      // One pass for the first `g:for` and the `let:` names: most elements have neither, and then
      // nothing is allocated for them (this runs for every element of every view).
      let f: Attribute | undefined;
      let lets: string[] | undefined;
      for (const a of el.attrs) {
        if (f === undefined && a.name === 'g:for') f = a;
        const name = letBinding(a);
        if (name !== undefined) (lets ??= []).push(name);
      }
      // The collection is read outside the loop; the element's other attributes and its children inside.
      if (f?.value?.type === 'expr' && f.value.expr.type === 'for') {
        const loop = f.value.expr;
        exprRefs(loop.collection, known, out);
        out.push({ k: 'for', names: loop.index ? [loop.item.text, loop.index.text] : [loop.item.text], el });
      }
      // Slot content's `let:` names are locals of its children, as loop variables are.
      if (lets !== undefined) out.push({ k: 'for', names: lets, el });
      attrRefs(el, known, out);
    },
    node(n, out) {
      if (n.type === 'interp') exprRefs(n.expr, known, out);
    },
  };
}

/** Visitors by the owner's names (the memo's context): a file's names rarely change between edits. */
const VISITORS = new Map<string, MarkupVisitor<NameItem>>();

function visitorFor(key: string, names: readonly string[]): MarkupVisitor<NameItem> {
  let v = VISITORS.get(key);
  if (v === undefined) {
    if (VISITORS.size >= 64) VISITORS.delete(VISITORS.keys().next().value!);
    VISITORS.set(key, (v = nameVisitor(new Set(names))));
  }
  return v;
}

const NAME_REFS = new MarkupMemo<NameItem>();

export interface OwnerScope {
  names: readonly string[];
  /** Where the names come from, for the message ('' when only g:for variables are in scope). */
  what: string;
  /** Route params, which `param("x")` reads where the data does not hold them. */
  params: readonly string[];
  /** Names outside `names` may be data given from elsewhere: only near misses are reported. */
  nearMissesOnly?: boolean;
}

/** The names a file's markup may read, by its kind and summary (also what the editor highlights). */
export function ownerScope(kind: FileKind, s: FileSummary): OwnerScope | undefined {
  const params = s.route?.parsed.valid ? s.route.parsed.params.map((p) => p.name) : [];
  if (kind === 'component')
    return { names: (s.props?.props ?? []).map((p) => p.name.text), what: 'its props', params, nearMissesOnly: true };
  if (kind !== 'page') return undefined;
  const form = s.actions.length > 0 ? ['form'] : [];
  if (s.render === 'ssr') {
    const heads = (s.server?.fields ?? []).map((f) => f.path[0]);
    return { names: [...new Set([...heads, ...form])], what: 'the server {} fields', params };
  }
  return { names: [...params, ...form], what: 'the route params', params: [] };
}

function checkNames(ctx: RuleContext, body: MarkupNode[], owner: OwnerScope, where: string): void {
  const { file, summary: s } = ctx;
  const top = new Set(owner.names);
  const loops: { names: string[]; end: number }[] = [];
  const key = owner.names.join('\u0000');
  for (const x of NAME_REFS.collect(body, key, visitorFor(key, owner.names))) {
    const at = x.k === 'ref' ? x.expr.range.start.offset : x.el.range.start.offset;
    while (loops.length && loops[loops.length - 1].end <= at) loops.pop();
    if (x.k === 'for') {
      loops.push({ names: x.names, end: x.el.range.end.offset });
      continue;
    }
    const head = x.expr.path[0];
    if (top.has(head) || loops.some((l) => l.names.includes(head))) continue;
    const known = [...top, ...loops.flatMap((l) => l.names)];
    const sources = owner.what ? `${owner.what} and g:for variables` : 'only g:for variables';
    const hint = owner.params.includes(head)
      ? `; route params are read with param("${head}")`
      : didYouMean(head, known, (n) => `{${n}}`);
    if (owner.nearMissesOnly && hint === '') continue;
    ctx.report(
      diag(
        'unknown_name',
        file.path,
        x.expr.range,
        `${s.ownerId}: {${x.expr.path.join('.')}} in the ${where} names nothing in scope, so it would render ` +
          `empty; in scope are ${sources} (${known.length ? known.join(', ') : 'none here'})${hint}`,
      ),
    );
  }
}

export function namesRule(ctx: RuleContext): void {
  const { summary: s } = ctx;
  const owner = ownerScope(ctx.file.kind, s);
  if (owner && s.view) checkNames(ctx, s.view.body, owner, 'view');
  if (ctx.file.kind !== 'page') return;
  for (const f of s.fragments) {
    const r = parsedRoute(f.path.value);
    const params = r.valid ? r.params.map((p) => p.name) : [];
    checkNames(ctx, f.body, { names: [], what: '', params }, `fragment ${f.name.text}`);
  }
}
