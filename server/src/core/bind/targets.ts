// What a directory needs bound: the handler symbols of its pages' `act`/`api`/`fragment` lines,
// `Load<PageID>` of pages with `server {}`, the `g:command`/`g:query` contracts of their views,
// and the functions under the `//kit:` endpoint comments of its modules.
import type { KitEntry } from '../model/entries.js';
import type { CommentEndpoint } from '../model/handler-modules.js';
import { loadFunctionName } from '../model/names.js';
import { packageOfUse } from '../resolve/names.js';
import type { FieldPath, Range } from '#grammar/index.js';
import type { BindSubject } from './types.js';

export interface BindTarget extends BindSubject {
  /** A load's declared fields (`server { => { a, b.c } }`): its result must have each. */
  fields?: readonly FieldPath[];
  /** Package whose directories are searched when not the target's own (`alias.Name` contracts). */
  otherPackage?: string;
  /** A `//kit:` comment endpoint: bound to the function the comment sits on, in this module. */
  commentModule?: string;
}

/** Per entry (a new version of a file is a new entry): a bind asks once to plan and once to bind. */
const targetsOfEntry = new WeakMap<KitEntry, readonly BindTarget[]>();

export function kitTargets(e: KitEntry): readonly BindTarget[] {
  let out = targetsOfEntry.get(e);
  if (!out) targetsOfEntry.set(e, (out = targetsOf(e)));
  return out;
}

/** A target of `e` (object literals, not spreads: this runs for every page of every bound directory). */
function target(e: KitEntry, kind: BindTarget['target'], name: string, functionName: string, range: Range): BindTarget {
  return { file: e.path, ownerId: e.summary.ownerId, target: kind, name, functionName, range };
}

function targetsOf(e: KitEntry): BindTarget[] {
  const s = e.summary;
  if (s.kind !== 'page') return [];
  const out: BindTarget[] = [];
  for (const a of s.actions) out.push(target(e, 'action', a.symbol.text, a.symbol.text, a.symbol.range));
  for (const a of s.apis) out.push(target(e, 'api', a.symbol.text, a.symbol.text, a.symbol.range));
  for (const f of s.fragments) out.push(target(e, 'fragment', f.name.text, f.name.text, f.name.range));
  if (s.server) {
    const name = loadFunctionName(s.ownerId);
    const load = target(e, 'load', name, name, s.server.keyword);
    load.fields = s.server.fields;
    out.push(load);
  }
  const seen = new Set<string>();
  for (const c of s.contractRefs) {
    if (!c.name || seen.has(`${c.kind} ${c.name}`)) continue;
    seen.add(`${c.kind} ${c.name}`);
    const dot = c.name.lastIndexOf('.');
    const t = target(e, c.kind, c.name, c.name.slice(dot + 1), c.range);
    if (dot > 0) {
      const use = s.uses.get(c.name.slice(0, dot));
      t.otherPackage = use ? packageOfUse(use.pkg.value) : c.name.slice(0, dot);
    }
    out.push(t);
  }
  return out;
}

export function commentTargets(
  m: { path: string; summary: { endpoints: readonly CommentEndpoint[] } },
  packageName: string,
): BindTarget[] {
  return m.summary.endpoints.map((e) => ({
    target: e.kind === 'act' ? 'action' : 'api',
    name: e.functionName,
    functionName: e.functionName,
    file: m.path,
    range: e.range,
    ownerId: `${packageName}.${e.functionName}`,
    commentModule: m.path,
  }));
}
