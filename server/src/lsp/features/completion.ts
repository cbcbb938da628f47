// Completion by context: the text before the cursor on its line decides what is offered, the
// workspace model supplies the names (guards in use, layouts, components, sibling handler exports).
import { CompletionItemKind, type CompletionItem, type Position } from 'vscode-languageserver';
import type { DeclarationKind, FileKind } from '#grammar/index.js';
import {
  ALLOWED_DECLARATIONS,
  API_METHODS,
  BLOCK_KEYWORDS,
  DECLARATION_KEYWORDS,
  DIRECTIVES,
  KEYWORD_KINDS,
  MESSAGE_CONSTRAINTS,
  messageDirective,
  PROP_TYPES,
  RENDER_MODES,
  UNIQUE_DECLARATIONS,
} from '#shared/language/facts.js';
import { PARAM_TYPES } from '#shared/route/index.js';
import { dirName } from '#core/model/names.js';
import { packageOfUse } from '#core/resolve/names.js';
import type { KitEntry } from '#core/model/entries.js';
import { offsetOf, rangeOfOffsets } from '../convert.js';
import type { FeatureContext } from './context.js';
import { declarationAt } from './locate.js';

/** A keyword as completion offers it: `go` as `go server`, the only declaration it starts. */
function keywordLabel(k: string): string {
  return k === 'go' ? 'go server' : k;
}

/** The labels of each kind of declaration (the meta kind has three keywords, `server` two). */
const KEYWORDS_OF = new Map<DeclarationKind, string[]>();
for (const k of DECLARATION_KEYWORDS) {
  const labels = KEYWORDS_OF.get(KEYWORD_KINDS[k]) ?? [];
  labels.push(keywordLabel(k));
  KEYWORDS_OF.set(KEYWORD_KINDS[k], labels);
}
/** Labels written with their ` {` (a fragment's brace comes after its name, method, route and target). */
const BLOCKS = new Set([...BLOCK_KEYWORDS].filter((k) => k !== 'fragment').map(keywordLabel));
const MESSAGE_DIRECTIVE_NAMES = MESSAGE_CONSTRAINTS.map(messageDirective);

interface Ctx {
  ctx: FeatureContext;
  entry: KitEntry;
  /** Offset where the word being completed starts. */
  from: number;
  to: number;
}

function items(
  c: Ctx,
  labels: Iterable<string>,
  kind: CompletionItemKind,
  detail?: (label: string) => string | undefined,
  insert?: (label: string) => string,
): CompletionItem[] {
  const range = rangeOfOffsets(c.entry.ast, c.from, c.to);
  const out: CompletionItem[] = [];
  const seen = new Set<string>();
  for (const label of labels) {
    if (seen.has(label)) continue;
    seen.add(label);
    const item: CompletionItem = { label, kind, textEdit: { range, newText: insert ? insert(label) : label } };
    const d = detail?.(label);
    if (d) item.detail = d;
    out.push(item);
  }
  return out;
}

function keywordItems(c: Ctx, kind: FileKind): CompletionItem[] {
  const present = new Set(c.entry.ast.declarations.map((d) => d.kind));
  const labels: string[] = [];
  for (const k of ALLOWED_DECLARATIONS[kind]) {
    if (UNIQUE_DECLARATIONS.has(k) && present.has(k)) continue;
    labels.push(...(KEYWORDS_OF.get(k) ?? []));
  }
  return items(
    c,
    labels.sort(),
    CompletionItemKind.Keyword,
    (l) => (BLOCKS.has(l) ? 'block' : 'declaration'),
    (l) => (BLOCKS.has(l) ? `${l} {` : `${l} `),
  );
}

function guardIds(c: Ctx): string[] {
  const ids = new Set<string>(['public']);
  for (const e of c.ctx.ws.allKit()) for (const g of e.summary.guards) ids.add(g);
  for (const m of c.ctx.ws.allModules())
    for (const ep of m.summary.endpoints) for (const g of ep.guards ?? []) ids.add(g);
  return [...ids].sort();
}

