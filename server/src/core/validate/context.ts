// What every local rule receives: one parsed file, its summary and the check options.
import type { KitFile } from '../../../../grammar/src/ast.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { FileSummary } from '../model/summary.js';

export interface CheckOptions {
  /** `--ssr`: request-time rendering is enabled. */
  ssr: boolean;
  /** `kit build --strict-bindings`: a missing or unusable handler is an error (`backend_binding_required`). */
  strictBindings?: boolean;
}

export interface RuleContext {
  file: KitFile;
  summary: FileSummary;
  options: CheckOptions;
  report(d: Diagnostic): void;
}

export type LocalRule = (ctx: RuleContext) => void;
