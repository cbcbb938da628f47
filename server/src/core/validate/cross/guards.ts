// `unknown_guard`: a protective guard ID that no app config module (`kit.config.ts`) registers.
// Generated apps fail closed for such IDs (403), so the checker says so before anyone deploys.
// Buckets: `guard:<id>` holds the `.kit` files and handler modules using the ID, `guardcfg` the
// config modules; a config change re-evaluates every `guard:` bucket.
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diag } from '../../diagnostics/registry.js';
import { didYouMean } from '../../diagnostics/suggest.js';
import { isAppConfigPath } from '../../model/app-config.js';
import type { HandlerModuleSummary } from '../../model/handler-modules.js';
import { baseName } from '../../model/names.js';
import type { FileSummary } from '../../model/summary.js';
import type { WorkspaceView } from '../../model/entries.js';
import { bucket, type BucketKey, type CrossRule } from './rule.js';

const GUARD_CONFIG_KEY = 'guardcfg';
const PUBLIC = 'public';

/** Bucket keys of a `.kit` file: one per protective guard it declares. */
function kitGuardKeys(s: FileSummary): BucketKey[] {
  return s.guards.filter((g) => g !== PUBLIC).map((g) => bucket('guard', g));
}

/** Bucket keys of a handler module: its `//kit:guard` IDs. */
function moduleGuardKeys(summary: HandlerModuleSummary): BucketKey[] {
  const keys: BucketKey[] = [];
  for (const e of summary.endpoints) for (const g of e.guards ?? []) if (g !== PUBLIC) keys.push(bucket('guard', g));
  return keys;
}

export function unknownGuards(ws: WorkspaceView, key: string): Diagnostic[] {
  const id = key.slice('guard:'.length);
  const configs = ws.moduleMembers(GUARD_CONFIG_KEY);
  const registered: string[] = [];
  for (const c of configs) {
    const r = c.config?.guards;
    // A guards table kit cannot read statically (built by a function, spread in): no guessing.
    if (!r || !r.complete || r.ids.has(id)) return [];
    registered.push(...r.ids);
  }
  // A config change re-evaluates every guard bucket (`guardConfigRule`), so the suggestion follows it.
  const where =
    configs.length === 0
      ? 'no kit.config.ts (or .mts, .js, .mjs) beside the .kit files or at the project root registers guards'
      : `${configs.map((c) => baseName(c.path)).join(', ')} does not register it` + didYouMean(id, registered);
  const out: Diagnostic[] = [];
  for (const e of ws.kitMembers(key)) {
    const s = e.summary;
    for (const g of s.guardDecl?.guards ?? []) {
      if (g.text !== id) continue;
      out.push(
        diag(
          'unknown_guard',
          s.path,
          g.range,
          `${s.ownerId}: guard "${id}" is not registered (${where}); its requests are denied (403) until ` +
            `guards["${id}"] is added to the app config`,
        ),
      );
    }
  }
  for (const m of ws.moduleMembers(key)) {
    for (const e of m.summary.endpoints) {
      if (!e.guards?.includes(id)) continue;
      out.push(
        diag(
          'unknown_guard',
          m.path,
          e.range,
          `${e.kind} ${e.method} ${e.path} (${e.functionName}): guard "${id}" is not registered (${where}); its ` +
            `requests are denied (403) until guards["${id}"] is added to the app config`,
        ),
      );
    }
  }
  return out;
}

/** `unknown_guard`: the users of one guard ID, against the config modules. */
export const unknownGuardRule: CrossRule = {
  family: 'guard',
  kitKeys: (e) => kitGuardKeys(e.summary),
  moduleKeys: (m) => moduleGuardKeys(m.summary),
  evaluate: unknownGuards,
};

/** The app config modules: every guard bucket reads them. */
export const guardConfigRule: CrossRule = {
  family: 'guardcfg',
  moduleKeys: (m) => (isAppConfigPath(m.path) ? [GUARD_CONFIG_KEY] : []),
  touches: (_key, ctx) => ctx.keysOf('guard'),
};
