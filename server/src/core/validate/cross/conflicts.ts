// Cross-file route rules: duplicate page routes, method/path conflicts
// and ambiguous dynamic routes. Each works on one index bucket so an edit re-runs only the buckets
// its old and new registrations touch.
import { ambiguousOverlap } from '#shared/route/index.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diag } from '../../diagnostics/registry.js';
import type { Registration } from '../../model/registrations.js';
import { compareRegistrations, type WorkspaceView } from '../../model/entries.js';
import { linksTouchedByRoutes, noteRoutes } from './links.js';
import { regKey, registrationsOfReg } from './reg-bucket.js';
import { bucket, type BucketKey, type CrossRule } from './rule.js';

function prefix(r: Registration): string {
  return r.pageId && r.source === 'kit' ? `${r.pageId}: ` : '';
}

/** Bucket `route:<shape>`: two PAGE routes with the same normalised pattern. */
export function duplicateRoutes(view: WorkspaceView, key: string): Diagnostic[] {
  const pages = view.registrationsIn(key).filter((r) => r.kind === 'page' && `route:${r.route.shapeKey}` === key);
  const out: Diagnostic[] = [];
  const first = pages[0];
  for (const r of pages.slice(1)) {
    out.push(
      diag(
        'duplicate_route',
        r.file,
        r.range,
        `${prefix(r)}duplicate page route "${r.route.pattern}"; first declared by page ${first.pageId} and ` +
          `duplicated by page ${r.pageId} (${first.file} and ${r.file})`,
        {
          related: [
            { file: first.file, range: first.range, message: `route "${first.route.pattern}" first declared here` },
          ],
        },
      ),
    );
  }
  return out;
}

function exempt(a: Registration, b: Registration): boolean {
  if (a.kind === 'page' && b.kind === 'page') return true; // duplicate_route reports it
  // A page and its own query contract may share the GET route: the one sanctioned negotiation.
  if ((a.kind === 'page' && b.kind === 'query') || (a.kind === 'query' && b.kind === 'page'))
    return a.pageId === b.pageId && a.file === b.file;
  if (a.contract !== undefined && a.kind === b.kind && a.contract === b.contract) return true;
  return false;
}

