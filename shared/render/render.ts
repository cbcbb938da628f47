// Renders a template (see ir.ts) with data and route params. One function for build time (the data
// is the `paths` record) and request time (the data is the `Load<PageID>` result, and a form
// state fills the page's forms: `forms.ts`).
//
// A template is compiled into a tree of closures: static chunks become constants, every expression
// a reader specialised for its shape, and what depends only on the template (which URL values sit
// in a query, whether a URL's literal start already makes it safe, whether a field name is one
// reading never follows) is decided at compile time. Rendering then walks no IR and re-derives
// nothing per request. Templates are plain data that nothing changes once built; the compiled form
// is kept per template object from its second render on.
import { encodePathSegment } from '../route/index.js';
import { encodeUrlData, encodeUrlSegments, encodeUrlValue, escapeHtml, safeSrcset, UNSAFE_URL } from './escape.js';
import { compileElement, type FormRender } from './forms.js';
import type { Expr, Node, PathSegment, Template } from './ir.js';
import { isUnsafeUrl, decodeEntities } from './url-safety.js';
import { BLOCKED_FIELDS, compare, forEachItem, isTruthy, looseEquals, toText } from './values.js';

/** Route params by name (a record or a `Map`); rest params hold the joined remainder (`a/b`). */
export type RenderParams = Readonly<Record<string, string>> | ReadonlyMap<string, string>;

interface Scope {
  data: unknown;
  params: RenderParams | undefined;
  locals: unknown[];
  /** The request's form state (CSRF fields, a submission shown again); none at build time. */
  forms: FormRender | undefined;
}

type Emit = (scope: Scope) => string;
type Eval = (scope: Scope) => unknown;

interface Compiled {
  nodes: readonly Node[];
  emit: Emit;
}

const compiled = new WeakMap<Template, Compiled>();
// Marks a template rendered once. Keeping every compiled form alive costs memory and garbage
// collection, which does not pay for a template rendered once (most pages of a static build); the
// form is kept from the second render on (request-time templates, build templates with paths).
const SEEN_ONCE: Compiled = { nodes: Object.freeze([]) as readonly Node[], emit: () => '' };

/**
 * Renders `ir` to HTML. `data` is read by identifiers and dotted paths (`{editor.name}`), `params`
 * by `param("name")`; every value is escaped for where it lands. `forms` is the request's form state
 * (`forms.ts`): without it, forms are written as they were compiled.
 */
export function renderTemplate(ir: Template, data?: unknown, params?: RenderParams, forms?: FormRender): string {
  const nodes = ir.nodes;
  if (nodes.length === 1 && typeof nodes[0] === 'string') return nodes[0];
  const scope: Scope = { data, params, locals: ir.locals > 0 ? new Array<unknown>(ir.locals) : [], forms };
  const c = compiled.get(ir);
  // A template given a new node list is compiled again (changing nodes in place is not supported).
  if (c !== undefined && c.nodes === nodes) return c.emit(scope);
  const emit = compileNodes(nodes);
  compiled.set(ir, c === undefined ? SEEN_ONCE : { nodes, emit });
  return emit(scope);
}

// ---- nodes ---------------------------------------------------------------------------------------

const EMPTY: Emit = () => '';

/** A node list as `lits[0] + dyn[0](s) + lits[1] + ...`, adjacent static chunks merged. */
function compileNodes(nodes: readonly Node[]): Emit {
  const lits: string[] = [''];
  const dyns: Emit[] = [];
  for (const n of nodes) {
    if (typeof n === 'string') lits[lits.length - 1] += n;
    else {
      dyns.push(compileNode(n));
      lits.push('');
    }
  }
  const count = dyns.length;
  const head = lits[0];
  if (count === 0) return head === '' ? EMPTY : () => head;
  if (count === 1) {
    const only = dyns[0];
    const tail = lits[1];
    return (s) => head + only(s) + tail;
  }
  return (s) => {
    let out = head;
    for (let i = 0; i < count; i++) out += dyns[i](s) + lits[i + 1];
    return out;
  };
}

