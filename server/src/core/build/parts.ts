// Layouts and components compiled once each into proto nodes (`Part`s), and a component call
// instantiated from its part with the caller's props and slot content; the layout chain of a page.
// Pages (`site.ts`) are compiled against these.
import { type Element, type MarkupNode, type PropDecl, letBinding, MAX_MARKUP_DEPTH } from '#grammar/index.js';
import type { ParsedRoute } from '#shared/route/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/registry.js';
import type { FileSummary } from '../model/summary.js';
import type { KitEntry } from '../model/entries.js';
import { componentKey, layoutKey } from '../resolve/names.js';
import type { OwnerAssets } from './owner-assets.js';
import { scopeClassFor } from './css-scope.js';
import {
  attributeExpr,
  type BoundName,
  compileElement,
  compileNodes,
  freshNesting,
  literalValue,
  type OwnerContext,
  type Scope,
} from './markup.js';
import { push, substitute, type PExpr, type PNode, type SlotContent } from './proto.js';

/** A compiled layout or component: proto nodes plus what instantiating it brings along. */
export interface Part {
  nodes: PNode[];
  locals: number;
  kitJs: boolean;
  /** Component keys used inside, transitively, in first-use order. */
  components: string[];
  /** How deep its elements nest, and the deepest element a `<slot>` stands in (-1: none). */
  depth: number;
  slot: number;
  /** A call inside nests too deep (reported once, where it crosses); callers leave it out quietly. */
  cut: boolean;
}

/** The first non-comment children of a component call, split into named and default slot content. */
function slotChildren(call: Element): { named: Map<string, Element>; rest: MarkupNode[] } {
  const named = new Map<string, Element>();
  const rest: MarkupNode[] = [];
  for (const c of call.children) {
    const g = c.type === 'element' ? c.attrs.find((a) => a.name === 'g:slot') : undefined;
    if (c.type === 'element' && g) {
      const name = literalValue(g) ?? '';
      if (!named.has(name)) named.set(name, c);
    } else rest.push(c);
  }
  return { named, rest };
}

export class PartCompiler {
  private readonly components = new Map<string, KitEntry>();
  private readonly layouts = new Map<string, KitEntry>();
  private readonly componentParts = new Map<string, Part | null>();
  private readonly layoutParts = new Map<string, Part>();
  private readonly chains = new Map<string, string[]>();
  /** Ids handed to `let:` bindings of slot content (unique per compile, so nested bindings never mix). */
  private letIds = 0;

  /** `kits`: every `.kit` entry (the first component or layout of a name wins, as resolution does). */
  constructor(
    kits: readonly KitEntry[],
    private readonly owned: OwnerAssets,
    private readonly diagnostics: Diagnostic[],
  ) {
    for (const e of kits) this.add(e);
  }

  /**
   * Makes a component or layout known (other entries are ignored); the first of a name wins.
   * Answers false when another entry already holds its name.
   */
  add(e: KitEntry): boolean {
    const s = e.summary;
    const parts = s.kind === 'component' ? this.components : s.kind === 'layout' ? this.layouts : undefined;
    if (!parts) return true;
    const key = `${s.packageName}.${s.ownerId}`;
    const had = parts.get(key);
    if (had === undefined) parts.set(key, e);
    return had === undefined || had === e;
  }

  /** Owners whose layouts and components, all the way down, are known (`ready`). */
  private readonly complete = new WeakSet<FileSummary>();

  /**
   * Whether every layout and component the file of `s` renders, all the way down, is known: then
   * compiling it now gives what compiling it once every file is known gives (when no name is
   * declared twice). A walk with its own stack, each owner found complete remembered.
   */
  ready(s: FileSummary): boolean {
    const seen = new Set<FileSummary>();
    const todo = [s];
    while (todo.length) {
      const x = todo.pop()!;
      if (this.complete.has(x) || seen.has(x)) continue;
      seen.add(x);
      for (const id of x.layouts) {
        const key = layoutKey(x, id);
        const l = key === undefined ? undefined : this.layouts.get(key);
        if (!l) return false;
        todo.push(l.summary);
      }
      for (const c of x.componentCalls) {
        const key = componentKey(x, c);
        const d = key === undefined ? undefined : this.components.get(key);
        if (!d) return false;
        todo.push(d.summary);
      }
    }
    for (const x of seen) if (x !== s) this.complete.add(x);
    return true;
  }

  /** The layout of a key (`<package>.<id>`). */
  layout(key: string): KitEntry | undefined {
    return this.layouts.get(key);
  }

