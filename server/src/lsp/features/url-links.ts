// Links as navigation: the literal internal URLs of a view (`<a href>`, a plain form's `action`)
// lead to the page or endpoint that the generated app answers them with, and the URL attributes
// naming a declared asset (`<img src="./logo.png">` beside `asset "./logo.png"`) to the file.
// Document links, definition on a link and the references of a route all ask
// `core/report/url-routing.ts`, through one memo of answers kept while the routes stay the same.
import type { DocumentLink, Location, Position } from 'vscode-languageserver';
import type { Element, Range } from '#grammar/index.js';
import { assetSpellings, declaredFiles } from '#core/model/asset-files.js';
import type { KitEntry, ModuleEntry } from '#core/model/entries.js';
import { walkElements } from '#core/model/markup-memo.js';
import { unquotedRange } from '#core/model/ranges.js';
import { attrText, type InternalLink } from '#core/model/summary.js';
import { URL_ATTRIBUTES } from '#core/model/url-safety.js';
import { linkValueRange, renamedRegistrations } from '#core/report/route-rename.js';
import {
  answerKey,
  linkAnswer,
  linksReaching,
  urlShape,
  type AnswerMemo,
  type RequestAnswer,
} from '#core/report/url-routing.js';
import { contains, offsetOf, toRange } from '../convert.js';
import type { FeatureContext } from './context.js';
import type { Target } from './locate.js';

interface Memo {
  revision: number;
  memo: AnswerMemo;
  /** Bumped whenever answers are dropped: what was made from them is to be made again. */
  generation: number;
  /** The URI of each file an answer points into, made once (the client's spelling of open documents). */
  uris: Map<string, string>;
  /** The entries the answers were made from, by path. */
  kits: Map<string, KitEntry>;
  modules: Map<string, ModuleEntry>;
  /**
   * What each link text (`<METHOD> <href>`) leads to, in any file: kept while its answer is the
   * memo's (`resolvedLink`), so an edit that moves links without changing the routes answers none
   * again. Emptied with the memo when the routes change.
   */
  resolved: Map<string, ResolvedLink>;
}

/** A link text's document link, without its range (which moves with every edit above it). */
interface ResolvedLink {
  /** The memo key of its answer, and the answer; undefined for a text that is no request path. */
  key?: string;
  answer?: RequestAnswer;
  target?: string;
  tooltip?: string;
}

const memos = new WeakMap<FeatureContext, Memo>();

/**
 * Answers by request for the workspace as it is now. At a new revision they are kept unless a
 * file's URL shape changed (`urlShape`: an edit inside a view leaves it), minus those pointing into
 * a file that changed at all (their registrations and records are that file's old objects): the
 * links of a long view are answered again only when the routes changed. Finding what changed
 * compares the entries of the files noted since (`changedSince`; all of them when the workspace
 * cannot tell) with those the answers were made from: objects, not texts.
 */
export function answerMemo(ctx: FeatureContext): AnswerMemo {
  const ws = ctx.ws;
  const m = memos.get(ctx);
  if (m?.revision === ws.revision) return m.memo;
  const since = m && ws.changedSince(m.revision);
  const next: Memo = m && since ? m : fresh(m);
  next.revision = ws.revision;
  const changed = new Set<string>();
  let routes = m === undefined;
  const kitChanged = (path: string, e: KitEntry | undefined) => {
    const was = m?.kits.get(path);
    if (was === e) return;
    changed.add(path);
    if (!was || !e || urlShape(was) !== urlShape(e)) routes = true;
  };
  if (m && since) {
    for (const path of since) {
      const e = ws.kit(path);
      kitChanged(path, e);
      if (e) next.kits.set(path, e);
      else next.kits.delete(path);
      const mod = ws.module(path);
      if (next.modules.get(path) === mod) continue;
      routes = true;
      if (mod) next.modules.set(path, mod);
      else next.modules.delete(path);
    }
  } else {
    for (const e of ws.allKit()) {
      next.kits.set(e.path, e);
      kitChanged(e.path, e);
    }
    for (const p of ws.modulePaths()) {
      const e = ws.module(p)!;
      next.modules.set(p, e);
      if (m?.modules.get(p) !== e) routes = true;
    }
    if (m && (next.kits.size !== m.kits.size || next.modules.size !== m.modules.size)) routes = true;
  }
  if (routes) {
    next.memo = new Map();
    next.resolved = new Map();
    next.generation++;
  } else if (changed.size > 0) {
    for (const [key, a] of next.memo) {
      const r = a.registration ?? a.near;
      if (r && changed.has(r.file)) next.memo.delete(key);
    }
    next.generation++;
  }
  // A document opened or closed changes its file's entry, and may change the URI it is named by.
  for (const file of changed) next.uris.delete(file);
  memos.set(ctx, next);
  return next.memo;
}

