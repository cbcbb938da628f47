// The attributes of one element → proto IR: static chunks and escaped holes, URL attributes
// rewritten to content-hashed asset URLs, internal links and `g:post`/`g:command` forms pointed at
// their routes, and the `g:` directives lowered or dropped.
import type { ActDecl, Attribute, Element, Expr, TextOrInterpolation } from '#grammar/index.js';
import { concretePath, type ParsedRoute, parseRoutePattern } from '#shared/route/index.js';
import { escapeHtml, staticHtml, URL_ATTRIBUTES } from '#shared/render/index.js';
import { attr, convertExpr, literalValue, type OwnerContext, type Scope } from './owner-context.js';
import { fold, push, type PExpr, type PNode } from './proto.js';

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
function formRoutePath(route: ParsedRoute): string | PExpr {
  if (!route.isDynamic) return concretePath(route, {}) ?? '/';
  return {
    k: 'path',
    segs: route.segments.map((s) =>
      s.kind === 'static' ? { s: s.value } : s.kind === 'rest' ? { p: s.name, rest: true as const } : { p: s.name },
    ),
  };
}

/** The `action` attribute of a form posting to `path`. */
function formPath(path: string | PExpr): CompiledAttribute {
  const out: PNode[] = [];
  push(out, ' action="');
  push(out, fold({ t: 'url', parts: [typeof path === 'string' ? escapeHtml(path) : path] }));
  push(out, '"');
  return ['action', out];
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

/** One attribute as compiled: its name in lower case and the nodes that write it (` name="value"`). */
export type CompiledAttribute = [string, PNode[]];

/** The attributes of `el` in the order they are written (what `compileAttributes` pushes). */
export function compileAttributeList(el: Element, ctx: OwnerContext, scope: Scope): CompiledAttribute[] {
  const post = attr(el, 'g:post');
  const command = attr(el, 'g:command');
  if (isInternalLink(el) || attr(el, 'g:target') || command) ctx.facts.kitJs = true;
  const classes: { parts: TextOrInterpolation[] | undefined; expr?: Expr }[] = [];
  let classAt = -1;
  let idDone = false;
  const items: (CompiledAttribute | 'class')[] = [];
  for (const a of el.attrs) {
    const name = a.name;
    // `let:` bindings belong to the slot content; they never reach the output.
    if (a.form === 'let') continue;
    if (name.startsWith('g:')) {
      items.push(...lowerDirective(a, el, ctx, post !== undefined));
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
    items.push([lower, attributeNodes(a, name, lower, ctx, scope)]);
  }
  if (ctx.scopeClass && classAt < 0) items.push('class');
  return items.map((item) => (item === 'class' ? ['class', classNodes(classes, ctx, scope)] : item));
}

/** A plain attribute: bare, a `name={expr}` hole, a rewritten asset URL, or its quoted value. */
function attributeNodes(a: Attribute, name: string, lower: string, ctx: OwnerContext, scope: Scope): PNode[] {
  const chunk: PNode[] = [];
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
  return chunk;
}

/** `class`: every class attribute's parts, then the owner's scope class. */
function classNodes(
  classes: readonly { parts: TextOrInterpolation[] | undefined; expr?: Expr }[],
  ctx: OwnerContext,
  scope: Scope,
): PNode[] {
  const out: PNode[] = [];
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
  return out;
}

/** `g:` directives that reach the output, lowered to plain attributes (none for those the compiler consumes). */
function lowerDirective(a: Attribute, el: Element, ctx: OwnerContext, hasPost: boolean): CompiledAttribute[] {
  const text = (name: string): CompiledAttribute => {
    const v =
      literalValue(a) ?? (a.value?.type === 'expr' && a.value.expr.type === 'path' ? a.value.expr.path.join('.') : '');
    return [name, [` ${name}="${staticHtml(v, true)}"`]];
  };
  const post = (route: ParsedRoute | undefined): CompiledAttribute[] => [
    ['method', [' method="post"']],
    ...(route ? [formPath(formRoutePath(route))] : []),
  ];
  switch (a.name) {
    case 'g:post':
      return post(actionRoute(ctx, a));
    case 'g:target':
      return [text('data-kit-target')];
    case 'g:swap':
      return [text('data-kit-swap')];
    case 'g:query':
      return [text('data-kit-query')];
    case 'g:error':
      return [text('data-kit-error')];
    case 'g:command':
      return [text('data-kit-command'), ...(hasPost ? [] : post(attr(el, 'action') ? undefined : ctx.route))];
    default: {
      const m = /^g:message:([a-z]+)$/.exec(a.name);
      if (m && a.value?.type === 'string') {
        const out: PNode[] = [];
        push(out, ` data-kit-message-${m[1]}="`);
        for (const p of a.value.parts) push(out, p.type === 'text' ? staticHtml(p.value, true) : '');
        push(out, '"');
        return [[`data-kit-message-${m[1]}`, out]];
      }
      // g:if, g:for, g:lane, g:key and g:slot are consumed by the compiler; anything else was
      // rejected by `kit check`.
      return [];
    }
  }
}