function compileNode(n: Exclude<Node, string>): Emit {
  switch (n.t) {
    case 'text':
    case 'attr': {
      const ev = compileExpr(n.e);
      return (s) => escapeHtml(toText(ev(s)));
    }
    case 'url':
      return compileUrl(n.parts, n.srcset === true);
    case 'dattr': {
      const ev = compileExpr(n.e);
      const name = n.n;
      const url = n.url === true;
      return (s) => {
        const v = ev(s);
        if (v === true) return ' ' + name;
        if (v === false || v === null || v === undefined) return '';
        const text = toText(v);
        return ` ${name}="${url ? escapeHtml(isUnsafeUrl(text) ? UNSAFE_URL : text) : escapeHtml(text)}"`;
      };
    }
    case 'if': {
      const ev = compileExpr(n.e);
      const body = compileNodes(n.b);
      return (s) => (isTruthy(ev(s)) ? body(s) : '');
    }
    case 'el':
      return compileElement<Scope>(n, compileNodes);
    case 'for': {
      const ev = compileExpr(n.e);
      const body = compileNodes(n.b);
      const item = n.item;
      const index = n.index;
      return (s) => {
        const coll = ev(s);
        const locals = s.locals;
        let out = '';
        // Arrays, by far the common case, without a callback per item; the same order and
        // values as forEachItem, which serves everything else.
        if (Array.isArray(coll)) {
          for (let i = 0; i < coll.length; i++) {
            locals[item] = coll[i];
            if (index !== undefined) locals[index] = i;
            out += body(s);
          }
          return out;
        }
        forEachItem(coll, (v, k) => {
          locals[item] = v;
          if (index !== undefined) locals[index] = k;
          out += body(s);
        });
        return out;
      };
    }
  }
}

// ---- URLs ----------------------------------------------------------------------------------------

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * True when the URL's literal start alone proves `isUnsafeUrl` false for whatever values follow.
 * The proof uses the longest prefix of printable ASCII without `&`: entity decoding starts at an
 * `&`, and the squeeze removes only control characters and spaces, so both the decoded and the
 * squeezed URL begin with that prefix unchanged (lower-cased). It settles the scheme test when it
 * holds a non-letter (a scheme is letters then `:`), and the `//` test when it does not start
 * with a slash or backslash, or has a second character that is neither.
 */
function literalStartIsSafe(first: string): boolean {
  let len = 0;
  while (len < first.length) {
    const c = first.charCodeAt(len);
    if (c <= 0x20 || c >= 0x7f || c === 38 /* & */) break;
    len++;
  }
  if (len === 0) return false;
  let k = 0;
  while (k < len && isLetter(first.charCodeAt(k))) k++;
  if (k === len) return false; // all letters: a value could still complete `javascript:`
  if (first.charCodeAt(k) === 58 /* : */) {
    const scheme = first.slice(0, k).toLowerCase();
    if (scheme === 'javascript' || scheme === 'data' || scheme === 'vbscript') return false;
  }
  const c0 = first.charCodeAt(0);
  if (c0 !== 47 && c0 !== 92) return true;
  if (len < 2) return false;
  const c1 = first.charCodeAt(1);
  return c1 !== 47 && c1 !== 92;
}

function compileUrl(parts: readonly (string | Expr)[], srcset: boolean): Emit {
  // Literal parts are emitted as written; a value is percent-encoded as a path segment until a
  // literal part has opened the query or fragment, and as one component after that.
  const lits: string[] = [''];
  const dyns: Emit[] = [];
  let inQuery = false;
  for (const p of parts) {
    if (typeof p === 'string') {
      lits[lits.length - 1] += p;
      if (!inQuery && (p.includes('?') || p.includes('#'))) inQuery = true;
      continue;
    }
    if (p.k === 'path') {
      const segs = p.segs;
      // A `path` expression is already a percent-encoded path.
      dyns.push((s) => evaluatePath(segs, s));
    } else {
      const ev = compileExpr(p);
      const q = inQuery;
      // A value that starts the URL is the URL (checked below like any); a route param and a value
      // written `{x...}` may span segments; any other value after a literal start is one segment.
      // (In a srcset each candidate is a URL of its own: values there keep the per-segment rule.)
      const whole = srcset || (lits.length === 1 && lits[0] === '');
      if (whole || p.k === 'param') dyns.push((s) => encodeUrlValue(toText(ev(s)), q));
      else if (p.k === 'seg') dyns.push((s) => encodeUrlSegments(toText(ev(s)), q));
      else dyns.push((s) => encodeUrlData(toText(ev(s)), q));
    }
    lits.push('');
  }
  const count = dyns.length;
  const head = lits[0];
  const checked = srcset || !(typeof parts[0] === 'string' && literalStartIsSafe(head));
  return (s) => {
    let out = head;
    for (let i = 0; i < count; i++) out += escapeHtml(dyns[i](s)) + lits[i + 1];
    return checked ? checkedUrl(out, srcset) : out;
  };
}

