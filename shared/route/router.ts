// The compiled router: a segment trie whose nodes find their static child through a Map (or one
// inline key), so a lookup costs O(segments) whatever the number of routes. At each segment the
// candidates are tried from the most to the least specific, independent of registration order:
//   1. the static child equal to the segment;
//   2. typed param children whose type the segment decodes as (bool, uint, int, uint64, int64,
//      float64, in that order);
//   3. the plain param child (`{x}` and `{x:string}`);
//   4. a rest param (one or more remaining segments);
//   5. typed param children whose type the segment does NOT decode as — the type never decides
//      whether a route matches, only which route wins; the typed
//      binding answers 400 afterwards.
// A branch that dead-ends (no route for this method below it) backtracks to the next candidate.
// Methods are exact strings: HEAD is not GET here (the server maps HEAD to GET for pages).
import { parseRoutePattern } from './pattern.js';
import { isCapturableSegment } from './match.js';
import { decodesAs } from './params.js';
import { setOwn } from './record.js';
import type { ParamType, ParsedRoute } from './types.js';

export interface RouteMatch<T> {
  value: T;
  params: Record<string, string>;
  route: ParsedRoute;
}

export interface Router<T> {
  /** The best route for `method` and the decoded request segments (`/` is `[]`). */
  lookup(method: string, segments: readonly string[]): RouteMatch<T> | undefined;
  /** Every method some route answers at these segments (for 405 `Allow`), in conventional order. */
  allowedMethods(segments: readonly string[]): string[];
  readonly size: number;
}

export interface RouterEntry<T> {
  method: string;
  pattern: string | ParsedRoute;
  value: T;
}
export interface RouterError {
  index: number;
  message: string;
}

interface Leaf<T> {
  method: string;
  value: T;
  route: ParsedRoute;
  /** Param names in capture order, interned (see `internalized`). */
  names: string[];
  /** Some name is `__proto__`: params must be defined, not assigned (see record.ts). */
  protoName: boolean;
  /** The leaf of the next method at the same place. */
  next: Leaf<T> | undefined;
}

// Routes are first collected in this mutable builder, then frozen into `Node`s (below).
class Builder<T> {
  statics = new Map<string, Builder<T>>();
  typed = new Map<ParamType, Builder<T>>();
  param: Builder<T> | undefined = undefined;
  rest: Leaf<T>[] = [];
  leaves: Leaf<T>[] = [];

  child(key: string): Builder<T> {
    let c = this.statics.get(key);
    if (!c) this.statics.set(key, (c = new Builder<T>()));
    return c;
  }

  typedChild(type: ParamType): Builder<T> {
    let c = this.typed.get(type);
    if (!c) this.typed.set(type, (c = new Builder<T>()));
    return c;
  }
}

// The frozen trie. Lookup time at 10,000 routes is decided by cache misses, not by comparisons,
// so nodes are small and a route's nodes are allocated together, depth first, in one pass after
// all parsing: a lone static child is stored inline (a Map only from the second one on), typed
// children carry their type themselves, and the leaves of one place form a short list by method.
class Node<T> {
  key: string | undefined = undefined;
  child: Node<T> | undefined = undefined;
  statics: Map<string, Node<T>> | undefined = undefined;
  typed: Node<T>[] | undefined = undefined;
  type: ParamType = 'string';
  param: Node<T> | undefined = undefined;
  rest: Leaf<T> | undefined = undefined;
  leaf: Leaf<T> | undefined = undefined;
  dynamic = false;
}

const TYPED_ORDER: readonly ParamType[] = ['bool', 'uint', 'int', 'uint64', 'int64', 'float64'];
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function methodRank(m: string): number {
  const i = METHOD_ORDER.indexOf(m);
  return i < 0 ? METHOD_ORDER.length : i;
}

