// One helper per IDE feature. Each takes marker-annotated sources (`<|>` marks the cursor, in one of
// the files) laid over an optional base workspace read from a fixture directory, builds the
// workspace model in-process and calls the feature function directly (no protocol involved).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type {
  CodeAction,
  CompletionItem,
  DocumentSymbol,
  FoldingRange,
  Hover,
  Location,
  Position,
  SymbolInformation,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver';
import { Workspace } from '#core/workspace/workspace.js';
import { isHandlerModulePath } from '#core/model/handler-modules.js';
import { featureContext, type FeatureContext } from '#lsp/features/context.js';
import { codeActions } from '#lsp/features/code-actions.js';
import { completion } from '#lsp/features/completion.js';
import { formatDocument } from '#lsp/features/formatting.js';
import { hover } from '#lsp/features/hover.js';
import { definition, prepareRename, references, rename } from '#lsp/features/navigation.js';
import { collectTokens, TOKEN_TYPES } from '#lsp/features/semantic-tokens.js';
import { documentSymbols, foldingRanges, workspaceSymbols } from '#lsp/features/symbols.js';

export const MARKER = '<|>';
const BASE_URI = 'file:///ws/';

export interface Cursor {
  path: string;
  position: Position;
  offset: number;
}

export interface Setup {
  ws: Workspace;
  ctx: FeatureContext;
  cursor?: Cursor;
  texts: Map<string, string>;
}

export function uriOf(path: string): string {
  return BASE_URI + path;
}

export function pathOf(uri: string): string {
  return uri.startsWith(BASE_URI) ? uri.slice(BASE_URI.length) : uri;
}

/** Strips the marker and answers the cursor offset and position. */
export function unmark(source: string): { text: string; offset: number; position: Position } | { text: string } {
  const at = source.indexOf(MARKER);
  if (at < 0) return { text: source };
  const text = source.slice(0, at) + source.slice(at + MARKER.length);
  const before = text.slice(0, at);
  const line = before.split('\n').length - 1;
  return { text, offset: at, position: { line, character: at - (before.lastIndexOf('\n') + 1) } };
}

function readTree(dir: string, root = dir, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) readTree(p, root, out);
    else out.set(relative(root, p).split('\\').join('/'), readFileSync(p, 'utf8'));
  }
  return out;
}

/** Builds a workspace from `base` (a fixture directory) with `files` laid over it (or removing `null` ones). */
export function setup(files: Record<string, string | null>, opts: { base?: string; ssr?: boolean } = {}): Setup {
  const texts = opts.base ? readTree(opts.base) : new Map<string, string>();
  let cursor: Cursor | undefined;
  for (const [path, source] of Object.entries(files)) {
    if (source === null) {
      texts.delete(path);
      continue;
    }
    const u = unmark(source);
    texts.set(path, u.text);
    if ('offset' in u) cursor = { path, position: u.position, offset: u.offset };
  }
  const ws = new Workspace({ ssr: opts.ssr ?? true });
  for (const [p, t] of texts) if (p.endsWith('.kit')) ws.setKitFile(p, t);
  for (const [p, t] of texts) if (isHandlerModulePath(p)) ws.setModule(p, t);
  ws.flush();
  return { ws, ctx: featureContext(ws, uriOf), cursor, texts };
}

function at(s: Setup): Cursor {
  if (!s.cursor) throw new Error(`no ${MARKER} marker in the sources`);
  return s.cursor;
}

/** Text covered by a location, read from the setup's files. */
export function textAt(s: Setup, loc: { uri: string; range: { start: Position; end: Position } }): string {
  const text = s.texts.get(pathOf(loc.uri)) ?? '';
  const lines = text.split('\n');
  const { start, end } = loc.range;
  if (start.line === end.line) return lines[start.line]?.slice(start.character, end.character) ?? '';
  return [
    lines[start.line].slice(start.character),
    ...lines.slice(start.line + 1, end.line),
    lines[end.line].slice(0, end.character),
  ].join('\n');
}

export function hoverAt(
  files: Record<string, string | null>,
  opts?: { base?: string; ssr?: boolean },
): { hover: Hover | null; markdown: string; setup: Setup } {
  const s = setup(files, opts);
  const c = at(s);
  const h = hover(s.ctx, c.path, c.position);
  const markdown = h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
  return { hover: h, markdown, setup: s };
}

export function definitionAt(
  files: Record<string, string | null>,
  opts?: { base?: string },
): { locations: Location[]; texts: string[]; files: string[] } {
  const s = setup(files, opts);
  const c = at(s);
  const locations = definition(s.ctx, c.path, c.position) ?? [];
  return { locations, texts: locations.map((l) => textAt(s, l)), files: locations.map((l) => pathOf(l.uri)) };
}

