// Document highlights: every place in one file where the thing under the cursor is named. Symbols
// (components, layouts, page IDs, endpoint symbols and their `g:post` forms) come from the same
// places references and rename use (`navigation.ts`), restricted to the file. Names of the markup
// (props, `server {}` fields, route params, `g:for` and `let:` variables) resolve the way the
// `unknown_name` rule scopes them (`validate/names.ts`): a declaration is a write, a read a read,
// and an inner `g:for` that declares the same name hides the outer one.
import { DocumentHighlightKind, type DocumentHighlight, type Position } from 'vscode-languageserver';
import { letBinding, type Expr, type MarkupNode, type Range, type StringLit } from '#grammar/index.js';
import { parseRoutePattern } from '#shared/route/index.js';
import type { KitEntry } from '#core/model/entries.js';
import { stringSpanRange } from '#core/model/ranges.js';
import { ownerScope, readsData } from '#core/validate/names.js';
import { contains, offsetOf, toRange } from '../convert.js';
import type { FeatureContext } from './context.js';
import { locate } from './locate.js';
import { markupPathAt } from './markup-path.js';
import { declarationPlaces, symbolOf, usePlaces } from './navigation.js';

interface Occurrence {
  /** What the name resolves to: occurrences with the same key name the same thing. */
  key: string;
  range: Range;
  kind: DocumentHighlightKind;
}

const { Read, Write, Text } = DocumentHighlightKind;

/** The range `length` units into a one-line range (the head `user` of `user.name`, `value` of `let:value`). */
function slice(r: Range, from: number, length: number): Range {
  return {
    start: { offset: r.start.offset + from, line: r.start.line, column: r.start.column + from },
    end: { offset: r.start.offset + from + length, line: r.start.line, column: r.start.column + from + length },
  };
}

/** The route params a pattern declares, each at its name inside the string. */
function paramDeclarations(entry: KitEntry, lit: StringLit, key: (name: string) => string, out: Occurrence[]) {
  for (const seg of parseRoutePattern(lit.value).segments) {
    if (seg.kind === 'static') continue;
    out.push({ key: key(seg.name), range: stringSpanRange(entry.ast, lit, seg.nameSpan), kind: Write });
  }
}

/** Reads of names and params in one markup body, with the scopes `g:for` and `let:` open. */
function markupOccurrences(
  entry: KitEntry,
  nodes: readonly MarkupNode[],
  scope: ReadonlyMap<string, string>,
  top: (name: string) => string,
  param: (name: string) => string,
  out: Occurrence[],
): void {
  const read = (e: Expr, names: ReadonlyMap<string, string>): void => {
    switch (e.type) {
      case 'path': {
        const head = e.path[0];
        out.push({ key: names.get(head) ?? top(head), range: slice(e.range, 0, head.length), kind: Read });
        break;
      }
      case 'param':
        out.push({
          key: param(e.name.value),
          range: stringSpanRange(entry.ast, e.name, { start: 0, end: e.name.value.length }),
          kind: Read,
        });
        break;
      case 'not':
        read(e.expr, names);
        break;
      case 'binary':
        read(e.left, names);
        read(e.right, names);
        break;
      case 'for':
        read(e.collection, names);
        break;
      default:
        break;
    }
  };
  for (const n of nodes) {
    if (n.type === 'interp') read(n.expr, scope);
    if (n.type !== 'element') continue;
    let inner = scope;
    const bind = (name: string, key: string, range: Range) => {
      if (inner === scope) inner = new Map(scope);
      (inner as Map<string, string>).set(name, key);
      out.push({ key, range, kind: Write });
    };
    // The loop's collection is read outside the loop; its other attributes and its children inside.
    const loop = n.attrs.find((a) => a.name === 'g:for')?.value;
    if (loop?.type === 'expr' && loop.expr.type === 'for') {
      read(loop.expr.collection, scope);
      for (const w of [loop.expr.item, loop.expr.index])
        if (w) bind(w.text, `for@${w.range.start.offset}:${w.text}`, w.range);
    }
    for (const a of n.attrs) {
      const name = letBinding(a);
      if (name !== undefined) bind(name, `let@${a.range.start.offset}:${name}`, slice(a.nameRange, 4, name.length));
    }
    for (const a of n.attrs) {
      if (!a.value || !readsData(a.name)) continue;
      if (a.value.type === 'expr') read(a.value.expr, inner);
      else for (const p of a.value.parts) if (p.type === 'interp') read(p.expr, inner);
    }
    markupOccurrences(entry, n.children, inner, top, param, out);
  }
}

