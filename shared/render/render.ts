// Renders a template (see ir.ts) with data and route params. One function for build time (the data
// is the `paths` record) and request time (the data is the `Load<PageID>` result).
import { encodePathSegment } from '../route/index.js';
import { encodeUrlValue, escapeHtml, safeSrcset, UNSAFE_URL } from './escape.js';
import type { Expr, Node, PathSegment, Template } from './ir.js';
import { isUnsafeUrl, decodeEntities } from './url-safety.js';
import { compare, forEachItem, getField, getPath, isTruthy, looseEquals, toText } from './values.js';

/** Route params by name (a record or a `Map`); rest params hold the joined remainder (`a/b`). */
export type RenderParams = Readonly<Record<string, string>> | ReadonlyMap<string, string>;

interface Scope {
  data: unknown;
  params: RenderParams | undefined;
  locals: unknown[];
}

/**
 * Renders `ir` to HTML. `data` is read by identifiers and dotted paths (`{editor.name}`), `params`
 * by `param("name")`; every value is escaped for where it lands.
 */
export function renderTemplate(ir: Template, data?: unknown, params?: RenderParams): string {
  const nodes = ir.nodes;
  if (nodes.length === 1 && typeof nodes[0] === 'string') return nodes[0];
  const scope: Scope = { data, params, locals: ir.locals > 0 ? new Array<unknown>(ir.locals) : [] };
  return renderNodes(nodes, scope);
}

function renderNodes(nodes: readonly Node[], scope: Scope): string {
  let out = '';
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (typeof n === 'string') {
      out += n;
      continue;
    }
    switch (n.t) {
      case 'text':
      case 'attr':
        out += escapeHtml(toText(evaluate(n.e, scope)));
        break;
      case 'url':
        out += renderUrl(n.parts, scope, n.srcset === true);
        break;
      case 'dattr': {
        const v = evaluate(n.e, scope);
        if (v === true) out += ' ' + n.n;
        else if (v !== false && v !== null && v !== undefined) {
          const text = toText(v);
          out += ` ${n.n}="${n.url ? escapeHtml(isUnsafeUrl(text) ? UNSAFE_URL : text) : escapeHtml(text)}"`;
        }
        break;
      }
      case 'if':
        if (isTruthy(evaluate(n.e, scope))) out += renderNodes(n.b, scope);
        break;
      case 'for': {
        const { item, index, b } = n;
        forEachItem(evaluate(n.e, scope), (v, k) => {
          scope.locals[item] = v;
          if (index !== undefined) scope.locals[index] = k;
          out += renderNodes(b, scope);
        });
        break;
      }
    }
  }
  return out;
}

function renderUrl(parts: readonly (string | Expr)[], scope: Scope, srcset: boolean): string {
  let out = '';
  let inQuery = false;
  for (const p of parts) {
    if (typeof p === 'string') {
      out += p;
      if (!inQuery && (p.includes('?') || p.includes('#'))) inQuery = true;
    } else {
      // A `path` expression is already a percent-encoded path.
      const v = p.k === 'path' ? evaluatePath(p.segs, scope) : encodeUrlValue(toText(evaluate(p, scope)), inQuery);
      out += escapeHtml(v);
    }
  }
  const decoded = decodeEntities(out);
  if (srcset) return safeSrcset(decoded) === decoded ? out : UNSAFE_URL;
  return isUnsafeUrl(decoded) ? UNSAFE_URL : out;
}

function readParam(params: RenderParams | undefined, name: string): string | undefined {
  if (!params) return undefined;
  if (params instanceof Map) return params.get(name);
  const v = getField(params, name);
  return typeof v === 'string' ? v : undefined;
}

function evaluatePath(segs: readonly PathSegment[], scope: Scope): string {
  let out = '';
  for (const s of segs) {
    if ('s' in s) {
      out += '/' + s.s;
      continue;
    }
    const v = readParam(scope.params, s.p) ?? '';
    const parts = s.rest ? v.split('/') : [v];
    for (const part of parts) out += '/' + (encodePathSegment(part) ?? '');
  }
  return out === '' ? '/' : out;
}

function evaluate(e: Expr, scope: Scope): unknown {
  switch (e.k) {
    case 'lit': return e.v;
    case 'data': return getPath(scope.data, e.p);
    case 'local': return getPath(scope.locals[e.i], e.p);
    case 'param': return readParam(scope.params, e.n);
    case 'not': return !isTruthy(evaluate(e.e, scope));
    case 'cat': {
      let s = '';
      for (const part of e.parts) s += toText(evaluate(part, scope));
      return s;
    }
    case 'path': return evaluatePath(e.segs, scope);
    case 'bin': {
      if (e.op === '&&') {
        const l = evaluate(e.l, scope);
        return isTruthy(l) ? evaluate(e.r, scope) : l;
      }
      if (e.op === '||') {
        const l = evaluate(e.l, scope);
        return isTruthy(l) ? l : evaluate(e.r, scope);
      }
      const l = evaluate(e.l, scope);
      const r = evaluate(e.r, scope);
      switch (e.op) {
        case '==': return looseEquals(l, r);
        case '!=': return !looseEquals(l, r);
        case '<': return compare(l, r) < 0;
        case '<=': return compare(l, r) <= 0;
        case '>': return compare(l, r) > 0;
        case '>=': return compare(l, r) >= 0;
      }
    }
  }
  return undefined;
}
