// What every local rule receives: one parsed file, its summary and the check options.
import type { KitFile } from '#grammar/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { CheckOptions } from '../model/options.js';
import type { FileSummary } from '../model/summary.js';

export interface RuleContext {
  file: KitFile;
  summary: FileSummary;
  options: CheckOptions;
  report(d: Diagnostic): void;
}

export type LocalRule = (ctx: RuleContext) => void;
