// What cross-file rules may read: the entries of the workspace, in the global declaration order.
import type { KitFile } from '../../../../../grammar/src/ast.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { HandlerModuleSummary } from '../../model/handler-modules.js';
import type { Registration } from '../../model/registrations.js';
import type { FileSummary } from '../../model/summary.js';
import type { CrossFingerprint } from '../../model/fingerprint.js';

export interface KitEntry {
  path: string;
  text: string;
  ast: KitFile;
  summary: FileSummary;
  registrations: Registration[];
  local: Diagnostic[];
  keys: string[];
  /** See `model/fingerprint.ts`. */
  fingerprint?: CrossFingerprint;
}

export interface ModuleEntry {
  path: string;
  text: string;
  summary: HandlerModuleSummary;
  registrations: Registration[];
  local: Diagnostic[];
  keys: string[];
}

export interface WorkspaceView {
  /** Kit entries of the files in a bucket, sorted by path. */
  kitMembers(key: string): KitEntry[];
  moduleMembers(key: string): ModuleEntry[];
  kit(path: string): KitEntry | undefined;
  /** Every kit entry, sorted by path. */
  allKit(): KitEntry[];
  /** Every registration of kit files and modules, in global order. */
  allRegistrations(): Registration[];
  /** Registrations of the members of a bucket, in global order. */
  registrationsIn(key: string): Registration[];
}

/** Global "first declared" order: file path, then position inside the file. */
export function compareRegistrations(a: Registration, b: Registration): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.order - b.order;
}
