// What cross-file rules may read: the entries of the workspace, in the global declaration order,
// and how far each `.kit` entry has been computed (its stage).
import type { KitFile } from '#grammar/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ConfigSettings } from './app-config.js';
import type { HandlerModuleSummary } from './handler-modules.js';
import type { Registration } from './registrations.js';
import type { FileSummary } from './summary.js';

/**
 * How far a `.kit` entry has been computed, in the spirit of Langium's `DocumentState`: each stage
 * implies those before it, and which stage a file reaches when is the workspace's policy
 * (`workspace/stages.ts`). The text is always there.
 */
export const KitStage = {
  /**
   * The declarations: a page's multi-line views are parsed without their markup, so the summary
   * lacks what markup says (component calls, links, assets) and no rule may read the file yet.
   */
  Declarations: 1,
  /** The whole tree: the summary is complete and cross-file rules read the file. */
  Markup: 2,
  /** Its own (local) rules have run: `local` holds its diagnostics. */
  Checked: 3,
  /**
   * Checked, and its markup dropped (`markup-release.ts`): the entry keeps the text, the
   * declarations, the summary and the diagnostics; reading a view or fragment body parses it again.
   */
  Summary: 4,
} as const;
export type KitStage = (typeof KitStage)[keyof typeof KitStage];

export interface KitEntry {
  path: string;
  text: string;
  ast: KitFile;
  summary: FileSummary;
  registrations: Registration[];
  /** Its own diagnostics: what reading it found, and its rules' findings once `Checked`. */
  local: Diagnostic[];
  /** What reading the file found (invalid UTF-8); part of `local` too. */
  readIssues?: Diagnostic[];
  keys: string[];
  stage: KitStage;
}

export interface ModuleEntry {
  path: string;
  text: string;
  summary: HandlerModuleSummary;
  registrations: Registration[];
  local: Diagnostic[];
  /** What reading the file found (invalid UTF-8); part of `local` too. */
  readIssues?: Diagnostic[];
  /** An app config module's settings and guard IDs (`kit.config.*` only); its diagnostics are in `local`. */
  config?: ConfigSettings;
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

/** Registration groups in the order the original registers them. */
const GROUP: Record<Registration['source'], number> = { kit: 0, comment: 1, contract: 2 };

/**
 * Global "first declared" order: page routes and the endpoints of `.kit` files first, then
 * `//kit:` comment endpoints of handler modules, then `g:command`/`g:query` contract paths; within
 * each group by file path, then by position inside the file.
 */
export function compareRegistrations(a: Registration, b: Registration): number {
  if (a.source !== b.source) {
    const d = GROUP[a.source] - GROUP[b.source];
    if (d !== 0) return d;
  }
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.order - b.order;
}
