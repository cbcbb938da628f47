// The quick fix that creates a missing handler: a stub of the right signature appended to the
// directory's handler module (or in a new `handlers.ts` when the client can create files), offered
// on a `missing_backend_handler` diagnostic and, without one, on an endpoint symbol or `server`
// block whose function does not exist yet.
import type { CodeAction, Diagnostic as LspDiagnostic, Range as LspRange } from 'vscode-languageserver';
import { findBinding, type BindTargetKind, type HandlerBinding } from '#core/bind/types.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import type { KitEntry } from '#core/model/entries.js';
import { baseName, dirName, loadFunctionName } from '#core/model/names.js';
import { offsetOf } from '../convert.js';
import type { FeatureContext } from './context.js';
import { locate } from './locate.js';
import { handlerExport } from './navigation.js';
import { action, clientDiagnostic, lineStart, type CodeActionOptions } from './quick-fix.js';

function stubSource(target: BindTargetKind, name: string): string {
  switch (target) {
    case 'api':
      return (
        `export async function ${name}(ctx: unknown, request: Request): Promise<Response> {\n  void ctx;\n  ` +
        `void request;\n  return Response.json({ error: '${name} is not implemented yet' }, { status: 501 });\n}\n`
      );
    case 'load':
      return (
        `export async function ${name}(ctx: unknown): Promise<Record<string, unknown>> {\n  void ctx;\n  ` +
        `return {};\n}\n`
      );
    case 'fragment':
    case 'query':
      return (
        `export async function ${name}(ctx: unknown): Promise<Record<string, unknown>> {\n  void ctx;\n  ` +
        `return {};\n}\n`
      );
    default:
      return (
        `export async function ${name}(ctx: unknown): Promise<Response> {\n  void ctx;\n  return new ` +
        `Response('${name} is not implemented yet', { status: 501 });\n}\n`
      );
  }
}

function endPosition(text: string): { line: number; character: number } {
  const lines = text.split(/\r\n|\r|\n/);
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
}

function stubAction(
  ctx: FeatureContext,
  entry: KitEntry,
  target: BindTargetKind,
  functionName: string,
  binding: HandlerBinding | undefined,
  diags: LspDiagnostic[],
  opts: CodeActionOptions,
): CodeAction | undefined {
  const dir = dirName(entry.path);
  const sibling = ctx.ws.allModules().find((m) => dirName(m.path) === dir);
  const file = binding?.stubFile ?? sibling?.path ?? (dir === '.' ? 'handlers.ts' : `${dir}/handlers.ts`);
  const existing = ctx.ws.module(file);
  const uri = ctx.uriOf(file);
  const source = stubSource(target, functionName);
  const title = `Create ${functionName} in ${baseName(file)}`;
  if (existing) {
    const end = endPosition(existing.text);
    const sep = existing.text === '' ? '' : existing.text.endsWith('\n') ? '\n' : '\n\n';
    return action(title, { changes: { [uri]: [{ range: { start: end, end }, newText: sep + source }] } }, diags, true);
  }
  if (!opts.canCreateFiles) return undefined;
  return action(
    title,
    {
      documentChanges: [
        { kind: 'create', uri, options: { ignoreIfExists: true } },
        { textDocument: { uri, version: null }, edits: [{ range: lineStart(0), newText: source }] },
      ],
    },
    diags,
    true,
  );
}

export function missingHandler(
  ctx: FeatureContext,
  entry: KitEntry,
  d: Diagnostic,
  sent: LspDiagnostic[],
  opts: CodeActionOptions,
): CodeAction | undefined {
  const b = ctx.ws
    .bindingFor(entry.path)
    ?.handlers.find((h) => h.status === 'missing' && h.range.start.offset === d.range.start.offset);
  if (!b) return undefined;
  return stubAction(ctx, entry, b.target, b.functionName, b, clientDiagnostic(sent, d), opts);
}

/** Without a diagnostic: an endpoint symbol (or `server`) under the cursor whose function does not exist yet. */
export function cursorStub(
  ctx: FeatureContext,
  entry: KitEntry,
  range: LspRange,
  opts: CodeActionOptions,
): CodeAction | undefined {
  const t = locate(entry, offsetOf(entry.ast, range.start));
  if (!t) return undefined;
  let target: BindTargetKind | undefined;
  let name = '';
  if (t.kind === 'endpoint' && t.part === 'symbol') {
    target = t.decl.kind === 'act' ? 'action' : t.decl.kind === 'api' ? 'api' : 'fragment';
    name = t.decl.kind === 'fragment' ? t.decl.name.text : t.decl.symbol.text;
  } else if (t.kind === 'server') {
    target = 'load';
    name = loadFunctionName(entry.summary.ownerId);
  }
  if (!target || !/^[A-Z]/.test(name) || handlerExport(ctx, entry.path, target, name)) return undefined;
  return stubAction(ctx, entry, target, name, findBinding(ctx.ws.bindingFor(entry.path), target, name), [], opts);
}