function layoutIds(c: Ctx): string[] {
  const s = c.entry.summary;
  const out: string[] = [];
  const aliases = new Map<string, string>();
  for (const [alias, u] of s.uses) aliases.set(packageOfUse(u.pkg.value), alias);
  for (const e of c.ctx.ws.allKit()) {
    if (e.summary.kind !== 'layout' || e.path === c.entry.path) continue;
    if (e.summary.packageName === s.packageName) out.push(e.summary.ownerId);
    const alias = aliases.get(e.summary.packageName);
    if (alias) out.push(`${alias}.${e.summary.ownerId}`);
  }
  return out.sort();
}

function componentNames(c: Ctx): string[] {
  const s = c.entry.summary;
  const out: string[] = [];
  const aliases = new Map<string, string>();
  for (const [alias, u] of s.uses) aliases.set(packageOfUse(u.pkg.value), alias);
  for (const e of c.ctx.ws.allKit()) {
    if (e.summary.kind !== 'component') continue;
    if (e.summary.packageName === s.packageName) out.push(e.summary.ownerId);
    const alias = aliases.get(e.summary.packageName);
    if (alias) out.push(`${alias}.${e.summary.ownerId}`);
  }
  return out.sort();
}

/** Exported functions of the handler modules beside the file, minus the symbols already declared. */
function siblingExports(c: Ctx): string[] {
  const dir = dirName(c.entry.path);
  const s = c.entry.summary;
  const declared = new Set([...s.actions.map((a) => a.symbol.text), ...s.apis.map((a) => a.symbol.text)]);
  const out: string[] = [];
  for (const m of c.ctx.ws.allModules()) {
    if (dirName(m.path) !== dir) continue;
    for (const x of m.summary.exports)
      if (/^[A-Z]/.test(x.name) && !declared.has(x.name) && !x.name.startsWith('Load')) out.push(x.name);
  }
  return out.sort();
}