/** Every name of the file with what it resolves to: declarations outside the markup, reads inside it. */
function occurrences(entry: KitEntry): Occurrence[] {
  const s = entry.summary;
  const out: Occurrence[] = [];
  const pageParam = (name: string) => `param:${name}`;
  if (s.route) paramDeclarations(entry, s.route.decl.path, pageParam, out);
  for (const r of s.paths?.records ?? [])
    for (const f of r.fields) out.push({ key: pageParam(f.name.text), range: f.name.range, kind: Write });
  for (const p of s.props?.props ?? []) out.push({ key: `data:${p.name.text}`, range: p.name.range, kind: Write });
  for (const f of s.server?.fields ?? [])
    out.push({ key: `data:${f.path[0]}`, range: slice(f.range, 0, f.path[0].length), kind: Write });
  for (const d of [...s.actions, ...s.apis])
    if (d.path) paramDeclarations(entry, d.path, (name) => `endpoint@${d.range.start.offset}:${name}`, out);
  const owner = ownerScope(entry.ast.kind, s);
  const names = new Set(owner?.names);
  // A page built ahead reads its route params as names; one rendered per request reads its data.
  const params = new Set(s.render === 'ssr' ? [] : s.route?.parsed.params.map((p) => p.name));
  const top = (name: string) =>
    names.has(name) ? (params.has(name) ? pageParam(name) : `data:${name}`) : `free:${name}`;
  if (s.view) markupOccurrences(entry, s.view.body, new Map(), top, pageParam, out);
  for (const f of s.fragments) {
    // A fragment renders without data: its body reads its own path's params only.
    const own = (name: string) => `param@${f.range.start.offset}:${name}`;
    paramDeclarations(entry, f.path, own, out);
    markupOccurrences(entry, f.body, new Map(), (name) => `free@${f.range.start.offset}:${name}`, own, out);
  }
  return out;
}

function nameHighlights(entry: KitEntry, offset: number): DocumentHighlight[] | undefined {
  const all = occurrences(entry);
  let at: Occurrence | undefined;
  for (const o of all)
    if (
      contains(o.range, offset) &&
      (!at || o.range.end.offset - o.range.start.offset < at.range.end.offset - at.range.start.offset)
    )
      at = o;
  if (!at) return undefined;
  const key = at.key;
  return all.filter((o) => o.key === key).map((o) => ({ range: toRange(o.range), kind: o.kind }));
}

/** Components, layouts, page IDs and endpoint symbols: their places in this file. */
function symbolHighlights(ctx: FeatureContext, entry: KitEntry, offset: number): DocumentHighlight[] | undefined {
  const t = locate(entry, offset);
  if (!t) return undefined;
  if (t.kind === 'guard') {
    return t.decl.guards.filter((g) => g.text === t.word.text).map((g) => ({ range: toRange(g.range), kind: Text }));
  }
  if (t.kind === 'contractRef') {
    return entry.summary.contractRefs
      .filter((c) => c.name === t.ref.name && c.kind === t.ref.kind)
      .map((c) => ({
        range: toRange(c.element.attrs.find((a) => a.range === c.range)?.value?.range ?? c.range),
        kind: Read,
      }));
  }
  const sym = symbolOf(entry, t);
  if (!sym) return undefined;
  const here = (places: { file: string; range: Range }[], kind: DocumentHighlightKind) =>
    places.filter((p) => p.file === entry.path).map((p) => ({ range: toRange(p.range), kind }));
  const uses = sym.ref.kind === 'page' ? [] : here(usePlaces(ctx, sym.ref, entry), Read);
  return [...here(declarationPlaces(ctx, sym.ref), Write), ...uses];
}

/** An element's opening and closing tag names (components are symbols, above). */
function tagHighlights(entry: KitEntry, offset: number): DocumentHighlight[] | undefined {
  const el = markupPathAt(entry, offset)?.elements.at(-1);
  if (!el || !(contains(el.nameRange, offset) || (el.closeNameRange && contains(el.closeNameRange, offset))))
    return undefined;
  const ranges = el.closeNameRange ? [el.nameRange, el.closeNameRange] : [el.nameRange];
  return ranges.map((r) => ({ range: toRange(r), kind: Text }));
}

export function documentHighlights(ctx: FeatureContext, path: string, position: Position): DocumentHighlight[] | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const offset = offsetOf(entry.ast, position);
  return symbolHighlights(ctx, entry, offset) ?? nameHighlights(entry, offset) ?? tagHighlights(entry, offset) ?? null;
}