/** Bucket `reg:<METHOD> <shape>`: the same method and path claimed twice. */
/** `route_method_conflict` among the registrations of one `reg:` bucket (`registrationsOfReg`). */
function methodConflicts(regs: readonly Registration[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (let i = 1; i < regs.length; i++) {
    const r = regs[i];
    const prev = regs.slice(0, i).find((p) => !exempt(p, r));
    if (!prev) continue;
    out.push(
      diag(
        'route_method_conflict',
        r.file,
        r.range,
        `${prefix(r)}${r.method} ${r.route.pattern} for ${r.owner} conflicts with ${prev.owner}`,
        {
          related: [{ file: prev.file, range: prev.range, message: `${prev.owner} first declared here` }],
        },
      ),
    );
  }
  return out;
}

/** The bucket of a registration for the ambiguity rule: its first segment, `*` when dynamic. */
export function ambiguityBucket(r: Registration): BucketKey {
  const first = r.route.segments[0];
  if (!first) return 'amb:/';
  return first.kind === 'static' ? `amb:${first.value}` : AMB_DYNAMIC;
}

const AMB_DYNAMIC = 'amb:*';

/** The route module owns the ambiguity policy (which pairs count, and the overlap test). */
function overlapping(a: Registration, b: Registration): boolean {
  return ambiguousOverlap(
    { route: a.route, method: a.method, page: a.kind === 'page' },
    { route: b.route, method: b.method, page: b.kind === 'page' },
  );
}

function ambiguous(cur: Registration, prev: Registration): Diagnostic {
  return diag(
    'ambiguous_dynamic_route',
    cur.file,
    cur.range,
    `${prefix(cur)}ambiguous dynamic route "${cur.route.pattern}" overlaps "${prev.route.pattern}"; ${cur.owner} ` +
      `could match the same request path as ${prev.owner} (${prev.file} and ${cur.file})`,
    {
      related: [{ file: prev.file, range: prev.range, message: `${prev.owner} declares "${prev.route.pattern}" here` }],
    },
  );
}

function pushAt(m: Map<string, number[]>, key: string, value: number): void {
  const list = m.get(key);
  if (list) list.push(value);
  else m.set(key, [value]);
}

/**
 * A route's second segment when it is static, else undefined. Two routes whose second segments are
 * both static and differ never overlap (`routesOverlap` compares that position whenever a path could
 * match both): a site with a few hundred routes under one first segment, many of them rest routes,
 * would otherwise pair nearly all of them.
 */
function staticSecond(r: Registration): string | undefined {
  const s = r.route.segments[1];
  return s?.kind === 'static' ? s.value : undefined;
}

/** Index keys: a group (`all`, `dyn` of one length, `rest`, `any`), narrowed to one second segment or not. */
const ANY_SECOND = '\u0000';

/**
 * The earlier registrations of a bucket that could overlap a later one, by group: what has a given
 * second segment and what has none static (`ANY_SECOND` stands for every second segment when the
 * later one's is not static). Lists hold indices in ascending order.
 */
class EarlierIndex {
  private readonly lists = new Map<string, number[]>();

  add(i: number, r: Registration, second: string | undefined): void {
    const groups = r.route.hasRest
      ? ['rest', 'any']
      : r.route.isDynamic
        ? [`all ${r.route.segments.length}`, `dyn ${r.route.segments.length}`, 'any']
        : [`all ${r.route.segments.length}`, 'any'];
    for (const g of groups) {
      pushAt(this.lists, `${g}|${ANY_SECOND}`, i);
      pushAt(this.lists, `${g}|${second ?? ''}`, i);
    }
  }

  /** The indices in `groups` whose second segment is compatible with `second`, ascending. */
  compatible(groups: string[], second: string | undefined): number[] {
    const out: number[] = [];
    for (const g of groups) {
      if (second === undefined) out.push(...(this.lists.get(`${g}|${ANY_SECOND}`) ?? []));
      else out.push(...(this.lists.get(`${g}|${second}`) ?? []), ...(this.lists.get(`${g}|`) ?? []));
    }
    return out.sort((x, y) => x - y);
  }
}

/**
 * Bucket `amb:<first segment>`: pairs inside the bucket. Bucket `amb:*` (first segment dynamic):
 * pairs inside it and with every other registration, since a leading param overlaps any bucket.
 */
export function ambiguities(view: WorkspaceView, key: string): Diagnostic[] {
  const inBucket = view.registrationsIn(key).filter((r) => ambiguityBucket(r) === key);
  const others = key === AMB_DYNAMIC ? view.allRegistrations().filter((r) => ambiguityBucket(r) !== AMB_DYNAMIC) : [];
  const out: Diagnostic[] = [];
  // Two static routes are never ambiguous (ambiguousOverlap needs a dynamic side), two routes
  // without a rest param overlap only with as many segments, and two routes with different static
  // second segments never: each registration is paired with the earlier ones it could overlap (of
  // its length, the dynamic ones only for a static one, and the rest routes; every earlier one for
  // a rest route), in the order of the full pairwise loop: O(n·similar), not O(n²).
  const earlier = new EarlierIndex();
  const second = inBucket.map(staticSecond);
  for (let i = 0; i < inBucket.length; i++) {
    const cur = inBucket[i];
    const r = cur.route;
    const length = r.segments.length;
    const groups = r.hasRest ? ['any'] : [r.isDynamic ? `all ${length}` : `dyn ${length}`, 'rest'];
    for (const j of earlier.compatible(groups, second[i])) {
      const prev = inBucket[j];
      if (overlapping(cur, prev)) out.push(ambiguous(cur, prev));
    }
    earlier.add(i, cur, second[i]);
  }
  if (key === AMB_DYNAMIC) {
    const othersSecond = others.map(staticSecond);
    for (let i = 0; i < inBucket.length; i++) {
      const star = inBucket[i];
      const s = second[i];
      for (let j = 0; j < others.length; j++) {
        const other = others[j];
        if (s !== undefined && othersSecond[j] !== undefined && s !== othersSecond[j]) continue;
        if (!overlapping(star, other)) continue;
        const [prev, cur] = compareRegistrations(star, other) < 0 ? [star, other] : [other, star];
        out.push(ambiguous(cur, prev));
      }
    }
  }
  return out;
}

/** `duplicate_route`: two pages with the same route shape. */
export const duplicateRouteRule: CrossRule = {
  family: 'route',
  kitKeys: (e) => e.registrations.filter((r) => r.kind === 'page').map((r) => bucket('route', r.route.shapeKey)),
  evaluate: duplicateRoutes,
};

/** `method_conflict` and friends: two registrations of one method on one route shape. */
export const methodConflictRule: CrossRule = {
  family: 'reg',
  kitKeys: (e) => e.registrations.map(regKey),
  moduleKeys: (m) => m.registrations.map(regKey),
  evaluate: (ctx, key) => {
    const regs = registrationsOfReg(ctx, key);
    noteRoutes(ctx, key, regs);
    return methodConflicts(regs);
  },
  // Links resolve against every registration, and suggest the closest of all of them.
  touches: (key, ctx) => linksTouchedByRoutes(key, ctx),
};

/** `ambiguous_dynamic_route`; a bucket per first segment, and `amb:*` that pairs with all of them. */
export const ambiguityRule: CrossRule = {
  family: 'amb',
  kitKeys: (e) => e.registrations.map(ambiguityBucket),
  moduleKeys: (m) => m.registrations.map(ambiguityBucket),
  evaluate: ambiguities,
  touches: (key) => (key === AMB_DYNAMIC ? [] : [AMB_DYNAMIC]),
};
