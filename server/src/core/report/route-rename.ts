// Renaming a route: which literal links follow it, and which cannot. A link follows when the app
// answers it with a renamed route today (`url-routing.ts`), the new pattern can be written with the
// link's own values (each param's segments carried over as the link spells them), and the app
// would answer the rewritten link with the renamed route and nothing new would match it. Every
// other link that reaches the route is left as it is, with the reason: the editor reports those
// instead of guessing. Plain data in, plain data out; the language server makes the edit.
import type { Range } from '#grammar/index.js';
import type { ParsedRoute } from '#shared/route/index.js';
import { decodeParam, matchRoute } from '#shared/route/index.js';
import type { KitEntry, WorkspaceView } from '../model/entries.js';
import { unquotedRange } from '../model/ranges.js';
import { compareRegistrations } from '../model/entries.js';
import type { Registration } from '../model/registrations.js';
import type { InternalLink } from '../model/summary.js';
import { linkSegments } from '../validate/cross/links.js';
import {
  finalAnswer,
  linksReaching,
  workspaceRoutes,
  type AnswerMemo,
  type RequestAnswer,
  type RouteSource,
} from './url-routing.js';

export interface LinkRewrite {
  file: string;
  link: InternalLink;
  /** The link's text between its quotes, which the new text replaces. */
  range: Range;
  /** The link as it will read. */
  href: string;
}

export interface LinkLeft {
  file: string;
  link: InternalLink;
  /** Why it is not rewritten (`would be answered by page about instead`). */
  reason: string;
}

export interface RouteRenamePlan {
  /** The registrations whose route changes: the page and the endpoints inheriting its route, or one endpoint. */
  targets: Registration[];
  rewrites: LinkRewrite[];
  left: LinkLeft[];
}

/**
 * The registrations of `entry` that answer at `pattern` as declared by `declRange`'s declaration:
 * a page route takes the page and every endpoint of the file without a path of its own; an
 * endpoint's path takes that endpoint.
 */
export function renamedRegistrations(entry: KitEntry, declRange: { start: { offset: number } }): Registration[] {
  const s = entry.summary;
  const at = declRange.start.offset;
  if (s.route && s.route.decl.range.start.offset === at) {
    const own = new Set<object>();
    for (const a of s.actions) if (a.path && a.path.value !== '') own.add(a.range);
    for (const a of s.apis) if (a.path && a.path.value !== '') own.add(a.range);
    for (const c of s.contractRefs) if (c.actionPath !== undefined) own.add(c.range);
    return entry.registrations.filter((r) => r.route === s.route!.parsed && r.kind !== 'fragment' && !own.has(r.range));
  }
  return entry.registrations.filter((r) => r.range.start.offset === at && r.kind !== 'page');
}

/** The range of a link's value between its quotes, when the text there is the link as written. */
export function linkValueRange(text: string, link: InternalLink): Range | undefined {
  return unquotedRange(text, link.range, link.href);
}

