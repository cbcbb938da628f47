// Hover: the routes report's metadata for whatever route, endpoint, guard, reference or component
// the cursor is on, as markdown. Values come from the report model (the same projection `kit routes`
// prints), so the editor and the report never disagree.
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { HandlerBinding } from '#core/bind/types.js';
import { findBinding } from '#core/bind/types.js';
import { componentKey, layoutKey } from '#core/resolve/names.js';
import { loadFunctionName } from '#core/model/names.js';
import type { EndpointInfo, PageInfo } from '#core/report/rows.js';
import type { KitEntry } from '#core/model/entries.js';
import type { Range } from '#grammar/index.js';
import { offsetOf, toRange } from '../convert.js';
import { figuresHover } from './code-lens.js';
import type { FeatureContext } from './context.js';
import type { LiveReport } from './route-figures.js';
import { locate, type RouteParamHit, type Target } from './locate.js';

function code(s: string): string {
  const ticks = s.includes('`') ? '``' : '`';
  return `${ticks}${s.replace(/\|/g, '\\|')}${ticks}`;
}

function table(rows: [string, string][], header: [string, string] = ['', '']): string {
  return [`| ${header[0]} | ${header[1]} |`, '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
}

function paramsCell(params: { name: string; type: string }[], rest: Set<string>, hit?: RouteParamHit): string {
  if (params.length === 0) return '—';
  return params
    .map((p) => {
      const text = `${code(p.name)}: ${p.type}${rest.has(p.name) ? ' (rest)' : ''}`;
      return hit && hit.name === p.name ? `**${text}**` : text;
    })
    .join(', ');
}

function restNames(info: { parsed: PageInfo['parsed'] }): Set<string> {
  return new Set(info.parsed.segments.filter((s) => s.kind === 'rest').map((s) => (s.kind === 'rest' ? s.name : '')));
}

function bindingCell(b: HandlerBinding | undefined, fallbackName: string): string {
  if (!b) return `${code(fallbackName)} — binding not known yet`;
  const where = b.importPath ? ` in ${code(b.importPath)}` : '';
  switch (b.status) {
    case 'bound':
      return `${code(b.functionName)} — bound${where}${b.signatureText ? `: ${code(b.signatureText)}` : ''}`;
    case 'unsupported_signature':
      return (
        `${code(b.functionName)} — unsupported signature${where}` +
        `${b.signatureText ? `: ${code(b.signatureText)}` : ''}${b.message ? ` (${b.message})` : ''}`
      );
    default:
      return (
        `${code(b.functionName)} — missing${b.stubFile ? ` (create it in ${code(b.stubFile)})` : ''}; the ` +
        `endpoint answers 501`
      );
  }
}

function guardsCell(guards: string[], inheritedFrom: string | undefined): string {
  if (guards.length === 0) return 'none — denied (403)';
  const list = guards.map(code).join(', ');
  return inheritedFrom ? `${list} (inherited from page ${code(inheritedFrom)})` : list;
}

function pageMarkdown(p: PageInfo, hit?: RouteParamHit): string {
  const s = p.summary;
  const rows: [string, string][] = [
    ['Render', s.render],
    ['Guards', guardsCell(s.guards, undefined)],
    ['Params', paramsCell(p.parsed.params, restNames(p), hit)],
    ['Cache', p.cache ? code(p.cache) : 'not set'],
    ['CSRF', 'no (GET page)'],
    ['Layouts', s.layouts.length ? s.layouts.map(code).join(' → ') : '—'],
    ['Handler', code(p.handler)],
  ];
  if (s.server) rows.push(['Load', bindingCell(p.load, loadFunctionName(p.pageId))]);
  return `**GET** ${code(p.route)} — page ${code(p.pageId)} (package ${code(p.package)})\n\n${table(rows)}`;
}

function endpointMarkdown(e: EndpointInfo, hit?: RouteParamHit, inheritsRoute = false): string {
  const label = e.directive === 'act' ? 'action' : e.directive;
  const owner = e.endpointSource === 'comment' ? `comment endpoint in ${code(e.file)}` : `of page ${code(e.pageId)}`;
  const rows: [string, string][] = [
    ['Kind', `${e.kind} (${e.endpointSource})`],
    ['Guards', guardsCell(e.guards, e.page ? e.page.pageId : undefined)],
    ['Params', paramsCell(e.parsed.params, restNames(e), hit)],
    ['Cache', code('no-store')],
    ['CSRF', e.csrf ? 'yes (token required)' : `no (${e.method})`],
    ['Handler', `${code(e.handler)} → ${bindingCell(e.binding, e.symbol)}`],
  ];
  if (inheritsRoute) rows.push(['Route', 'inherited from the page (no path declared)']);
  return `**${e.method}** ${code(e.route)} — ${label} ${code(e.symbol)} ${owner}\n\n${table(rows)}`;
}

function sameRange(a: Range, b: Range): boolean {
  return a.start.offset === b.start.offset && a.end.offset === b.end.offset;
}

function endpointFor(ctx: FeatureContext, path: string, pred: (e: EndpointInfo) => boolean): EndpointInfo | undefined {
  return ctx.reportModel().endpoints.find((e) => e.file === path && pred(e));
}

function pageFor(ctx: FeatureContext, path: string): PageInfo | undefined {
  return ctx.reportModel().pages.find((p) => p.file === path);
}

/** `site` of the key `site.Card`. */
function packageOfKey(key: string): string {
  return key.slice(0, key.lastIndexOf('.'));
}

function componentMarkdown(ctx: FeatureContext, key: string | undefined, written: string): string {
  const def = key ? ctx.ws.kitMembers(`cdef:${key}`).find((e) => e.summary.kind === 'component') : undefined;
  if (!def) {
    const where = key ? ` in package ${code(packageOfKey(key))}` : ' (unknown alias)';
    return `**component** ${code(written)} — not declared${where}`;
  }
  const props = def.summary.props?.props ?? [];
  const rows: [string, string][] = props.map((p) => [
    code(p.name.text),
    `${p.type.text}${p.default ? ` = ${code(String(p.default.value))}` : ' (required)'}`,
  ]);
  const uses = ctx.ws.kitMembers(`cuse:${key}`).length;
  return (
    `**component** ${code(def.summary.ownerId)} (package ${code(def.summary.packageName)}) — ` +
    `${code(def.path)}, used by ${uses} ` +
    `file${uses === 1 ? '' : 's'}\n\n${rows.length ? table(rows, ['Prop', 'Type']) : 'No props.'}`
  );
}

function targetMarkdown(ctx: FeatureContext, entry: KitEntry, t: Target): { md: string; range?: Range } | undefined {
  const path = entry.path;
  switch (t.kind) {
    case 'route':
    case 'pageId': {
      const p = pageFor(ctx, path);
      if (!p) return undefined;
      return {
        md: pageMarkdown(p, t.kind === 'route' ? t.param : undefined),
        range: t.kind === 'route' ? (t.param?.range ?? t.decl.path.range) : t.decl.id.range,
      };
    }
    case 'endpoint': {
      const e = endpointFor(ctx, path, (x) => sameRange(x.range, t.decl.range));
      if (!e) return undefined;
      const range =
        t.part === 'symbol'
          ? t.decl.kind === 'fragment'
            ? t.decl.name.range
            : t.decl.symbol.range
          : t.part === 'method'
            ? t.decl.method.range
            : t.part === 'path'
              ? (t.param?.range ?? t.decl.path?.range)
              : t.decl.keyword;
      const inherits = t.decl.kind !== 'fragment' && (!t.decl.path || t.decl.path.value === '');
      return { md: endpointMarkdown(e, t.param, inherits), range };
    }
    case 'postRef': {
      const e = endpointFor(ctx, path, (x) => x.kind === 'action' && x.symbol === t.name);
      if (!e)
        return {
          md: `**g:post** ${code(t.name)} — no action ${code(t.name)} is declared by this page`,
          range: t.range,
        };
      const act = entry.summary.actions.find((a) => a.symbol.text === t.name);
      return {
        md: endpointMarkdown(e, undefined, Boolean(act && (!act.path || act.path.value === ''))),
        range: t.range,
      };
    }
    case 'contractRef': {
      const e = endpointFor(
        ctx,
        path,
        (x) => x.contract?.ref === t.ref || (x.contract !== undefined && sameRange(x.range, t.ref.range)),
      );
      if (!e)
        return {
          md: `**g:${t.ref.kind}** ${code(t.ref.name)} — no route (a dynamic page needs an explicit action="/path")`,
          range: t.range,
        };
      return { md: endpointMarkdown(e), range: t.range };
    }
    case 'guard': {
      const id = t.word.text;
      const users = ctx.reportModel().pages.filter((p) => p.summary.guards.includes(id)).length;
      const what =
        id === 'public'
          ? 'public — anyone may request the route'
          : id.startsWith('role:')
            ? `role guard: the request's user needs role ${code(id.slice(5))}`
            : id.startsWith('permission:')
              ? `permission guard: the request's user needs permission ${code(id.slice(11))}`
              : 'custom guard: registered in the app config; an unregistered guard fails closed (403)';
      return {
        md:
          `**guard** ${code(id)} — ${what}\n\nUsed by ${users} page${users === 1 ? '' : 's'}; guards run in ` +
          `declaration order and also protect the page's endpoints.`,
        range: t.word.range,
      };
    }
    case 'layoutRef': {
      const key = layoutKey(entry.summary, t.word.text);
      const def = key ? ctx.ws.kitMembers(`ldef:${key}`).find((e) => e.summary.kind === 'layout') : undefined;
      const md = def
        ? `**layout** ${code(t.word.text)} — ${code(def.path)}` +
          (def.summary.layouts.length ? `, nested in ${def.summary.layouts.map(code).join(' → ')}` : '')
        : `**layout** ${code(t.word.text)} — no ${t.word.text}.layout.kit exists in package ` +
          `${code(entry.summary.packageName)}`;
      return { md, range: t.word.range };
    }
    case 'componentCall':
      return { md: componentMarkdown(ctx, componentKey(entry.summary, t.call), t.call.name), range: t.range };
    case 'componentDecl':
      return {
        md: componentMarkdown(ctx, `${entry.summary.packageName}.${t.decl.name.text}`, t.decl.name.text),
        range: t.decl.name.range,
      };
    case 'paramCall': {
      const p = pageFor(ctx, path);
      const param = p?.parsed.params.find((x) => x.name === t.name);
      const md = param
        ? `**param** ${code(t.name)}: ${param.type} — from route ${code(p!.route)}`
        : `**param** ${code(t.name)} — the route declares no such parameter`;
      return { md, range: t.range };
    }
    case 'server': {
      const p = pageFor(ctx, path);
      const name = loadFunctionName(entry.summary.ownerId);
      return {
        md:
          `**server** — request-time data from ` +
          `${bindingCell(p?.load ?? findBinding(ctx.ws.bindingFor(path), 'load', name), name)}`,
        range: t.decl.keyword,
      };
    }
    default:
      return undefined;
  }
}

/** `live`: the running server's route figures, shown on route and endpoint lines (`code-lens.ts`). */
export function hover(ctx: FeatureContext, path: string, position: Position, live?: LiveReport): Hover | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const t = locate(entry, offsetOf(entry.ast, position));
  const out = t ? targetMarkdown(ctx, entry, t) : undefined;
  const figures = figuresHover(ctx, path, position, live);
  if (!out && figures === undefined) return null;
  const md = [out?.md, figures].filter((x) => x !== undefined).join('\n\n---\n\n');
  return { contents: { kind: MarkupKind.Markdown, value: md }, range: out?.range ? toRange(out.range) : undefined };
}
