// `broken_internal_link`: a literal root-relative link (`<a href="/…">`, a plain form's `action`)
// that no route of the workspace answers. Matching is by route shape through `shared/route`
// (`matchRoute`): `/blog/any-slug` is a link into `/blog/{slug}` whatever its `paths {}` say.
// The query and fragment are ignored; a trailing slash is ignored too (the app redirects it).
// Not checked: links with `{…}` values (not collected), `/_kit/…` (the app's own endpoints), and a
// last segment with a file extension that matches no route (a static file kit does not know of).
//
// Buckets `link:<first segment>` hold the files whose links start with that segment: editing a link
// re-evaluates the links of its segment only. A route registration (`reg:<METHOD> <shape>`) joining
// or leaving re-evaluates the link buckets it may answer or be suggested for
// (`methodConflictRule.touches`); an edit inside a view that leaves the routes alone never does.
import { matchRoute, PARAM_SHAPE, REST_SHAPE } from '#shared/route/index.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diag } from '../../diagnostics/registry.js';
import type { InternalLink } from '../../model/summary.js';
import type { Registration } from '../../model/registrations.js';
import type { WorkspaceView } from '../../model/entries.js';
import { typoDistance } from '#grammar/index.js';
import { NearRoutes } from './near-route.js';
import { registrationsByReg, registrationsOfReg, regKeyParts } from './reg-bucket.js';
import { bucket, idOf, type BucketKey, type CrossContext, type CrossRule } from './rule.js';

/** Up to this many segments a link's candidate shapes are enumerated (2^n of them). */
const MAX_ENUMERATED_SEGMENTS = 10;

/**
 * Segments by href, shared: a site links to the same few paths from most of its pages, and each
 * link is cut up when its file is indexed and again when its bucket is evaluated. Callers never
 * change the arrays.
 */
const segmentsByHref = new Map<string, readonly string[] | null>();
const SEGMENTS_KEPT = 50_000;

/** The decoded path segments of a link (`/` is `[]`), or undefined when it cannot be a request path. */
export function linkSegments(href: string): readonly string[] | undefined {
  // `null`: known not to be a request path (one lookup answers both).
  const known = segmentsByHref.get(href);
  if (known !== undefined) return known ?? undefined;
  if (segmentsByHref.size >= SEGMENTS_KEPT) segmentsByHref.clear();
  const segs = cutLink(href);
  segmentsByHref.set(href, segs ?? null);
  return segs;
}

/** Where the query or fragment of `href` starts (`?` or `#`), or -1. */
function queryStart(href: string): number {
  for (let i = 0; i < href.length; i++) {
    const c = href.charCodeAt(i);
    if (c === 63 || c === 35) return i;
  }
  return -1;
}

function cutLink(href: string): string[] | undefined {
  let path = href;
  const cut = queryStart(path);
  if (cut >= 0) path = path.slice(0, cut);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (path === '/') return [];
  const raw = path.slice(1).split('/');
  const out: string[] = [];
  for (const r of raw) {
    if (r === '') return undefined;
    // Without a `%` there is nothing to decode, and nothing that could fail to.
    if (!r.includes('%')) {
      out.push(r);
      continue;
    }
    try {
      out.push(decodeURIComponent(r));
    } catch {
      return undefined;
    }
  }
  return out;
}

function firstSegment(href: string): string | undefined {
  const segs = linkSegments(href);
  return segs === undefined ? undefined : (segs[0] ?? '');
}

function linkKeys(links: readonly InternalLink[]): BucketKey[] {
  // A page's links mostly share their first segment: each distinct one makes its key once.
  const firsts = new Set<string>();
  for (const l of links) {
    const first = firstSegment(l.href);
    if (first !== undefined && first !== '_kit') firsts.add(first);
  }
  const keys: BucketKey[] = [];
  for (const first of firsts) keys.push(bucket('link', first));
  return keys;
}

/** Shape keys (`/blog/{}`, `/docs/{**}`) of every route pattern that could answer `segs`: 2^(n+1) - 1 at most. */
function candidateShapes(segs: readonly string[]): string[] {
  let prefixes = [''];
  const out: string[] = [];
  if (segs.length === 0) return ['/'];
  for (let i = 0; i < segs.length; i++) {
    for (const p of prefixes) out.push(`${p}/${REST_SHAPE}`);
    const next: string[] = [];
    for (const p of prefixes) next.push(`${p}/${segs[i]}`, `${p}/${PARAM_SHAPE}`);
    prefixes = next;
  }
  // The literal path first: most links name a static route, and the first match ends the search.
  return [...prefixes, ...out];
}

/**
 * What links know of one workspace's routes (per rule context): each `reg:` bucket's routes as
 * they last saw them, whether a path is answered (a site links to the same few paths from most of
 * its pages), and the near-route index, made at the first suggestion. `linksTouchedByRoutes` sees
 * every change of a `reg:` bucket: it forgets the answers and updates the index.
 */
interface RouteKnowledge {
  /**
   * By `reg:` key, as `routesOf` reads them; on the first load the registrations themselves (they
   * never change: an edit makes new ones), read only if an edit touches the bucket.
   */
  seen: Map<string, string | readonly Registration[]>;
  /** By method, then by href as written (no key to build per link). */
  answered: Record<InternalLink['method'], Map<string, boolean>>;
  near?: NearRoutes;
}

const knowledge = new WeakMap<object, RouteKnowledge>();

