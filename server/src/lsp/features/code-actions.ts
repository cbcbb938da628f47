// Quick fixes for the diagnostics the registry marks as fixable: add `guard public`, drop a trailing
// slash, add a `paths {}` skeleton or `server {}`, render a guarded page at request time, split an
// optional route parameter into explicit routes, and create a missing handler stub in the sibling
// module (`handler-stubs.ts`).
import type {
  CodeAction,
  Diagnostic as LspDiagnostic,
  Range as LspRange,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver';
import type { Declaration, Range, StringLit } from '#grammar/index.js';
import { parseRoutePattern, type RouteIssueKind } from '#shared/route/index.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import { baseName, dirName } from '#core/model/names.js';
import { stringSpanRange } from '#core/model/ranges.js';
import type { KitEntry } from '#core/model/entries.js';
import { toRange } from '../convert.js';
import type { FeatureContext } from './context.js';
import { cursorStub, missingHandler } from './handler-stubs.js';
import { action, clientDiagnostic, lineStart, type CodeActionOptions } from './quick-fix.js';

export type { CodeActionOptions } from './quick-fix.js';

function overlaps(r: Range, q: LspRange): boolean {
  const before = r.end.line < q.start.line || (r.end.line === q.start.line && r.end.column < q.start.character);
  const after = r.start.line > q.end.line || (r.start.line === q.end.line && r.start.column > q.end.character);
  return !before && !after;
}

function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Route string literals of a file: the page route and every endpoint path. */
function routeLiterals(entry: KitEntry): { lit: StringLit; decl: Declaration }[] {
  const out: { lit: StringLit; decl: Declaration }[] = [];
  for (const d of entry.ast.declarations) {
    if (d.kind === 'route') out.push({ lit: d.path, decl: d });
    else if ((d.kind === 'act' || d.kind === 'api') && d.path) out.push({ lit: d.path, decl: d });
    else if (d.kind === 'fragment') out.push({ lit: d.path, decl: d });
  }
  return out;
}

function issueAt(entry: KitEntry, d: Diagnostic, kind: RouteIssueKind) {
  for (const { lit, decl } of routeLiterals(entry)) {
    if (d.range.start.offset < lit.range.start.offset || d.range.end.offset > lit.range.end.offset) continue;
    const issue = parseRoutePattern(lit.value).issues.find((i) => i.kind === kind);
    if (issue) return { lit, decl, issue };
  }
  return undefined;
}

function addGuard(ctx: FeatureContext, entry: KitEntry, d: Diagnostic, sent: LspDiagnostic[]): CodeAction {
  const s = entry.summary;
  const after = s.route?.decl ?? s.pageIdDecl ?? s.packageDecl;
  const line = after ? after.range.end.line + 1 : 0;
  return action(
    'Add `guard public`',
    { changes: { [ctx.uriOf(entry.path)]: [{ range: lineStart(line), newText: 'guard public\n' }] } },
    clientDiagnostic(sent, d),
    true,
  );
}

function removeTrailingSlash(
  ctx: FeatureContext,
  entry: KitEntry,
  d: Diagnostic,
  sent: LspDiagnostic[],
): CodeAction | undefined {
  const hit = issueAt(entry, d, 'trailing_slash');
  if (!hit) return undefined;
  const range = stringSpanRange(entry.ast, hit.lit, hit.issue.span);
  return action(
    'Remove the trailing slash',
    { changes: { [ctx.uriOf(entry.path)]: [{ range: toRange(range), newText: '' }] } },
    clientDiagnostic(sent, d),
    true,
  );
}

/** Where a new block goes: before the `view` block, else at the end. */
function blockInsertion(entry: KitEntry): LspRange {
  const view = entry.summary.view;
  if (view) return lineStart(view.keyword.start.line);
  return lineStart(entry.ast.lineStarts.length);
}

function missingPaths(ctx: FeatureContext, entry: KitEntry, d: Diagnostic, sent: LspDiagnostic[]): CodeAction[] {
  const params = entry.summary.route?.parsed.params ?? [];
  const uri = ctx.uriOf(entry.path);
  const at = blockInsertion(entry);
  const record = params.map((p) => `${p.name}: ""`).join(', ');
  const diags = clientDiagnostic(sent, d);
  return [
    action(
      'Add a `paths {}` block',
      { changes: { [uri]: [{ range: at, newText: `paths {\n  => { ${record} }\n}\n\n` }] } },
      diags,
      true,
    ),
    action(
      'Render at request time with `server {}`',
      { changes: { [uri]: [{ range: at, newText: 'server {\n}\n\n' }] } },
      diags,
    ),
  ];
}

/** A protective guard on a page built ahead of time: render it per request (`render ssr` or `server {}`). */
function requestRender(ctx: FeatureContext, entry: KitEntry, d: Diagnostic, sent: LspDiagnostic[]): CodeAction[] {
  const s = entry.summary;
  const uri = ctx.uriOf(entry.path);
  const diags = clientDiagnostic(sent, d);
  const out: CodeAction[] = [];
  if (s.renderDecl) {
    // An explicit `render spa` would contradict either fix: it is changed rather than joined.
    const edit: TextEdit = { range: toRange(s.renderDecl.mode.range), newText: 'ssr' };
    out.push(action('Render at request time: `render ssr`', { changes: { [uri]: [edit] } }, diags, true));
  } else {
    const after = s.guardDecl ?? s.route?.decl ?? s.pageIdDecl ?? s.packageDecl;
    const line = after ? after.range.end.line + 1 : 0;
    out.push(
      action(
        'Render at request time: add `render ssr`',
        { changes: { [uri]: [{ range: lineStart(line), newText: 'render ssr\n' }] } },
        diags,
        true,
      ),
    );
  }
  if (!s.server && !s.renderDecl)
    out.push(
      action(
        'Render at request time: add `server {}`',
        { changes: { [uri]: [{ range: blockInsertion(entry), newText: 'server {\n}\n\n' }] } },
        diags,
      ),
    );
  return out;
}

// ---- optional params ------------------------------------------------------------------------------

function optionalShapes(
  value: string,
  span: { start: number; end: number },
): { without: string; withParam: string; name: string } {
  const segment = value.slice(span.start, span.end);
  const name = /^\{([A-Za-z_]\w*)/.exec(segment)?.[1] ?? 'param';
  const withParam = value.slice(0, span.start) + segment.replace('?}', '}') + value.slice(span.end);
  let without = value.slice(0, Math.max(0, span.start - 1)) + value.slice(span.end);
  if (without === '') without = '/';
  return { without, withParam, name };
}

function lineOf(entry: KitEntry, decl: Declaration): { range: LspRange; text: string } {
  const line = decl.keyword.start.line;
  const start = entry.ast.lineStarts[line];
  const next = entry.ast.lineStarts[line + 1] ?? entry.text.length;
  return {
    range: {
      start: { line, character: 0 },
      end: line + 1 < entry.ast.lineStarts.length ? { line: line + 1, character: 0 } : toRange(decl.range).end,
    },
    text: entry.text.slice(start, next),
  };
}

function splitOptional(
  ctx: FeatureContext,
  entry: KitEntry,
  d: Diagnostic,
  sent: LspDiagnostic[],
  opts: CodeActionOptions,
): CodeAction[] {
  const hit = issueAt(entry, d, 'optional');
  if (!hit) return [];
  const { lit, decl, issue } = hit;
  const shapes = optionalShapes(lit.value, issue.span);
  const uri = ctx.uriOf(entry.path);
  const diags = clientDiagnostic(sent, d);
  const replaceLit = (value: string): TextEdit => ({ range: toRange(lit.range), newText: quote(value) });
  if (decl.kind === 'act' || decl.kind === 'api') {
    const line = lineOf(entry, decl);
    const relStart = lit.range.start.offset - entry.ast.lineStarts[decl.keyword.start.line];
    const relEnd = lit.range.end.offset - entry.ast.lineStarts[decl.keyword.start.line];
    const variant = (v: string) => line.text.slice(0, relStart) + quote(v) + line.text.slice(relEnd);
    const text = variant(shapes.without) + (line.text.endsWith('\n') ? '' : '\n') + variant(shapes.withParam);
    return [
      action(
        `Split into explicit routes ${shapes.without} and ${shapes.withParam}`,
        { changes: { [uri]: [{ range: line.range, newText: text }] } },
        diags,
        true,
      ),
    ];
  }
  const out = [
    action(
      `Use ${shapes.without} (drop the optional segment)`,
      { changes: { [uri]: [replaceLit(shapes.without)] } },
      diags,
    ),
    action(
      `Use ${shapes.withParam} (make {${shapes.name}} required)`,
      { changes: { [uri]: [replaceLit(shapes.withParam)] } },
      diags,
    ),
  ];
  if (decl.kind === 'route' && opts.canCreateFiles) out.unshift(splitPage(ctx, entry, shapes, diags));
  return out;
}

/** Keeps the short route here and creates `<name>-<param>.kit` with the long one (its endpoints stay here). */
function splitPage(
  ctx: FeatureContext,
  entry: KitEntry,
  shapes: { without: string; withParam: string; name: string },
  diags: LspDiagnostic[],
): CodeAction {
  const s = entry.summary;
  const base = baseName(entry.path).replace(/(\.page)?\.kit$/, '');
  const dir = dirName(entry.path);
  const newPath = `${dir === '.' ? '' : `${dir}/`}${base}-${shapes.name}.kit`;
  const newId = `${s.ownerId}-${shapes.name}`;
  const endpointLines = new Set<number>();
  for (const dd of entry.ast.declarations) {
    if (dd.kind === 'act' || dd.kind === 'api') endpointLines.add(dd.keyword.start.line);
  }
  const lines: string[] = [];
  const count = entry.ast.lineStarts.length;
  for (let i = 0; i < count; i++) {
    const text = entry.text
      .slice(entry.ast.lineStarts[i], entry.ast.lineStarts[i + 1] ?? entry.text.length)
      .replace(/\r?\n$/, '');
    if (endpointLines.has(i)) continue;
    if (s.route && i === s.route.decl.keyword.start.line) lines.push(`route ${quote(shapes.withParam)}`);
    else if (s.pageIdDecl && i === s.pageIdDecl.keyword.start.line) lines.push(`page ${newId}`);
    else lines.push(text);
    if (!s.pageIdDecl && s.packageDecl && i === s.packageDecl.keyword.start.line) lines.push('', `page ${newId}`);
  }
  const newUri = ctx.uriOf(newPath);
  const edit: WorkspaceEdit = {
    documentChanges: [
      {
        textDocument: { uri: ctx.uriOf(entry.path), version: null },
        edits: [{ range: toRange(s.route!.decl.path.range), newText: quote(shapes.without) }],
      },
      { kind: 'create', uri: newUri, options: { ignoreIfExists: true } },
      {
        textDocument: { uri: newUri, version: null },
        edits: [{ range: lineStart(0), newText: lines.join('\n').replace(/\n*$/, '\n') }],
      },
    ],
  };
  return action(
    `Split into explicit routes: ${shapes.without} here, ${shapes.withParam} in ${baseName(newPath)}`,
    edit,
    diags,
    true,
  );
}

export function codeActions(
  ctx: FeatureContext,
  path: string,
  range: LspRange,
  sent: LspDiagnostic[],
  opts: CodeActionOptions,
): CodeAction[] {
  const entry = ctx.ws.kit(path);
  if (!entry) return [];
  const out: CodeAction[] = [];
  let stubOffered = false;
  for (const d of ctx.ws.diagnosticsFor(path)) {
    if (!overlaps(d.range, range)) continue;
    switch (d.code) {
      case 'missing_page_guard':
        out.push(addGuard(ctx, entry, d, sent));
        break;
      case 'malformed_route': {
        const slash = removeTrailingSlash(ctx, entry, d, sent);
        if (slash) out.push(slash);
        out.push(...splitOptional(ctx, entry, d, sent, opts));
        break;
      }
      case 'spa_dynamic_route_missing_paths':
        out.push(...missingPaths(ctx, entry, d, sent));
        break;
      case 'guard_requires_request_render':
        out.push(...requestRender(ctx, entry, d, sent));
        break;
      case 'missing_backend_handler': {
        const stub = missingHandler(ctx, entry, d, sent, opts);
        if (stub) {
          out.push(stub);
          stubOffered = true;
        }
        break;
      }
      default:
        break;
    }
  }
  if (!stubOffered) {
    const stub = cursorStub(ctx, entry, range, opts);
    if (stub) out.push(stub);
  }
  return out;
}
