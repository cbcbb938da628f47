// Each `.kit` file's own (local) rules, run into its entry: what takes it to the `Checked` stage.
// When they run is the workspace's policy (`stages.ts`).
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { KitEntry } from '../model/entries.js';
import type { CheckOptions } from '../model/options.js';
import { localDiagnostics } from '../validate/index.js';

/** A file's local diagnostics: what reading it found (invalid UTF-8) first, then its rules' findings. */
export function withReadIssues(readIssues: readonly Diagnostic[] | undefined, local: Diagnostic[]): Diagnostic[] {
  return readIssues?.length ? [...readIssues, ...local] : local;
}

/** Runs the local rules of `e` under `options` into `e.local`. */
export function runLocalRules(e: KitEntry, options: CheckOptions): void {
  e.local = withReadIssues(e.readIssues, localDiagnostics(e.ast, e.summary, options));
}