/** A whole URL as written out, or the unsafe-URL stand-in. */
function checkedUrl(out: string, srcset: boolean): string {
  const decoded = decodeEntities(out);
  if (srcset) return safeSrcset(decoded) === decoded ? out : UNSAFE_URL;
  return isUnsafeUrl(decoded) ? UNSAFE_URL : out;
}

/**
 * What a URL hole of literal parts alone renders (`parts` joined: `url`): the page compiler folds
 * every literal link this way, without compiling a one-node template for it.
 */
export function renderStaticUrl(url: string, srcset: boolean): string {
  return srcset || !literalStartIsSafe(url) ? checkedUrl(url, srcset) : url;
}

// ---- expressions ---------------------------------------------------------------------------------

function readParam(params: RenderParams | undefined, name: string, blocked: boolean): string | undefined {
  if (!params) return undefined;
  if (params instanceof Map) return params.get(name);
  const v = readField(params, name, blocked);
  return typeof v === 'string' ? v : undefined;
}

function evaluatePath(segs: readonly PathSegment[], scope: Scope): string {
  let out = '';
  for (const s of segs) {
    if ('s' in s) {
      out += '/' + s.s;
      continue;
    }
    const v = readParam(scope.params, s.p, BLOCKED_FIELDS.has(s.p)) ?? '';
    const parts = s.rest ? v.split('/') : [v];
    for (const part of parts) out += '/' + (encodePathSegment(part) ?? '');
  }
  return out === '' ? '/' : out;
}

/** `getField` with the blocked-name test done at compile time. */
function readField(target: unknown, key: string, blocked: boolean): unknown {
  if (target === null || target === undefined) return undefined;
  if (target instanceof Map) return target.get(key);
  const type = typeof target;
  if (type !== 'object' && type !== 'function') return undefined;
  if (blocked) return undefined;
  const value = (target as Record<string, unknown>)[key];
  return typeof value === 'function' ? undefined : value;
}

/** `getPath` of a fixed path, as a reader of the value `from` the scope gives. */
function pathReader(from: Eval, path: readonly string[]): Eval {
  const keys = path.slice();
  const blocked = keys.map((k) => BLOCKED_FIELDS.has(k));
  if (keys.length === 0) return from;
  if (keys.length === 1) {
    const key = keys[0];
    const b = blocked[0];
    return (s) => readField(from(s), key, b);
  }
  const n = keys.length;
  return (s) => {
    let v = from(s);
    for (let i = 0; i < n; i++) {
      v = readField(v, keys[i], blocked[i]);
      if (v === undefined) return undefined;
    }
    return v;
  };
}

function compileExpr(e: Expr): Eval {
  switch (e.k) {
    case 'lit': {
      const v = e.v;
      return () => v;
    }
    case 'data':
      return pathReader((s) => s.data, e.p);
    case 'local': {
      const i = e.i;
      return pathReader((s) => s.locals[i], e.p);
    }
    case 'param': {
      const name = e.n;
      const blocked = BLOCKED_FIELDS.has(name);
      return (s) => readParam(s.params, name, blocked);
    }
    case 'not': {
      const ev = compileExpr(e.e);
      return (s) => !isTruthy(ev(s));
    }
    case 'seg':
      return compileExpr(e.e);
    case 'cat': {
      const parts = e.parts.map(compileExpr);
      return (s) => {
        let out = '';
        for (let i = 0; i < parts.length; i++) out += toText(parts[i](s));
        return out;
      };
    }
    case 'path': {
      const segs = e.segs;
      return (s) => evaluatePath(segs, s);
    }
    case 'bin': {
      const l = compileExpr(e.l);
      const r = compileExpr(e.r);
      switch (e.op) {
        case '&&':
          return (s) => {
            const v = l(s);
            return isTruthy(v) ? r(s) : v;
          };
        case '||':
          return (s) => {
            const v = l(s);
            return isTruthy(v) ? v : r(s);
          };
        case '==':
          return (s) => looseEquals(l(s), r(s));
        case '!=':
          return (s) => !looseEquals(l(s), r(s));
        case '<':
          return (s) => compare(l(s), r(s)) < 0;
        case '<=':
          return (s) => compare(l(s), r(s)) <= 0;
        case '>':
          return (s) => compare(l(s), r(s)) > 0;
        case '>=':
          return (s) => compare(l(s), r(s)) >= 0;
      }
    }
  }
  // An expression kind this renderer does not know evaluates to nothing, as before.
  return () => undefined;
}
