// How the renderer reads user data: dotted paths through plain objects, `Map`s with string keys,
// class instances and getters (typescript.md "Load"); how values print; what counts as true; and
// what a `g:for` iterates. Reading never calls a function and never walks into prototypes'
// machinery (`__proto__`, `constructor`, `prototype`).

/** Field names reading never follows on objects (a `Map` key may be anything). */
export const BLOCKED_FIELDS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** One property step. Getters run (they are how class instances expose data); methods are not values. */
export function getField(target: unknown, key: string): unknown {
  if (target === null || target === undefined) return undefined;
  if (target instanceof Map) return target.get(key);
  const type = typeof target;
  if (type !== 'object' && type !== 'function') return undefined;
  if (BLOCKED_FIELDS.has(key)) return undefined;
  const value = (target as Record<string, unknown>)[key];
  return typeof value === 'function' ? undefined : value;
}

export function getPath(target: unknown, path: readonly string[]): unknown {
  let v = target;
  for (let i = 0; i < path.length; i++) {
    v = getField(v, path[i]);
    if (v === undefined) return undefined;
  }
  return v;
}

/**
 * The text of a value: strings as they are, numbers, bigints and booleans in their usual form,
 * dates in ISO form, arrays joined with `, `; null, undefined and other objects print nothing
 * unless they define their own `toString`.
 */
export function toText(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return Number.isFinite(v) ? String(v) : '';
    case 'bigint':
    case 'boolean':
      return String(v);
    case 'object': {
      if (v === null) return '';
      if (Array.isArray(v)) return v.map(toText).join(', ');
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString();
      const own = (v as { toString?: unknown }).toString;
      return typeof own === 'function' && own !== Object.prototype.toString ? String(v) : '';
    }
    default:
      return '';
  }
}

/** Go-template truth: false, 0, NaN, '', null, undefined and empty arrays, maps and sets are false. */
export function isTruthy(v: unknown): boolean {
  if (!v) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Map || v instanceof Set) return v.size > 0;
  return true;
}

/**
 * Calls `each(item, indexOrKey)` for what `g:for` iterates: arrays and other iterables (not
 * strings) with numeric indexes; `Map`s and plain objects with their keys, in insertion order.
 */
export function forEachItem(coll: unknown, each: (item: unknown, key: unknown) => void): void {
  if (coll === null || coll === undefined || typeof coll !== 'object') return;
  if (Array.isArray(coll)) {
    for (let i = 0; i < coll.length; i++) each(coll[i], i);
    return;
  }
  if (coll instanceof Map) {
    for (const [k, v] of coll) each(v, k);
    return;
  }
  if (Symbol.iterator in coll) {
    let i = 0;
    for (const v of coll as Iterable<unknown>) each(v, i++);
    return;
  }
  for (const k of Object.keys(coll)) {
    if (!BLOCKED_FIELDS.has(k)) each((coll as Record<string, unknown>)[k], k);
  }
}

/** `==`: same-typed values compare strictly; mixed types compare by their text. */
export function looseEquals(a: unknown, b: unknown): boolean {
  if (typeof a === typeof b) return a === b || (a == null && b == null);
  if (a == null || b == null) return false;
  return toText(a) === toText(b);
}

/** `<` and friends: numerically when both sides are numbers (or numeric text), else by text. */
export function compare(a: unknown, b: unknown): number {
  const na = typeof a === 'number' ? a : typeof a === 'string' && a.trim() !== '' ? Number(a) : NaN;
  const nb = typeof b === 'number' ? b : typeof b === 'string' && b.trim() !== '' ? Number(b) : NaN;
  if (!Number.isNaN(na) && !Number.isNaN(nb)) return na < nb ? -1 : na > nb ? 1 : 0;
  const sa = toText(a);
  const sb = toText(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}