/** A memo to fill from every entry, keeping what `m` made that stays true whatever changed. */
function fresh(m: Memo | undefined): Memo {
  return {
    revision: 0,
    memo: m?.memo ?? new Map(),
    generation: m?.generation ?? 0,
    uris: m?.uris ?? new Map(),
    kits: new Map(),
    modules: new Map(),
    resolved: m?.resolved ?? new Map(),
  };
}

/** The memo's state: its generation, and the URIs of files as answers name them. */
function memoState(ctx: FeatureContext): Memo {
  answerMemo(ctx);
  return memos.get(ctx)!;
}

function uriOf(ctx: FeatureContext, state: Memo, file: string): string {
  let uri = state.uris.get(file);
  if (uri === undefined) state.uris.set(file, (uri = ctx.uriOf(file)));
  return uri;
}

/**
 * Where an answer points: the `paths {}` record that generates the path, else the route or
 * endpoint declaration; with `near`, also the page whose route matches but that answers 404 there
 * (a dynamic page built ahead, at another path than its records').
 */
export function answerPlace(a: RequestAnswer, near = false): { file: string; range: Range } | undefined {
  const r = a.registration ?? (near ? a.near : undefined);
  return r ? { file: r.file, range: a.record?.range ?? r.range } : undefined;
}

/** `slug=hello-kit, n=2`. */
export function paramsText(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** `GET /blog/{slug} — page blog.post (slug=hello-kit)`. */
export function answerLabel(a: RequestAnswer): string {
  const r = a.registration;
  if (!r) return a.near ? `${a.status}: ${a.note}` : (a.note ?? `${a.status}`);
  const params = paramsText(a.params);
  return `${r.method} ${r.route.pattern} — ${r.owner}${params ? ` (${params})` : ''}`;
}

/** A URI that opens `range` of `file` (VS Code reads the `#L<line>,<column>` fragment). */
function targetUri(ctx: FeatureContext, state: Memo, file: string, range: Range): string {
  return `${uriOf(ctx, state, file)}#L${range.start.line + 1},${range.start.column + 1}`;
}

interface AssetRef {
  range: Range;
  /** Workspace path of the declared file. */
  file: string;
  written: string;
}

/** The declarations of files and the URL attributes that name them, in document order. */
function assetRefs(entry: KitEntry): AssetRef[] {
  const files = declaredFiles(entry.summary).filter((f) => f.path !== undefined);
  if (files.length === 0) return [];
  const text = entry.text;
  const out: AssetRef[] = files.map((f) => ({
    range: unquotedRange(text, f.range, f.written) ?? f.range,
    file: f.path!,
    written: f.written,
  }));
  const bySpelling = new Map<string, { file: string; written: string }>();
  for (const f of files)
    for (const sp of assetSpellings(f.written)) bySpelling.set(sp, { file: f.path!, written: f.written });
  const visit = (el: Element) => {
    for (const a of el.attrs) {
      if (!URL_ATTRIBUTES.has(a.name.toLowerCase())) continue;
      const v = attrText(el, a.name);
      const f = v && bySpelling.get(v.value);
      if (v && f)
        out.push({ range: unquotedRange(text, v.range, v.value) ?? v.range, file: f.file, written: f.written });
    }
  };
  const s = entry.summary;
  if (s.view) walkElements(s.view.body, visit);
  for (const f of s.fragments) walkElements(f.body, visit);
  return out.sort((a, b) => a.range.start.offset - b.range.start.offset);
}

/** The links of a file as last made, by entry, with the memo generation they were made in. */
const madeLinks = new WeakMap<KitEntry, { generation: number; links: DocumentLink[] }>();

/**
 * Where a link text leads, from the memo's answers: made again only when its answer was dropped
 * (the routes changed, or the file it points into did). The text is the key, not the place: an
 * edit moves every link below it.
 */
function resolvedLink(ctx: FeatureContext, state: Memo, link: InternalLink): ResolvedLink {
  const text = `${link.method} ${link.href}`;
  const known = state.resolved.get(text);
  if (known && (known.key === undefined || state.memo.get(known.key) === known.answer)) return known;
  const a = linkAnswer(ctx.ws, link, state.memo);
  const out: ResolvedLink = {};
  if (a) {
    out.key = answerKey(link);
    out.answer = a;
    const place = answerPlace(a, true);
    if (place) {
      out.target = targetUri(ctx, state, place.file, place.range);
      out.tooltip = answerLabel(a);
    }
  }
  state.resolved.set(text, out);
  return out;
}

export function documentLinks(ctx: FeatureContext, path: string): DocumentLink[] | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const state = memoState(ctx);
  const made = madeLinks.get(entry);
  if (made?.generation === state.generation) return made.links;
  const out: DocumentLink[] = [];
  for (const link of entry.summary.links) {
    const { target, tooltip } = resolvedLink(ctx, state, link);
    if (target === undefined) continue;
    const range = linkValueRange(entry.text, link) ?? link.range;
    out.push({ range: toRange(range), target, tooltip });
  }
  for (const ref of assetRefs(entry))
    out.push({ range: toRange(ref.range), target: uriOf(ctx, state, ref.file), tooltip: `asset ${ref.written}` });
  out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  madeLinks.set(entry, { generation: state.generation, links: out });
  return out;
}