export function referencesAt(
  files: Record<string, string | null>,
  opts?: { base?: string; includeDeclaration?: boolean },
): { places: string[]; texts: string[] } {
  const s = setup(files, opts);
  const c = at(s);
  const locs = references(s.ctx, c.path, c.position, opts?.includeDeclaration ?? true) ?? [];
  return {
    places: locs.map((l) => `${pathOf(l.uri)}:${l.range.start.line + 1}:${l.range.start.character + 1}`).sort(),
    texts: locs.map((l) => textAt(s, l)),
  };
}

/** Applies a workspace edit's text changes to the setup's files and answers the changed texts. */
export function applyEdit(s: Setup, edit: WorkspaceEdit): Map<string, string> {
  const out = new Map<string, string>();
  const byFile = new Map<string, TextEdit[]>();
  for (const [uri, edits] of Object.entries(edit.changes ?? {}))
    byFile.set(pathOf(uri), [...(byFile.get(pathOf(uri)) ?? []), ...edits]);
  for (const change of edit.documentChanges ?? []) {
    if ('kind' in change) {
      if (change.kind === 'create') out.set(pathOf(change.uri), '');
      continue;
    }
    const p = pathOf(change.textDocument.uri);
    byFile.set(p, [...(byFile.get(p) ?? []), ...(change.edits as TextEdit[])]);
  }
  for (const [path, edits] of byFile) {
    let text = out.get(path) ?? s.texts.get(path) ?? '';
    const offsetOf = (p: Position) => {
      const lines = text.split('\n');
      let o = 0;
      for (let i = 0; i < p.line && i < lines.length; i++) o += lines[i].length + 1;
      return Math.min(text.length, o + p.character);
    };
    const sorted = [...edits].sort((a, b) => offsetOf(b.range.start) - offsetOf(a.range.start));
    for (const e of sorted)
      text = text.slice(0, offsetOf(e.range.start)) + e.newText + text.slice(offsetOf(e.range.end));
    out.set(path, text);
  }
  return out;
}

export function renameAt(
  files: Record<string, string | null>,
  newName: string,
  opts?: { base?: string },
): {
  prepared: ReturnType<typeof prepareRename>;
  edit: WorkspaceEdit | null;
  result: Map<string, string>;
  setup: Setup;
} {
  const s = setup(files, opts);
  const c = at(s);
  const prepared = prepareRename(s.ctx, c.path, c.position);
  const edit = rename(s.ctx, c.path, c.position, newName);
  return { prepared, edit, result: edit ? applyEdit(s, edit) : new Map(), setup: s };
}

export function completionAt(
  files: Record<string, string | null>,
  opts?: { base?: string },
): { items: CompletionItem[]; labels: string[] } {
  const s = setup(files, opts);
  const c = at(s);
  const items = completion(s.ctx, c.path, c.position);
  return { items, labels: items.map((i) => i.label) };
}

export function symbolsOf(
  path: string,
  files: Record<string, string | null>,
  opts?: { base?: string },
): DocumentSymbol[] {
  const s = setup(files, opts);
  return documentSymbols(s.ctx, path) ?? [];
}

export function workspaceSymbolsFor(
  query: string,
  files: Record<string, string | null>,
  opts?: { base?: string },
): SymbolInformation[] {
  const s = setup(files, opts);
  return workspaceSymbols([s.ctx], query);
}

export function foldsOf(path: string, files: Record<string, string | null>, opts?: { base?: string }): FoldingRange[] {
  const s = setup(files, opts);
  return foldingRanges(s.ctx, path) ?? [];
}

/** Semantic tokens as `type:text` strings, in document order. */
export function tokensOf(path: string, files: Record<string, string | null>, opts?: { base?: string }): string[] {
  const s = setup(files, opts);
  const entry = s.ws.kit(path)!;
  const lines = entry.text.split('\n');
  return collectTokens(entry).map(
    (t) => `${TOKEN_TYPES[t.type]}:${lines[t.line].slice(t.char, t.char + t.length)}${t.mods ? '+decl' : ''}`,
  );
}

export function codeActionsAt(
  files: Record<string, string | null>,
  opts?: { base?: string; canCreateFiles?: boolean },
): { actions: CodeAction[]; titles: string[]; apply(title: string): Map<string, string>; setup: Setup } {
  const s = setup(files, opts);
  const c = at(s);
  const actions = codeActions(s.ctx, c.path, { start: c.position, end: c.position }, [], {
    canCreateFiles: opts?.canCreateFiles ?? true,
  });
  return {
    actions,
    titles: actions.map((a) => a.title),
    setup: s,
    apply(title: string) {
      const a = actions.find((x) => x.title === title);
      if (!a?.edit) throw new Error(`no action "${title}" (have: ${actions.map((x) => x.title).join(' | ')})`);
      return applyEdit(s, a.edit);
    },
  };
}

export function formatEdits(path: string, files: Record<string, string | null>): TextEdit[] {
  const s = setup(files);
  return formatDocument(s.ctx, path);
}
