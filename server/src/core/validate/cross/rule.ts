// What a cross-file rule is. A rule groups the workspace's files into buckets by a key they
// contribute (a route shape, a page ID, a component name, ...) and evaluates one bucket at a time;
// the workspace re-evaluates a bucket only when a file joins or leaves it, or when a bucket it
// depends on changes (`touches`). The registry of rules is `./index.ts`.
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { KitEntry, ModuleEntry, WorkspaceView } from '../../model/entries.js';

/** Every family of buckets; a key is `<family>` alone or `<family>:<id>`. Each has one rule. */
export const FAMILIES = [
  'route',
  'reg',
  'amb',
  'page',
  'cdef',
  'cuse',
  'ccall',
  'cgraph',
  'ldef',
  'luse',
  'lgraph',
  'guard',
  'guardcfg',
  'bind',
  'link',
] as const;

export type Family = (typeof FAMILIES)[number];

export type BucketKey = Family | `${Family}:${string}`;

export function bucket(family: Family, id?: string): BucketKey {
  return id === undefined ? family : `${family}:${id}`;
}

export function familyOf(key: string): Family {
  const colon = key.indexOf(':');
  return (colon < 0 ? key : key.slice(0, colon)) as Family;
}

/** The id part of a key (`cuse:site.Card` → `site.Card`). */
export function idOf(key: string): string {
  const colon = key.indexOf(':');
  return colon < 0 ? '' : key.slice(colon + 1);
}

/** What an evaluation may read: the workspace's entries, plus the services only it holds. */
export interface CrossContext extends WorkspaceView {
  /** Binds a directory's `.kit` files to its handler modules (the TypeScript binder). */
  bindDirectory(dir: string): Diagnostic[];
  /** The keys of a family that currently have members. */
  keysOf(family: Family): Iterable<BucketKey>;
}

export interface CrossRule {
  family: Family;
  /** The keys of this family a `.kit` file is a member of. */
  kitKeys?(e: KitEntry): Iterable<BucketKey>;
  /** The keys of this family a handler module is a member of. */
  moduleKeys?(m: ModuleEntry): Iterable<BucketKey>;
  /**
   * The diagnostics of one bucket, read from its members (and, where the rule says so, from the
   * whole view). Absent for a family that only gathers members for other rules to read.
   */
  evaluate?(ctx: CrossContext, key: BucketKey): Diagnostic[];
  /** Other buckets whose diagnostics depend on this bucket's members: re-evaluated with it. */
  touches?(key: BucketKey, ctx: CrossContext): Iterable<BucketKey>;
}
