// The local rules (one file at a time) in the order their diagnostics are produced.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { KitFile } from '#grammar/index.js';
import type { FileSummary } from '../model/summary.js';
import type { CheckOptions } from '../model/options.js';
import type { LocalRule } from './context.js';
import { structureRule } from './structure.js';
import { routesRule } from './routes.js';
import { guardsRule } from './guards.js';
import { cacheRule } from './cache.js';
import { endpointsRule } from './endpoints.js';
import { viewRule } from './view.js';
import { componentsRule } from './components.js';
import { assetsRule } from './assets.js';
import { formErrorsRule } from './form-errors.js';
import { namesRule } from './names.js';

export const LOCAL_RULES: readonly LocalRule[] = [
  structureRule,
  routesRule,
  guardsRule,
  cacheRule,
  endpointsRule,
  viewRule,
  namesRule,
  componentsRule,
  assetsRule,
  formErrorsRule,
];

export function localDiagnostics(file: KitFile, summary: FileSummary, options: CheckOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of file.diagnostics)
    out.push({ code: d.code, severity: d.severity, message: d.message, file: file.path, range: d.range });
  const ctx = {
    file,
    summary,
    options,
    report: (d: Diagnostic) => {
      out.push(d);
    },
  };
  for (const rule of LOCAL_RULES) rule(ctx);
  return out;
}

export type { CheckOptions } from '../model/options.js';
