// View markup → proto IR, for one owner (page, layout, component or fragment body). Elements and
// attributes become static chunks; interpolations become escaped holes; `g:` directives are lowered
// or dropped; component calls are instantiated from their once-compiled form.
import type {
  ActDecl,
  Attribute,
  Element,
  Expr,
  MarkupNode,
  TextOrInterpolation,
} from '../../../../grammar/src/ast.js';
import { VOID_ELEMENTS } from '../../../../grammar/src/index.js';
import { concretePath, type ParsedRoute, parseRoutePattern } from '../../../../shared/route/index.js';
import { decodeEntities, escapeHtml, staticHtml, URL_ATTRIBUTES } from '../../../../shared/render/index.js';
import type { FileSummary } from '../model/summary.js';
import { fold, push, pushIf, type PExpr, type PNode } from './proto.js';

/** What the markup of one owner is compiled against. */
export interface OwnerContext {
  summary: FileSummary;
  /** Scope class added to every element the owner writes (owners with a `style {}` block). */
  scopeClass?: string;
  /** Prop names, when compiling a component. */
  props?: ReadonlySet<string>;
  /** Whether `<slot>` elements are slot placeholders (components and layouts). */
  slots: boolean;
  /** The route `g:post`/`g:command` forms post to when no path is declared. */
  route?: ParsedRoute;
  /**
   * The owner's declared files (`asset`, `wasm`) by the path as written (`./logo.png`, `logo.png`):
   * a URL attribute naming one exactly is rewritten to its content-hashed URL.
   */
  assetUrls?: ReadonlyMap<string, string>;
  /** Loop slots allocated so far in the template being built. */
  locals: { n: number };
  /** Facts gathered while compiling, merged up through component instantiation. */
  facts: Facts;
  /** How deep the elements being compiled nest (see `Nesting`). */
  nesting: Nesting;
  /** Instantiates a component call in the caller's context (provided by the site compiler). */
  component(call: Element, ctx: OwnerContext, scope: Scope, out: PNode[]): void;
}

export interface Facts {
  /** A literal internal link or a partial/command form: the page needs kit.js. */
  kitJs: boolean;
  /** Component keys (`pkg.Name`) instantiated, transitively, in first-use order. */
  components: string[];
}

/**
 * Element depths in the markup an owner renders, components' content included: `now` is the depth
 * of the element being compiled (0 at the owner's top level), `max` the deepest element so far,
 * `slot` the deepest element a `<slot>` stands in (-1 without one), `cut` whether a component call
 * inside was left out for crossing the limit. The site compiler uses them to keep a rendered page
 * within `MAX_MARKUP_DEPTH` when components and layouts stack up.
 */
export interface Nesting {
  now: number;
  max: number;
  slot: number;
  cut: boolean;
}

export function freshNesting(): Nesting {
  return { now: 0, max: 0, slot: -1, cut: false };
}

/** What a name in scope stands for: a loop variable (a local slot) or a slot value bound by `let:`. */
export type BoundName = Extract<PExpr, { k: 'local' } | { k: 'let' }>;

/** Names in scope. */
export type Scope = ReadonlyMap<string, BoundName>;

const PRESERVE_SPACE = new Set(['pre', 'textarea', 'style', 'listing', 'plaintext']);
const RAW_TEXT = new Set(['style']);

/** Expression of the markup language → proto expression, resolved in `scope` and the owner's props. */
export function convertExpr(e: Expr, ctx: OwnerContext, scope: Scope): PExpr {
  switch (e.type) {
    case 'literal':
      return { k: 'lit', v: e.value };
    case 'param':
      return { k: 'param', n: e.name.value };
    case 'not':
      return { k: 'not', e: convertExpr(e.expr, ctx, scope) };
    case 'binary':
      return { k: 'bin', op: e.op, l: convertExpr(e.left, ctx, scope), r: convertExpr(e.right, ctx, scope) };
    case 'path': {
      const [head, ...rest] = e.path;
      const bound = scope.get(head);
      const value: PExpr =
        bound !== undefined
          ? { ...bound, p: rest }
          : ctx.props?.has(head)
            ? { k: 'prop', n: head, p: rest }
            : { k: 'data', p: e.path };
      return e.segments ? { k: 'seg', e: value } : value;
    }
    default:
      return { k: 'lit', v: null };
  }
}