  /** The component of a key (`<package>.<id>`). */
  component(key: string): KitEntry | undefined {
    return this.components.get(key);
  }

  context(s: FileSummary, opts: { props?: ReadonlySet<string>; slots: boolean; route?: ParsedRoute }): OwnerContext {
    return {
      summary: s,
      scopeClass: s.declarations.some((d) => d.kind === 'style')
        ? scopeClassFor(s.kind, s.packageName, s.ownerId)
        : undefined,
      props: opts.props,
      slots: opts.slots,
      route: opts.route,
      assetUrls: this.owned.filesOf(s),
      locals: { n: 0 },
      facts: { kitJs: false, components: [] },
      nesting: freshNesting(),
      component: (call, ctx, scope, out) => this.instantiate(call, ctx, scope, out),
    };
  }

  private compilePart(kind: 'component' | 'layout', entry: KitEntry): Part {
    const s = entry.summary;
    const props = kind === 'component' ? new Set((s.props?.props ?? []).map((p) => p.name.text)) : undefined;
    const ctx = this.context(s, { props, slots: true });
    const nodes: PNode[] = [];
    if (s.view) compileNodes(s.view.body, ctx, new Map(), nodes, 0, true);
    const { facts, nesting } = ctx;
    return {
      nodes,
      locals: ctx.locals.n,
      kitJs: facts.kitJs,
      components: facts.components,
      depth: nesting.max,
      slot: nesting.slot,
      cut: nesting.cut,
    };
  }

  /** A compiled layout (layouts nest through pages' chains, never inside each other's markup). */
  layoutPart(key: string): Part | undefined {
    let part = this.layoutParts.get(key);
    const entry = this.layouts.get(key);
    if (part === undefined && entry) this.layoutParts.set(key, (part = this.compilePart('layout', entry)));
    return part;
  }

  /**
   * A compiled component. It is compiled with every component it calls that is not compiled yet,
   * callees first (a depth-first walk with its own stack), so compiling never recurses from one
   * component into the next: a chain of thousands of components costs no call stack. A call back
   * into a component still being compiled (a cycle, which kit check reports) finds null and stops.
   */
  private componentPart(key: string): Part | undefined {
    if (!this.componentParts.has(key)) {
      const order: string[] = [];
      const walk: { key: string; calls: string[] }[] = [];
      const enter = (k: string) => {
        const s = this.components.get(k)!.summary;
        this.componentParts.set(k, null);
        const calls = s.componentCalls.map((c) => componentKey(s, c)).filter((c) => c !== undefined);
        walk.push({ key: k, calls: calls.reverse() });
      };
      if (this.components.has(key)) enter(key);
      while (walk.length) {
        const top = walk[walk.length - 1];
        const next = top.calls.pop();
        if (next === undefined) order.push(walk.pop()!.key);
        else if (this.components.has(next) && !this.componentParts.has(next)) enter(next);
      }
      for (const k of order) this.componentParts.set(k, this.compilePart('component', this.components.get(k)!));
    }
    return this.componentParts.get(key) ?? undefined;
  }