function markupCompletion(c: Ctx, before: string): CompletionItem[] | undefined {
  const s = c.entry.summary;
  let m = /g:post=\{([A-Za-z_$][\w$]*)?$/.exec(before);
  if (m)
    return items(
      { ...c, from: c.to - (m[1]?.length ?? 0) },
      s.actions.map((a) => a.symbol.text),
      CompletionItemKind.Function,
      () => 'action',
    );
  m = /param\(\\?"([A-Za-z_]\w*)?$/.exec(before);
  if (m)
    return items(
      { ...c, from: c.to - (m[1]?.length ?? 0) },
      s.route?.parsed.params.map((p) => p.name) ?? [],
      CompletionItemKind.Variable,
      (l) => `route param: ${s.route?.parsed.params.find((p) => p.name === l)?.type}`,
    );
  m = /<([A-Za-z_][\w.]*)?$/.exec(before);
  if (m)
    return items(
      { ...c, from: c.to - (m[1]?.length ?? 0) },
      [...componentNames(c), 'slot', 'template'].sort(),
      CompletionItemKind.Class,
      (l) => (/^[A-Z]|\.[A-Z]/.test(l) ? 'component' : 'element'),
    );
  // Attribute position: inside an opening tag, after whitespace.
  m = /<[A-Za-z][\w.-]*(?:\s+(?:[^<>"{}]|"[^"]*"|\{[^}]*\})*)?\s([A-Za-z_:][\w:.-]*)?$/.exec(before);
  if (m) {
    const prefix = m[1] ?? '';
    return items(
      { ...c, from: c.to - prefix.length },
      [...[...DIRECTIVES].sort(), ...MESSAGE_DIRECTIVE_NAMES],
      CompletionItemKind.Property,
      () => 'kit directive',
    );
  }
  return undefined;
}

function lineCompletion(
  c: Ctx,
  before: string,
  kind: FileKind,
  inBlock: DeclarationKind | undefined,
): CompletionItem[] {
  let m: RegExpExecArray | null;
  if (inBlock === 'props') {
    m = /^\s*[A-Za-z_]\w*\s+(\w*)$/.exec(before);
    if (m) return items({ ...c, from: c.to - m[1].length }, PROP_TYPES, CompletionItemKind.TypeParameter);
    return [];
  }
  if (inBlock) return [];
  m = /\{[A-Za-z_]\w*:(\w*)$/.exec(before);
  if (m && /^\s*(route|act|api|fragment)\b/.test(before))
    return items(
      { ...c, from: c.to - m[1].length },
      PARAM_TYPES,
      CompletionItemKind.TypeParameter,
      () => 'route param type',
    );
  m = /^\s*guard\s+(?:[^,]*,\s*)*([\w.:-]*)$/.exec(before);
  if (m)
    return items({ ...c, from: c.to - m[1].length }, guardIds(c), CompletionItemKind.Constant, (l) =>
      l === 'public' ? 'no protection' : 'guard in use in the workspace',
    );
  m = /^\s*layout\s+(?:[^,]*,\s*)*([\w.-]*)$/.exec(before);
  if (m) return items({ ...c, from: c.to - m[1].length }, layoutIds(c), CompletionItemKind.Module, () => 'layout');
  m = /^\s*render\s+(\w*)$/.exec(before);
  if (m) return items({ ...c, from: c.to - m[1].length }, RENDER_MODES, CompletionItemKind.EnumMember);
  m = /^\s*(act|api)\s+([A-Za-z_$][\w$]*)?$/.exec(before);
  if (m)
    return items(
      { ...c, from: c.to - (m[2]?.length ?? 0) },
      siblingExports(c),
      CompletionItemKind.Function,
      () => 'exported by a handler module here',
    );
  m = /^\s*(act|api|fragment)\s+\S+\s+([A-Za-z]*)$/.exec(before);
  if (m) {
    const methods = m[1] === 'act' ? ['POST'] : m[1] === 'fragment' ? ['GET'] : [...API_METHODS];
    return items({ ...c, from: c.to - m[2].length }, methods, CompletionItemKind.EnumMember, () => 'HTTP method');
  }
  m = /^\s*(\w*)$/.exec(before);
  if (m) return keywordItems({ ...c, from: c.to - m[1].length }, kind);
  return [];
}

export function completion(ctx: FeatureContext, path: string, position: Position): CompletionItem[] {
  const entry = ctx.ws.kit(path);
  if (!entry) return [];
  const offset = offsetOf(entry.ast, position);
  const lineStart = entry.ast.lineStarts[position.line] ?? 0;
  const before = entry.text.slice(Math.min(lineStart, offset), offset);
  const c: Ctx = { ctx, entry, from: offset, to: offset };
  const d = declarationAt(entry, offset);
  const body = d && (d.kind === 'view' || d.kind === 'fragment') ? d.bodyRange : undefined;
  if (body && offset >= body.start.offset && offset <= body.end.offset && position.line > d!.keyword.start.line) {
    // Markup context: the text since the last `>` or line start decides.
    const tag = lastTagStart(entry.text, offset, body.start.offset);
    const from =
      tag > body.start.offset
        ? tag
        : Math.max(body.start.offset, entry.text.lastIndexOf('\n', Math.max(0, offset - 1)) + 1);
    return markupCompletion(c, entry.text.slice(from, offset)) ?? [];
  }
  const inBlock =
    d &&
    d.range.start.line !== d.range.end.line &&
    position.line > d.keyword.start.line &&
    position.line <= d.range.end.line
      ? d.kind
      : undefined;
  return lineCompletion(c, before, entry.ast.kind, inBlock);
}

/** Start of the tag the cursor may be in (the last `<` before it, if no `>` follows that `<`). */
function lastTagStart(text: string, offset: number, floor: number): number {
  const lt = text.lastIndexOf('<', offset - 1);
  if (lt < floor) return floor;
  const gt = text.lastIndexOf('>', offset - 1);
  return gt > lt ? floor : lt;
}
