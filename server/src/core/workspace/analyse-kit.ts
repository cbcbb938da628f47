// What a `.kit` file says by itself, from its tree: the summary, the registrations and the local
// diagnostics. The workspace computes it for each file it parses, and loading threads
// (`core/project/parse-pool.ts`) for the files they parse, with this one function, so that an
// entry reads the same whichever thread made it.
import type { KitFile } from '#grammar/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { CheckOptions } from '../model/options.js';
import { fileRegistrations, type Registration } from '../model/registrations.js';
import { summarize, type FileSummary } from '../model/summary.js';
import { localDiagnostics } from '../validate/index.js';

export interface KitAnalysis {
  ast: KitFile;
  summary: FileSummary;
  registrations: Registration[];
  /** The local rules' diagnostics (what reading the file found is not among them). */
  local: Diagnostic[];
}

/** `local: false` leaves the local rules for later (`local` is then empty; see `Workspace`). */
export function analyseKit(ast: KitFile, options: CheckOptions, local = true): KitAnalysis {
  const summary = summarize(ast);
  return {
    ast,
    summary,
    registrations: fileRegistrations(summary),
    local: local ? localDiagnostics(ast, summary, options) : [],
  };
}