/** Conventional method order (GET, HEAD, POST, …), then alphabetical: for `Allow` headers. */
export function compareMethods(a: string, b: string): number {
  return methodRank(a) - methodRank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

// Param names become property keys of every params object. V8 needs property keys internalized;
// names sliced out of pattern text are not, and interning them on every lookup (a global string
// table probe per param) dominated lookups at 10,000 routes. Interning once fixes that: object
// literal keys are internalized, and Object.keys hands back that very string.
function internalized(name: string): string {
  return Object.keys({ [name]: 0 })[0];
}

/** Fresh copies of the leaves, linked by method, allocated beside the node being frozen. */
function chain<T>(leaves: readonly Leaf<T>[]): Leaf<T> | undefined {
  let next: Leaf<T> | undefined;
  for (let i = leaves.length - 1; i >= 0; i--) {
    const l = leaves[i];
    next = {
      method: l.method,
      value: l.value,
      route: l.route,
      names: l.names.slice(),
      protoName: l.names.includes('__proto__'),
      next,
    };
  }
  return next;
}

function freeze<T>(b: Builder<T>, type: ParamType = 'string'): Node<T> {
  const node = new Node<T>();
  node.type = type;
  node.leaf = chain(b.leaves);
  node.rest = chain(b.rest);
  node.dynamic = b.typed.size > 0 || b.param !== undefined || b.rest.length > 0;
  if (b.statics.size === 1) {
    const [key, child] = [...b.statics][0];
    // Interned, so that the many routes sharing a literal (`repo`, `edit`) share one hot string.
    node.key = internalized(key);
    node.child = freeze(child);
  } else if (b.statics.size > 1) {
    const statics = new Map<string, Node<T>>();
    for (const [key, child] of b.statics) statics.set(internalized(key), freeze(child));
    node.statics = statics;
  }
  if (b.typed.size > 0) {
    node.typed = TYPED_ORDER.filter((t) => b.typed.has(t)).map((t) => freeze(b.typed.get(t) as Builder<T>, t));
  }
  if (b.param) node.param = freeze(b.param);
  return node;
}

function leafFor<T>(first: Leaf<T> | undefined, method: string): Leaf<T> | undefined {
  for (let leaf = first; leaf !== undefined; leaf = leaf.next) if (leaf.method === method) return leaf;
  return undefined;
}

class CompiledRouter<T> implements Router<T> {
  private readonly root: Node<T>;
  private readonly methods: string[];
  private readonly count: number;
  // Scratch space for captured values; lookups are synchronous, so one buffer serves them all.
  private caps: string[] = [];

  constructor(routes: readonly { method: string; route: ParsedRoute; value: T }[]) {
    const root = new Builder<T>();
    const methods = new Set<string>();
    for (const { method: rawMethod, route, value } of routes) {
      const method = internalized(rawMethod);
      methods.add(method);
      const leaf: Leaf<T> = { method, value, route, names: [], protoName: false, next: undefined };
      let b = root;
      for (const s of route.segments) {
        if (s.kind === 'static') b = b.child(s.value);
        else {
          leaf.names.push(internalized(s.name));
          if (s.kind === 'rest') break;
          b = s.type === 'string' ? (b.param ??= new Builder<T>()) : b.typedChild(s.type);
        }
      }
      if (route.hasRest) b.rest.push(leaf);
      else b.leaves.push(leaf);
    }
    this.root = freeze(root);
    this.count = routes.length;
    this.methods = [...methods].sort(compareMethods);
  }

  get size(): number {
    return this.count;
  }

  lookup(method: string, segments: readonly string[]): RouteMatch<T> | undefined {
    if (this.caps.length < segments.length) this.caps = new Array<string>(segments.length * 2);
    const leaf = this.walk(this.root, method, segments, 0, 0);
    if (!leaf) return undefined;
    const params: Record<string, string> = {};
    const names = leaf.names;
    const caps = this.caps;
    if (leaf.protoName) for (let k = 0; k < names.length; k++) setOwn(params, names[k], caps[k]);
    else for (let k = 0; k < names.length; k++) params[names[k]] = caps[k];
    return { value: leaf.value, params, route: leaf.route };
  }

  allowedMethods(segments: readonly string[]): string[] {
    const allowed: string[] = [];
    for (const m of this.methods) if (this.lookup(m, segments)) allowed.push(m);
    return allowed;
  }

  // Recursion is kept for the places that can backtrack; where the candidate tried is the last
  // one left (a static child below a node without params, a lone param or typed child), the walk
  // moves down in the same frame instead.
  private walk(node: Node<T>, method: string, segs: readonly string[], i: number, c: number): Leaf<T> | undefined {
    for (;;) {
      if (i === segs.length) return leafFor(node.leaf, method);
      const seg = segs[i];
      const child = node.key !== undefined ? (node.key === seg ? node.child : undefined) : node.statics?.get(seg);
      if (!node.dynamic) {
        if (child === undefined) return undefined;
        node = child;
        i++;
        continue;
      }
      if (child !== undefined) {
        const found = this.walk(child, method, segs, i + 1, c);
        if (found !== undefined) return found;
      }
      if (!isCapturableSegment(seg)) return undefined;
      const typed = node.typed;
      const param = node.param;
      const rest = node.rest;
      if (typed !== undefined) {
        if (typed.length === 1 && param === undefined && rest === undefined) {
          // Tried in the first pass when the segment decodes as its type, in the last otherwise:
          // either way once, and last.
          this.caps[c] = seg;
          node = typed[0];
          i++;
          c++;
          continue;
        }
        for (let t = 0; t < typed.length; t++) {
          if (!decodesAs(typed[t].type, seg)) continue;
          this.caps[c] = seg;
          const found = this.walk(typed[t], method, segs, i + 1, c + 1);
          if (found !== undefined) return found;
        }
      }
      if (param !== undefined) {
        this.caps[c] = seg;
        if (typed === undefined && rest === undefined) {
          node = param;
          i++;
          c++;
          continue;
        }
        const found = this.walk(param, method, segs, i + 1, c + 1);
        if (found !== undefined) return found;
      }
      if (rest !== undefined) {
        const leaf = leafFor(rest, method);
        if (leaf !== undefined && this.restCapturable(segs, i + 1)) {
          let value = seg;
          for (let j = i + 1; j < segs.length; j++) value += '/' + segs[j];
          this.caps[c] = value;
          return leaf;
        }
      }
      if (typed !== undefined) {
        for (let t = 0; t < typed.length; t++) {
          if (decodesAs(typed[t].type, seg)) continue;
          this.caps[c] = seg;
          const found = this.walk(typed[t], method, segs, i + 1, c + 1);
          if (found !== undefined) return found;
        }
      }
      return undefined;
    }
  }

  private restCapturable(segs: readonly string[], from: number): boolean {
    for (let j = from; j < segs.length; j++) if (!isCapturableSegment(segs[j])) return false;
    return true;
  }
}

/**
 * Builds a router. Problems are returned, never thrown: an invalid pattern, a missing method, or a
 * second route with the same method and the same shape (`/blog/{slug}` after `/blog/{id}`) is
 * skipped and reported with its index; the first registration stays.
 */
export function compileRouter<T>(entries: readonly RouterEntry<T>[]): { router: Router<T>; errors: RouterError[] } {
  const errors: RouterError[] = [];
  const seen = new Map<string, number>();
  const accepted: { method: string; route: ParsedRoute; value: T }[] = [];
  entries.forEach((entry, index) => {
    const route = typeof entry.pattern === 'string' ? parseRoutePattern(entry.pattern) : entry.pattern;
    if (typeof entry.method !== 'string' || entry.method === '') {
      errors.push({ index, message: `route ${JSON.stringify(route.pattern)} needs an HTTP method` });
      return;
    }
    if (!route.valid) {
      errors.push({ index, message: route.issues.map((i) => i.message).join('; ') });
      return;
    }
    const key = entry.method + ' ' + route.shapeKey;
    const previous = seen.get(key);
    if (previous !== undefined) {
      const first = entries[previous].pattern;
      const firstText = typeof first === 'string' ? first : first.pattern;
      errors.push({
        index,
        message:
          `${entry.method} ${route.pattern} has the same shape (${route.shapeKey}) as ${entry.method} ` +
          `${firstText} registered first (entry ${previous})`,
      });
      return;
    }
    seen.set(key, index);
    accepted.push({ method: entry.method, route, value: entry.value });
  });
  return { router: new CompiledRouter<T>(accepted), errors };
}
