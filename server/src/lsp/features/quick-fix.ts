// What every quick fix of `code-actions.ts` and `handler-stubs.ts` is made of: a `CodeAction` with its
// edit, tied to the client's copy of the diagnostic it fixes.
import {
  CodeActionKind,
  type CodeAction,
  type Diagnostic as LspDiagnostic,
  type Range as LspRange,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import { toRange } from '../convert.js';

export interface CodeActionOptions {
  /** The client can create files in a workspace edit (`resourceOperations` includes `create`). */
  canCreateFiles: boolean;
}

export function lineStart(line: number): LspRange {
  return { start: { line, character: 0 }, end: { line, character: 0 } };
}

/** The client's copy of a core diagnostic, so the action shows on its squiggle. */
export function clientDiagnostic(sent: LspDiagnostic[], d: Diagnostic): LspDiagnostic[] {
  const r = toRange(d.range);
  return sent.filter(
    (x) => x.code === d.code && x.range.start.line === r.start.line && x.range.start.character === r.start.character,
  );
}

export function action(
  title: string,
  edit: WorkspaceEdit,
  diagnostics: LspDiagnostic[],
  preferred = false,
): CodeAction {
  const a: CodeAction = { title, kind: CodeActionKind.QuickFix, edit };
  if (diagnostics.length) a.diagnostics = diagnostics;
  if (preferred) a.isPreferred = true;
  return a;
}