  /** A component call: props from the call's attributes, slots from its children. */
  private instantiate(call: Element, ctx: OwnerContext, scope: Scope, out: PNode[]): void {
    const key = componentKey(ctx.summary, call);
    const def = key ? this.components.get(key) : undefined;
    const part = key && def ? this.componentPart(key) : undefined;
    if (!key || !def || !part) {
      if (!def)
        this.diagnostics.push(
          diag(
            'unknown_component',
            ctx.summary.path,
            call.nameRange,
            `${ctx.summary.ownerId}: unknown component <${call.name}>`,
          ),
        );
      return;
    }
    const props = new Map<string, PExpr>();
    for (const p of def.summary.props?.props ?? []) props.set(p.name.text, this.propValue(p, call, ctx, scope));
    const slots = new Map<string, SlotContent>();
    const { named, rest } = slotChildren(call);
    // Slot content is measured from its own top (the component's slot decides where it lands).
    const outer = ctx.nesting;
    const inner = freshNesting();
    ctx.nesting = inner;
    for (const [name, el] of named) {
      const nodes: PNode[] = [];
      const content = this.slotScope(el, scope);
      if (el.name === 'template') compileNodes(el.children, ctx, content.scope, nodes, 0, true);
      else compileElement(el, ctx, content.scope, nodes, 0);
      slots.set(name, { nodes, lets: content.lets });
    }
    if (
      !slots.has('') &&
      rest.some((n) => n.type === 'element' || n.type === 'interp' || (n.type === 'text' && n.value.trim() !== ''))
    ) {
      const nodes: PNode[] = [];
      // `let:` on the call itself binds the default slot's values.
      const content = this.slotScope(call, scope);
      compileNodes(rest, ctx, content.scope, nodes, 0, true);
      slots.set('', { nodes, lets: content.lets });
    }
    ctx.nesting = outer;
    const depth = part.slot >= 0 && slots.size ? Math.max(part.depth, part.slot + inner.max) : part.depth;
    if (part.cut || inner.cut) {
      outer.cut = true;
      return;
    }
    if (outer.now + depth > MAX_MARKUP_DEPTH) {
      outer.cut = true;
      this.diagnostics.push(
        diag(
          'markup_too_deep',
          ctx.summary.path,
          call.nameRange,
          `${ctx.summary.ownerId}: <${call.name}> here nests elements ${outer.now + depth} deep with its content; ` +
            `the limit is ${MAX_MARKUP_DEPTH}: flatten the markup`,
        ),
      );
      return;
    }
    outer.max = Math.max(outer.max, outer.now + depth);
    if (part.slot >= 0 && inner.slot >= 0) outer.slot = Math.max(outer.slot, outer.now + part.slot + inner.slot);
    const base = ctx.locals.n;
    ctx.locals.n += part.locals;
    for (const n of substitute(part.nodes, { props, slots, base })) push(out, n);
    const facts = ctx.facts;
    if (part.kitJs) facts.kitJs = true;
    for (const c of [key, ...part.components]) if (!facts.components.includes(c)) facts.components.push(c);
  }

  /** The scope of slot content: the caller's, plus the names its `let:` attributes bind (fresh ids). */
  private slotScope(el: Element, scope: Scope): { scope: Scope; lets?: ReadonlyMap<string, number> } {
    let lets: Map<string, number> | undefined;
    let inner: Map<string, BoundName> | undefined;
    for (const a of el.attrs) {
      const name = letBinding(a);
      if (!name) continue;
      const id = this.letIds++;
      (lets ??= new Map()).set(name, id);
      (inner ??= new Map(scope)).set(name, { k: 'let', id, p: [] });
    }
    return { scope: inner ?? scope, lets };
  }

  private propValue(p: PropDecl, call: Element, ctx: OwnerContext, scope: Scope): PExpr {
    const a = call.attrs.find((x) => x.name === p.name.text && x.form === 'normal');
    if (!a) return { k: 'lit', v: p.default ? p.default.value : null };
    return attributeExpr(a, ctx, scope, p.type.text);
  }

  private readonly chainOf = new WeakMap<FileSummary, string[]>();

  /** Layout keys of a page, outermost first: each named layout preceded by its parents, once each. */
  layoutChain(s: FileSummary): string[] {
    if (s.layouts.length === 0) return [];
    // Asked for several times per page (its head, its body, its error page).
    let chain = this.chainOf.get(s);
    if (chain) return chain;
    const uses = [...s.uses.entries()].map(([a, u]) => `${a}=${u.pkg.value}`).join(',');
    const key = `${s.packageName}\u0000${uses}\u0000${s.layouts.join(',')}`;
    chain = this.chains.get(key);
    if (!chain) this.chains.set(key, (chain = this.resolveChain(s)));
    this.chainOf.set(s, chain);
    return chain;
  }

  /** Parents before children, once each; a walk with its own stack (layout chains can be long). */
  private resolveChain(s: FileSummary): string[] {
    const out: string[] = [];
    const done = new Set<string>();
    const visiting = new Set<string>();
    const walk: { key: string; from: FileSummary; parents: string[] }[] = [];
    const enter = (from: FileSummary, id: string) => {
      const key = layoutKey(from, id);
      const def = key ? this.layouts.get(key) : undefined;
      if (!key || !def || done.has(key) || visiting.has(key)) return;
      visiting.add(key);
      walk.push({ key, from: def.summary, parents: [...def.summary.layouts].reverse() });
    };
    for (const id of s.layouts) {
      enter(s, id);
      while (walk.length) {
        const top = walk[walk.length - 1];
        const parent = top.parents.pop();
        if (parent !== undefined) {
          enter(top.from, parent);
          continue;
        }
        walk.pop();
        visiting.delete(top.key);
        done.add(top.key);
        out.push(top.key);
      }
    }
    return out;
  }
}
