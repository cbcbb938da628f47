// The `reg:<METHOD> <shape>` bucket: the registrations of one method on one route shape. Method
// conflicts are judged per bucket, and links read the workspace's routes through these buckets.
import type { Registration } from '../../model/registrations.js';
import type { WorkspaceView } from '../../model/entries.js';
import { bucket, idOf, type BucketKey } from './rule.js';

/** The `reg:` bucket a registration is in. */
export function regKey(r: Registration): BucketKey {
  return bucket('reg', `${r.method} ${r.route.shapeKey}`);
}

/** The method and shape key a `reg:<METHOD> <shape>` bucket key names. */
export function regKeyParts(key: string): { method: string; shape: string } {
  const id = idOf(key);
  const space = id.indexOf(' ');
  return { method: id.slice(0, space), shape: id.slice(space + 1) };
}

/** The registrations of a `reg:` bucket (its members' other registrations left out), in global order. */
export function registrationsOfReg(view: WorkspaceView, key: string): Registration[] {
  // Compared with the key's parts: no key built per registration to compare with it.
  const { method, shape } = regKeyParts(key);
  return view.registrationsIn(key).filter((r) => r.method === method && r.route.shapeKey === shape);
}

/**
 * Every `reg:` bucket's registrations, as `registrationsOfReg` gives each, from one pass over the
 * workspace's (already ordered) registrations: for a reader of all the buckets at once, which would
 * otherwise gather and sort each bucket's members separately.
 */
export function registrationsByReg(view: WorkspaceView): Map<string, Registration[]> {
  const out = new Map<string, Registration[]>();
  for (const r of view.allRegistrations()) {
    const key = regKey(r);
    const list = out.get(key);
    if (list) list.push(r);
    else out.set(key, [r]);
  }
  return out;
}