function coerce(text: string, type: string): string | number | boolean {
  if (type === 'bool') return !/^(false|0|no|off)$/i.test(text.trim());
  if (type === 'int' && /^[-+]?\d+$/.test(text.trim())) return Number(text);
  if (type === 'float' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

/**
 * The value an attribute passes to a component: a prop (its text coerced to the prop's `type`) or,
 * without a type, a slot value (a bare attribute is true, text stays text).
 */
export function attributeExpr(a: Attribute, ctx: OwnerContext, scope: Scope, type?: string): PExpr {
  if (!a.value) return { k: 'lit', v: type === undefined || type === 'bool' ? true : '' };
  if (a.value.type === 'expr') return convertExpr(a.value.expr, ctx, scope);
  const parts = a.value.parts;
  if (parts.every((x) => x.type === 'text'))
    return {
      k: 'lit',
      v: coerce(decodeEntities(parts.map((x) => (x.type === 'text' ? x.value : '')).join('')), type ?? ''),
    };
  if (parts.length === 1 && parts[0].type === 'interp') return convertExpr(parts[0].expr, ctx, scope);
  return {
    k: 'cat',
    parts: parts.map(
      (x): PExpr => (x.type === 'text' ? { k: 'lit', v: decodeEntities(x.value) } : convertExpr(x.expr, ctx, scope)),
    ),
  };
}

/** Whitespace runs that hold a line break become one line break (outside `pre` and friends). */
function collapse(text: string): string {
  return text.replace(/[ \t\r\f\v]*\n[ \t\r\n\f\v]*/g, '\n');
}

function isBlank(n: MarkupNode): boolean {
  return n.type === 'comment' || (n.type === 'text' && n.value.trim() === '');
}

/** Compiles a node list; `trim` drops the whitespace that opens and closes a whole body. */
export function compileNodes(
  nodes: readonly MarkupNode[],
  ctx: OwnerContext,
  scope: Scope,
  out: PNode[],
  pre = 0,
  trim = false,
): void {
  let first = 0;
  let last = nodes.length - 1;
  if (trim) {
    while (first <= last && isBlank(nodes[first])) first++;
    while (last >= first && isBlank(nodes[last])) last--;
  }
  for (let i = first; i <= last; i++) {
    const n = nodes[i];
    switch (n.type) {
      case 'comment':
        break;
      case 'text': {
        let v = pre > 0 ? n.value : collapse(n.value);
        if (trim && i === first) v = v.replace(/^\s+/, '');
        if (trim && i === last) v = v.replace(/\s+$/, '');
        push(out, staticHtml(v, false));
        break;
      }
      case 'interp':
        push(out, fold({ t: 'text', e: convertExpr(n.expr, ctx, scope) }));
        break;
      case 'element':
        compileElement(n, ctx, scope, out, pre);
        break;
    }
  }
}

function attr(el: Element, name: string): Attribute | undefined {
  return el.attrs.find((a) => a.name === name);
}

/** The literal text of an attribute, when it has no interpolation. */
export function literalValue(a: Attribute): string | undefined {
  if (!a.value) return undefined;
  if (a.value.type !== 'string') return undefined;
  let s = '';
  for (const p of a.value.parts) {
    if (p.type !== 'text') return undefined;
    s += p.value;
  }
  return s;
}

export function compileElement(el: Element, ctx: OwnerContext, scope: Scope, out: PNode[], pre: number): void {
  const forAttr = attr(el, 'g:for');
  if (forAttr?.value?.type === 'expr' && forAttr.value.expr.type === 'for') {
    const f = forAttr.value.expr;
    const item = ctx.locals.n++;
    const index = f.index ? ctx.locals.n++ : undefined;
    const inner = new Map(scope);
    inner.set(f.item.text, { k: 'local', i: item, p: [] });
    if (f.index && index !== undefined) inner.set(f.index.text, { k: 'local', i: index, p: [] });
    const body: PNode[] = [];
    compileConditional(el, ctx, inner, body, pre);
    out.push({
      t: 'for',
      e: convertExpr(f.collection, ctx, scope),
      item,
      ...(index !== undefined ? { index } : {}),
      b: body,
    });
    return;
  }
  compileConditional(el, ctx, scope, out, pre);
}

function compileConditional(el: Element, ctx: OwnerContext, scope: Scope, out: PNode[], pre: number): void {
  const ifAttr = attr(el, 'g:if');
  if (ifAttr?.value?.type === 'expr') {
    const body: PNode[] = [];
    compileFieldError(el, ctx, scope, body, pre);
    pushIf(out, convertExpr(ifAttr.value.expr, ctx, scope), body);
    return;
  }
  compileFieldError(el, ctx, scope, out, pre);
}

/**
 * `g:error="email"`: the element renders only when the re-rendered page's `form.errors.email` is
 * set (a failed submission); an element written empty shows the message itself.
 */
function compileFieldError(el: Element, ctx: OwnerContext, scope: Scope, out: PNode[], pre: number): void {
  const a = attr(el, 'g:error');
  const field = a && literalValue(a);
  if (!field) {
    compileBare(el, ctx, scope, out, pre);
    return;
  }
  const message: PExpr = { k: 'data', p: ['form', 'errors', field] };
  const body: PNode[] = [];
  const empty = el.children.every(isBlank) && !VOID_ELEMENTS.has(el.name);
  compileBare(empty ? { ...el, children: [] } : el, ctx, scope, body, pre);
  const close = `</${el.name}>`;
  const last = body[body.length - 1];
  if (empty && typeof last === 'string' && last.endsWith(close)) {
    // The element's chunks end with its close tag: the message goes just before it.
    const open = last.slice(0, -close.length);
    if (open === '') body.pop();
    else body[body.length - 1] = open;
    body.push(fold({ t: 'text', e: message }));
    push(body, close);
  }
  pushIf(out, message, body);
}

function compileBare(el: Element, ctx: OwnerContext, scope: Scope, out: PNode[], pre: number): void {
  if (el.isComponent) {
    ctx.component(el, ctx, scope, out);
    return;
  }
  if (el.name === 'slot' && ctx.slots) {
    const nameAttr = attr(el, 'name');
    const fb: PNode[] = [];
    ctx.nesting.slot = Math.max(ctx.nesting.slot, ctx.nesting.now);
    compileNodes(el.children, ctx, scope, fb, pre, true);
    const values = new Map<string, PExpr>();
    for (const a of el.attrs)
      if (a.form === 'normal' && a.name !== 'name' && !a.name.startsWith('g:'))
        values.set(a.name, attributeExpr(a, ctx, scope));
    out.push({ t: 'slot', n: (nameAttr && literalValue(nameAttr)) ?? '', fb, ...(values.size ? { v: values } : {}) });
    return;
  }
  if (el.name === 'template' && attr(el, 'g:slot')) {
    // Slot content outside a component call has nowhere to go but here.
    compileNodes(el.children, ctx, scope, out, pre);
    return;
  }
  push(out, '<' + el.name);
  compileAttributes(el, ctx, scope, out);
  push(out, '>');
  const n = ctx.nesting;
  n.max = Math.max(n.max, n.now + 1);
  if (VOID_ELEMENTS.has(el.name)) return;
  n.now++;
  const innerPre = pre + (PRESERVE_SPACE.has(el.name) ? 1 : 0);
  if (RAW_TEXT.has(el.name)) {
    // CSS text is not HTML: copied as written (interpolations are still escaped).
    for (const c of el.children) {
      if (c.type === 'text') push(out, c.value.replace(/<\//g, '<\\/'));
      else if (c.type === 'interp') push(out, fold({ t: 'text', e: convertExpr(c.expr, ctx, scope) }));
    }
  } else {
    compileNodes(el.children, ctx, scope, out, innerPre);
  }
  n.now--;
  push(out, '</' + el.name + '>');
}

/** Static text of a quoted attribute part list, or holes for its interpolations. */
function valueNodes(parts: readonly TextOrInterpolation[], ctx: OwnerContext, scope: Scope, out: PNode[]): void {
  for (const p of parts) {
    if (p.type === 'text') push(out, staticHtml(p.value, true));
    else push(out, fold({ t: 'attr', e: convertExpr(p.expr, ctx, scope) }));
  }
}

function urlNodes(
  name: string,
  parts: readonly TextOrInterpolation[],
  ctx: OwnerContext,
  scope: Scope,
  out: PNode[],
): void {
  const url: (string | PExpr)[] = [];
  for (const p of parts) {
    if (p.type === 'text') {
      const html = staticHtml(p.value, true);
      const lastIdx = url.length - 1;
      if (lastIdx >= 0 && typeof url[lastIdx] === 'string') url[lastIdx] = (url[lastIdx] as string) + html;
      else url.push(html);
    } else {
      url.push(convertExpr(p.expr, ctx, scope));
    }
  }
  push(out, fold({ t: 'url', parts: url, ...(name === 'srcset' ? { srcset: true as const } : {}) }));
}

/** A route's path for a form: literal when static, a `path` expression filled from params otherwise. */
function formPath(route: ParsedRoute): string | PExpr {
  if (!route.isDynamic) return concretePath(route, {}) ?? '/';
  return {
    k: 'path',
    segs: route.segments.map((s) =>
      s.kind === 'static' ? { s: s.value } : s.kind === 'rest' ? { p: s.name, rest: true as const } : { p: s.name },
    ),
  };
}

function pushFormPath(path: string | PExpr, out: PNode[]): void {
  push(out, ' action="');
  push(out, fold({ t: 'url', parts: [typeof path === 'string' ? escapeHtml(path) : path] }));
  push(out, '"');
}

function actionRoute(ctx: OwnerContext, a: Attribute): ParsedRoute | undefined {
  const symbol =
    a.value?.type === 'expr' && a.value.expr.type === 'path' ? a.value.expr.path.join('.') : literalValue(a);
  const decl: ActDecl | undefined = ctx.summary.actions.find((x) => x.symbol.text === symbol);
  if (decl?.path && decl.path.value !== '') return parseRoutePattern(decl.path.value);
  return ctx.route;
}

function isInternalLink(el: Element): boolean {
  if (el.name !== 'a') return false;
  const href = attr(el, 'href');
  const v = href && literalValue(href);
  return v !== undefined && v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/\\');
}

function compileAttributes(el: Element, ctx: OwnerContext, scope: Scope, out: PNode[]): void {
  const post = attr(el, 'g:post');
  const command = attr(el, 'g:command');
  if (isInternalLink(el) || attr(el, 'g:target') || command) ctx.facts.kitJs = true;
  const classes: { parts: TextOrInterpolation[] | undefined; expr?: Expr }[] = [];
  let classAt = -1;
  let idDone = false;
  const items: (PNode[] | 'class')[] = [];
  for (const a of el.attrs) {
    const name = a.name;
    const chunk: PNode[] = [];
    // `let:` bindings belong to the slot content; they never reach the output.
    if (a.form === 'let') continue;
    if (name.startsWith('g:')) {
      const lowered = lowerDirective(a, el, ctx, post !== undefined);
      if (lowered) items.push(lowered);
      continue;
    }
    if (name === 'class') {
      if (a.value?.type === 'expr') classes.push({ parts: undefined, expr: a.value.expr });
      else if (a.value) classes.push({ parts: a.value.parts });
      if (classAt < 0) {
        classAt = items.length;
        items.push('class');
      }
      continue;
    }
    if (name === 'id') {
      if (idDone) continue;
      idDone = true;
    }
    const lower = name.toLowerCase();
    if ((post || command) && (lower === 'method' || (post && lower === 'action'))) continue;
    // Inline handlers and srcdoc are rejected by `kit check`; never emitted even so.
    if ((lower.startsWith('on') && !lower.includes(':')) || lower === 'srcdoc') continue;
    const isUrl = URL_ATTRIBUTES.has(lower);
    if (!a.value) {
      push(chunk, ' ' + name);
    } else if (a.value.type === 'expr') {
      chunk.push(
        fold({
          t: 'dattr',
          n: name,
          e: convertExpr(a.value.expr, ctx, scope),
          ...(isUrl ? { url: true as const } : {}),
        }),
      );
    } else if (isUrl && ctx.assetUrls?.has(literalValue(a) ?? '')) {
      push(chunk, ` ${name}="${escapeHtml(ctx.assetUrls.get(literalValue(a)!)!)}"`);
    } else {
      push(chunk, ` ${name}="`);
      if (isUrl) urlNodes(lower, a.value.parts, ctx, scope, chunk);
      else valueNodes(a.value.parts, ctx, scope, chunk);
      push(chunk, '"');
    }
    items.push(chunk);
  }
  if (ctx.scopeClass && classAt < 0) {
    classAt = items.length;
    items.push('class');
  }
  for (const item of items) {
    if (item !== 'class') {
      for (const n of item) push(out, n);
      continue;
    }
    push(out, ' class="');
    let first = true;
    for (const c of classes) {
      if (!first) push(out, ' ');
      first = false;
      if (c.expr) push(out, fold({ t: 'attr', e: convertExpr(c.expr, ctx, scope) }));
      else valueNodes(c.parts ?? [], ctx, scope, out);
    }
    if (ctx.scopeClass) push(out, (first ? '' : ' ') + ctx.scopeClass);
    push(out, '"');
  }
}

/** `g:` directives that reach the output, lowered to plain attributes. */
function lowerDirective(a: Attribute, el: Element, ctx: OwnerContext, hasPost: boolean): PNode[] | undefined {
  const out: PNode[] = [];
  const text = (name: string) => {
    const v =
      literalValue(a) ?? (a.value?.type === 'expr' && a.value.expr.type === 'path' ? a.value.expr.path.join('.') : '');
    push(out, ` ${name}="${staticHtml(v, true)}"`);
  };
  switch (a.name) {
    case 'g:post': {
      const route = actionRoute(ctx, a);
      push(out, ' method="post"');
      if (route) pushFormPath(formPath(route), out);
      return out;
    }
    case 'g:target':
      text('data-kit-target');
      return out;
    case 'g:swap':
      text('data-kit-swap');
      return out;
    case 'g:query':
      text('data-kit-query');
      return out;
    case 'g:error':
      text('data-kit-error');
      return out;
    case 'g:command': {
      text('data-kit-command');
      if (!hasPost) {
        push(out, ' method="post"');
        if (!attr(el, 'action') && ctx.route) pushFormPath(formPath(ctx.route), out);
      }
      return out;
    }
    default: {
      const m = /^g:message:([a-z]+)$/.exec(a.name);
      if (m && a.value?.type === 'string') {
        push(out, ` data-kit-message-${m[1]}="`);
        for (const p of a.value.parts) push(out, p.type === 'text' ? staticHtml(p.value, true) : '');
        push(out, '"');
        return out;
      }
      // g:if, g:for, g:lane, g:key and g:slot are consumed by the compiler; anything else was
      // rejected by `kit check`.
      return undefined;
    }
  }
}
