// The cross-file rules, one per bucket family. Adding one: write the rule (a `CrossRule` in its own
// file, or beside its siblings), add its family to `FAMILIES` in `./rule.ts`, and list it here.
import { bindingRule } from './bindings.js';
import { componentCallRule, componentUseRule, layoutDefRule, layoutUseRule } from './composition.js';
import { componentCycleRule, layoutCycleRule } from './composition-cycles.js';
import { ambiguityRule, duplicateRouteRule, methodConflictRule } from './conflicts.js';
import { guardConfigRule, unknownGuardRule } from './guards.js';
import { componentNameRule, pageIdRule } from './identity.js';
import { brokenLinkRule } from './links.js';
import type { CrossRule, Family } from './rule.js';

export const CROSS_RULES: readonly CrossRule[] = [
  duplicateRouteRule,
  methodConflictRule,
  ambiguityRule,
  pageIdRule,
  componentNameRule,
  componentUseRule,
  componentCallRule,
  componentCycleRule,
  layoutDefRule,
  layoutUseRule,
  layoutCycleRule,
  unknownGuardRule,
  guardConfigRule,
  bindingRule,
  brokenLinkRule,
];

const BY_FAMILY = new Map<Family, CrossRule>(CROSS_RULES.map((r) => [r.family, r]));

export function crossRule(family: Family): CrossRule | undefined {
  return BY_FAMILY.get(family);
}

export {
  bucket,
  FAMILIES,
  familyOf,
  idOf,
  type BucketKey,
  type CrossContext,
  type CrossRule,
  type Family,
} from './rule.js';