/** Definition on a link or an asset reference; undefined when the cursor is on neither. */
export function linkDefinition(ctx: FeatureContext, entry: KitEntry, position: Position): Location[] | undefined {
  const offset = offsetOf(entry.ast, position);
  const link = entry.summary.links.find((l) => contains(l.range, offset));
  if (link) {
    const a = linkAnswer(ctx.ws, link, answerMemo(ctx));
    const place = a && answerPlace(a, true);
    return place ? [{ uri: ctx.uriOf(place.file), range: toRange(place.range) }] : [];
  }
  const ref = assetRefs(entry).find((r) => contains(r.range, offset));
  if (!ref) return undefined;
  const start = { line: 0, character: 0 };
  return [{ uri: ctx.uriOf(ref.file), range: { start, end: start } }];
}

/** The route string a target stands on: a page's `route`, or an endpoint's own path. */
export function routeStringOf(entry: KitEntry, t: Target | undefined) {
  if (t?.kind === 'route' && entry.summary.route?.decl === t.decl) return { lit: t.decl.path, decl: t.decl };
  if (t?.kind === 'endpoint' && t.part === 'path' && t.decl.path && t.decl.path.value !== '')
    return { lit: t.decl.path, decl: t.decl };
  return undefined;
}

/** References of a route string: its declaration (if asked) and every literal link the app answers with it. */
export function routeReferences(
  ctx: FeatureContext,
  entry: KitEntry,
  t: Target | undefined,
  includeDeclaration: boolean,
): Location[] | undefined {
  const at = routeStringOf(entry, t);
  if (!at) return undefined;
  const targets = renamedRegistrations(entry, at.decl.range);
  const out: Location[] = includeDeclaration ? [{ uri: ctx.uriOf(entry.path), range: toRange(at.lit.range) }] : [];
  for (const l of linksReaching(ctx.ws, targets, answerMemo(ctx))) {
    const text = ctx.ws.kit(l.file)?.text ?? '';
    out.push({ uri: ctx.uriOf(l.file), range: toRange(linkValueRange(text, l.link) ?? l.link.range) });
  }
  return out;
}