/** A link's path (before `?` or `#`) and the rest, which a rename keeps as it is. */
function splitHref(href: string): { path: string; suffix: string } {
  const cut = href.search(/[?#]/);
  return cut < 0 ? { path: href, suffix: '' } : { path: href.slice(0, cut), suffix: href.slice(cut) };
}

/**
 * A link's path written for `next`, each param's segments as the link spells them (a trailing
 * slash kept), or why it cannot be: the new pattern names a param the link has no value for, or
 * drops one it has.
 */
function rewritten(linkPath: string, old: ParsedRoute, next: ParsedRoute): { path: string } | { reason: string } {
  const slash = linkPath.length > 1 && linkPath.endsWith('/');
  const path = slash ? linkPath.slice(0, -1) : linkPath;
  const raw = path === '/' ? [] : path.slice(1).split('/');
  const values = new Map<string, string>();
  old.segments.forEach((s, i) => {
    if (s.kind === 'param') values.set(s.name, raw[i]);
    else if (s.kind === 'rest') values.set(s.name, raw.slice(i).join('/'));
  });
  const used = new Set<string>();
  const parts: string[] = [];
  for (const s of next.segments) {
    if (s.kind === 'static') {
      parts.push(s.value);
      continue;
    }
    const v = values.get(s.name);
    if (v === undefined) return { reason: `the new pattern's {${s.name}} has no value in this link` };
    used.add(s.name);
    parts.push(v);
  }
  for (const name of values.keys())
    if (!used.has(name)) return { reason: `the new pattern drops {${name}}, whose value the link gives` };
  return { path: (parts.length === 0 ? '/' : '/' + parts.join('/')) + (slash && parts.length > 0 ? '/' : '') };
}

/** A value a newly typed param of the new pattern does not decode (the app would answer 400). */
function badTypedValue(old: ParsedRoute, next: ParsedRoute, params: Record<string, string>): string | undefined {
  for (const p of next.params) {
    if (p.type === 'string' || old.params.some((o) => o.name === p.name && o.type === p.type)) continue;
    const v = params[p.name];
    if (v !== undefined && !decodeParam(p.type, v).ok)
      return `its {${p.name}} value "${v}" is not ${/^[aeiou]/.test(p.type) ? 'an' : 'a'} ${p.type}`;
  }
  return undefined;
}

function describe(a: RequestAnswer): string {
  if (a.registration) return `${a.registration.owner} ("${a.registration.route.pattern}")`;
  return a.note ?? `status ${a.status}`;
}

/** A link's path: what it has before `?` or `#`. */
function pathOf(href: string): string {
  const cut = href.search(/[?#]/);
  return cut < 0 ? href : href.slice(0, cut);
}

/**
 * Why the link `link`, rewritten as `href`, cannot follow the rename, or undefined when it can (the
 * same for every link of the same old and new paths, whatever their queries):
 * the app must answer it with the renamed route, its values must decode as the new pattern's
 * types, and no route that did not match the link before may match it now.
 */
function verdict(
  view: WorkspaceView,
  link: InternalLink,
  href: string,
  answer: RequestAnswer,
  renamed: ReadonlyMap<Registration, Registration>,
  clones: ReadonlySet<Registration>,
  current: RouteSource,
  after: RouteSource,
  old: ParsedRoute,
  next: ParsedRoute,
): string | undefined {
  const newSegs = linkSegments(href);
  const target = renamed.get((answer.registration ?? answer.near)!)!;
  const now = newSegs === undefined ? undefined : finalAnswer(view, link.method, href, { routes: after });
  if (!now || (now.registration ?? now.near) !== target)
    return `"${pathOf(href)}" would be answered by ${now ? describe(now) : 'nothing'} instead`;
  const typed = badTypedValue(old, next, now.params);
  if (typed) return typed;
  // A route that matches the new link but not the old one: precedence alone would decide.
  const before = new Set(current(link.method, linkSegments(link.href) ?? []));
  const also = after(link.method, newSegs!).find((r) => !clones.has(r) && !before.has(r));
  return also ? `"${pathOf(href)}" would also match ${also.owner} ("${also.route.pattern}")` : undefined;
}

/**
 * Which links follow `targets` (registrations of one file, all on the route `old`) to the new
 * route `next`, and which are left with their reason. `memo` answers by request, shared with other
 * questions about the same workspace state.
 */
export function planRouteRename(
  view: WorkspaceView,
  targets: readonly Registration[],
  old: ParsedRoute,
  next: ParsedRoute,
  memo: AnswerMemo = new Map(),
): RouteRenamePlan {
  const current = workspaceRoutes(view);
  const reaching = linksReaching(view, targets, memo, current);
  const renamed = new Map<Registration, Registration>();
  for (const r of targets) renamed.set(r, { ...r, route: next });
  const clones = new Set(renamed.values());
  const gone = new Set<Registration>(targets);
  const after: RouteSource = (method, segs) => {
    const out = current(method, segs).filter((r) => !gone.has(r));
    for (const c of clones) if (c.method === method && matchRoute(c.route, segs) !== undefined) out.push(c);
    return out.sort(compareRegistrations);
  };
  const rewrites: LinkRewrite[] = [];
  const left: LinkLeft[] = [];
  // By `<METHOD> <old path>`: the new path, or why the link stays (links differing by query alone are judged once).
  const verdicts = new Map<string, { path: string } | { reason: string }>();
  for (const { file, link, answer } of reaching) {
    const leave = (reason: string) => left.push({ file, link, reason });
    const range = linkValueRange(view.kit(file)?.text ?? '', link);
    if (!range) {
      leave('it is not written as plain text between quotes');
      continue;
    }
    const { path, suffix } = splitHref(link.href);
    const key = `${link.method} ${path}`;
    let w = verdicts.get(key);
    if (w === undefined) {
      w = rewritten(path, old, next);
      if ('path' in w) {
        const why = verdict(view, link, w.path, answer, renamed, clones, current, after, old, next);
        if (why !== undefined) w = { reason: why };
      }
      verdicts.set(key, w);
    }
    if ('reason' in w) {
      leave(w.reason);
      continue;
    }
    rewrites.push({ file, link, range, href: w.path + suffix });
  }
  return { targets: [...targets], rewrites, left };
}