function knowledgeOf(ctx: WorkspaceView): RouteKnowledge {
  let k = knowledge.get(ctx);
  // `near` is there from the start: set later, it changed the object's shape under optimised code.
  if (!k) knowledge.set(ctx, (k = { seen: new Map(), answered: { GET: new Map(), POST: new Map() }, near: undefined }));
  return k;
}

function nearOf(ctx: CrossContext): NearRoutes {
  const k = knowledgeOf(ctx);
  if (!k.near) {
    k.near = new NearRoutes();
    const byReg = registrationsByReg(ctx);
    for (const key of ctx.keysOf('reg')) k.near.set(key, byReg.get(key) ?? []);
  }
  return k.near;
}

function isAnswered(ctx: CrossContext, link: InternalLink, segs: readonly string[]): boolean {
  const answered = knowledgeOf(ctx).answered[link.method];
  let yes = answered.get(link.href);
  if (yes === undefined) answered.set(link.href, (yes = answeringRoutes(ctx, link, segs)));
  return yes;
}

function answeringRoutes(ctx: CrossContext, link: InternalLink, segs: readonly string[]): boolean {
  return visitMatchingRoutes(ctx, link.method, segs, () => true);
}

/**
 * Visits each registration of `method` whose route matches the decoded request segments `segs`,
 * once, found through the `reg:` buckets of the shapes that could answer them (every registration
 * past `MAX_ENUMERATED_SEGMENTS`), in no particular order; stops at the first visit that answers
 * true, and tells whether one did. The links' rule and the editor's URL questions
 * (`report/url-routing.ts`) both find routes this way.
 */
export function visitMatchingRoutes(
  view: WorkspaceView,
  method: string,
  segs: readonly string[],
  visit: (r: Registration) => boolean | void,
): boolean {
  if (segs.length > MAX_ENUMERATED_SEGMENTS) {
    for (const r of view.allRegistrations())
      if (r.method === method && matchRoute(r.route, segs) !== undefined && visit(r)) return true;
    return false;
  }
  for (const shape of candidateShapes(segs)) {
    // A bucket holds every registration of its member files: those of other shapes are visited in their own.
    for (const r of view.registrationsIn(bucket('reg', `${method} ${shape}`)))
      if (r.method === method && r.route.shapeKey === shape && matchRoute(r.route, segs) !== undefined && visit(r))
        return true;
  }
  return false;
}

export function brokenLinks(ctx: CrossContext, key: string): Diagnostic[] {
  const first = idOf(key);
  const out: Diagnostic[] = [];
  for (const e of ctx.kitMembers(key)) {
    for (const link of e.summary.links) {
      const segs = linkSegments(link.href);
      if (segs === undefined || (segs[0] ?? '') !== first || isAnswered(ctx, link, segs)) continue;
      const last = segs[segs.length - 1] ?? '';
      if (/\.[A-Za-z0-9]+$/.test(last)) continue;
      const near = nearOf(ctx).closest(link.method, link.href, segs);
      const what = link.method === 'GET' ? 'no page or GET endpoint' : 'no POST endpoint';
      out.push(
        diag(
          'broken_internal_link',
          e.path,
          link.range,
          `${e.summary.ownerId}: link "${link.href}" matches ${what} of the workspace` +
            (near ? `; did you mean "${near}"?` : ''),
        ),
      );
    }
  }
  return out;
}

/** `broken_internal_link`: the literal links starting with one segment, against every route. */
export const brokenLinkRule: CrossRule = {
  family: 'link',
  kitKeys: (e) => linkKeys(e.summary.links),
  evaluate: brokenLinks,
};

/** What of a `reg:` bucket's registrations links read: the patterns, and where each is declared (ties). */
function routesOf(regs: readonly Registration[]): string {
  let out = '';
  for (const r of regs) out += `${r.route.pattern} ${r.file} ${r.order}\n`;
  return out;
}

/**
 * Called as a `reg:` bucket is evaluated, with its registrations: what its routes are, when links
 * have seen none of its changes yet (the workspace's first load).
 */
export function noteRoutes(ctx: WorkspaceView, regKey: string, regs: readonly Registration[]): void {
  const seen = knowledgeOf(ctx).seen;
  if (!seen.has(regKey)) seen.set(regKey, regs);
}

/**
 * What a route registration (`reg:<METHOD> <shape>`) joining or leaving re-evaluates among the
 * links: nothing when the bucket's routes are what they were (a page ID or a guard edited beside
 * them); else the links that start with the shape's first segment (the bucket may answer them) and
 * those whose first segment is a typo of it (it may become, or stop being, their suggestion). A
 * route whose first segment is a param may answer or be suggested for any link.
 */
export function linksTouchedByRoutes(regKey: BucketKey, ctx: CrossContext): Iterable<BucketKey> {
  const k = knowledgeOf(ctx);
  const regs = registrationsOfReg(ctx, regKey);
  const now = routesOf(regs);
  const was = k.seen.get(regKey);
  if ((typeof was === 'string' || was === undefined ? was : routesOf(was)) === now) return [];
  k.seen.set(regKey, now);
  k.answered.GET.clear();
  k.answered.POST.clear();
  k.near?.set(regKey, regs);
  const first = regKeyParts(regKey).shape.split('/')[1] ?? '';
  if (first.startsWith('{')) return ctx.keysOf('link');
  const out: BucketKey[] = [];
  for (const k of ctx.keysOf('link')) {
    const id = idOf(k);
    if (id === first || (id !== '' && first !== '' && typoDistance(id, first) !== undefined)) out.push(k);
  }
  return out;
}
