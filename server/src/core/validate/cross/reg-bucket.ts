// The `reg:<METHOD> <shape>` bucket: the registrations of one method on one route shape. Method
// conflicts are judged per bucket, and links read the workspace's routes through these buckets.
import type { Registration } from '../../model/registrations.js';
import type { WorkspaceView } from '../../model/entries.js';
import { bucket, type BucketKey } from './rule.js';

/** The `reg:` bucket a registration is in. */
export function regKey(r: Registration): BucketKey {
  return bucket('reg', `${r.method} ${r.route.shapeKey}`);
}

/** The registrations of a `reg:` bucket (its members' other registrations left out), in global order. */
export function registrationsOfReg(view: WorkspaceView, key: string): Registration[] {
  return view.registrationsIn(key).filter((r) => regKey(r) === key);
}
