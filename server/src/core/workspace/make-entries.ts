// A workspace entry made from what one file says by itself: a `.kit` file's analysis, or a handler
// module's scan under the package of its directory (and an app config's settings); each with the
// bucket keys the cross-file rules take from it.
import { readConfigSettings } from '../bind/config-reader.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { isAppConfigPath } from '../model/app-config.js';
import type { KitEntry, KitStage, ModuleEntry } from '../model/entries.js';
import { scanHandlerModule } from '../model/handler-modules.js';
import { commentRegistrations } from '../model/registrations.js';
import { commentEndpointDiagnostics } from '../validate/comment-endpoints.js';
import { CROSS_RULES, type BucketKey } from '../validate/cross/index.js';
import type { KitAnalysis } from './analyse-kit.js';
import { withReadIssues } from './local-rules.js';

/** The rules that take keys from `.kit` files, and from handler modules. */
const KIT_RULES = CROSS_RULES.filter((r) => r.kitKeys);
const MODULE_RULES = CROSS_RULES.filter((r) => r.moduleKeys);

/** A rule's keys are compared in a list up to this many (a set beyond: a file with hundreds of endpoints). */
const LISTED_KEYS = 16;

/**
 * The buckets an entry is a member of: the keys every cross-file rule takes from it, each once.
 * Keys of two rules never meet (each begins with its rule's family), so only one rule's own keys
 * are compared: every file indexes a dozen keys, and a set per file was a third of indexing.
 */
function entryKeys(e: KitEntry | ModuleEntry, kind: 'kit' | 'module'): BucketKey[] {
  const keys: BucketKey[] = [];
  for (const rule of kind === 'kit' ? KIT_RULES : MODULE_RULES) {
    const ks = kind === 'kit' ? rule.kitKeys!(e as KitEntry) : rule.moduleKeys!(e as ModuleEntry);
    const from = keys.length;
    let seen: Set<BucketKey> | undefined;
    for (const k of ks) {
      if (seen === undefined && keys.length - from < LISTED_KEYS) {
        if (!keys.includes(k, from)) keys.push(k);
        continue;
      }
      seen ??= new Set(keys.slice(from));
      if (seen.has(k)) continue;
      seen.add(k);
      keys.push(k);
    }
  }
  return keys;
}

/**
 * `stage`: how far `a` goes (`KitStage`). `readIssues`: what reading the file found (invalid UTF-8),
 * kept first among its diagnostics.
 */
export function kitEntry(
  path: string,
  text: string,
  a: KitAnalysis,
  stage: KitStage,
  readIssues?: Diagnostic[],
): KitEntry {
  // Written out, not spread from `a`: a spread after other properties copies one property at a time.
  const entry: KitEntry = {
    path,
    text,
    ast: a.ast,
    summary: a.summary,
    registrations: a.registrations,
    local: a.local,
    keys: [],
    stage,
  };
  if (readIssues?.length) {
    entry.readIssues = readIssues;
    entry.local = withReadIssues(readIssues, entry.local);
  }
  entry.keys = entryKeys(entry, 'kit');
  return entry;
}

/** `pkg`: the package of the module's directory (its comment endpoints are named in it). */
export function moduleEntry(path: string, text: string, pkg: string, readIssues: Diagnostic[]): ModuleEntry {
  const summary = scanHandlerModule(path, text);
  const config = isAppConfigPath(path) ? readConfigSettings(path, text) : undefined;
  const entry: ModuleEntry = {
    path,
    text,
    summary,
    registrations: commentRegistrations(path, pkg, summary.endpoints),
    local: [
      ...readIssues,
      ...summary.diagnostics,
      ...commentEndpointDiagnostics(path, text, pkg, summary.endpoints),
      ...(config?.diagnostics ?? []),
    ],
    keys: [],
  };
  if (config) entry.config = config;
  entry.keys = entryKeys(entry, 'module');
  if (readIssues.length) entry.readIssues = readIssues;
  return entry;
}
