// What a workspace holds, without the evaluation: its entries by path (`.kit` files and handler
// modules), the index from bucket keys to the files in them (family by family), and the
// reads of those that need no flush (what cross-file rules read: `WorkspaceView`). Entries are put
// and taken out by `entry-updates.ts`, which knows what each change touches; the engine
// (`workspace.ts`) decides which buckets to evaluate and keeps their facts.
import { compareRegistrations, type KitEntry, type ModuleEntry, type WorkspaceView } from '../model/entries.js';
import { baseName } from '../model/names.js';
import type { Registration } from '../model/registrations.js';
import { familyOf, type BucketKey, type Family } from '../validate/cross/index.js';

/** `key` is of `family` (`link:blog` of `link`). */
function sameFamily(key: string, family: string): boolean {
  return key.length > family.length && key.charCodeAt(family.length) === 58 && key.startsWith(family);
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

export class EntryIndex implements WorkspaceView {
  private readonly kits = new Map<string, KitEntry>();
  private readonly modules = new Map<string, ModuleEntry>();
  /**
   * Family → bucket key → the paths of its members: the path itself while it is the only one (most
   * buckets: a route, a page ID), else a set. Twenty thousand sets of one path were a fifth of what
   * loading a large workspace keeps. By family, because rules ask for a family's keys on every
   * change that touches it, and a map per family costs less to fill than one map with a set of keys
   * per family beside it (indexing a file is a dozen insertions).
   */
  private readonly buckets = new Map<Family, Map<string, string | Set<string>>>();
  private sortedKitCache: KitEntry[] | undefined;
  private allRegsCache: Registration[] | undefined;

  // ---- changes ------------------------------------------------------------------------------

  /** `entry` takes the place of its file's entry, leaving the old one's buckets and joining its own. */
  putKit(entry: KitEntry): void {
    const old = this.kits.get(entry.path);
    if (old) this.removeMember(entry.path, old.keys);
    this.kits.set(entry.path, entry);
    this.addMember(entry.path, entry.keys);
    this.sortedKitCache = undefined;
    this.allRegsCache = undefined;
  }

  /** A new version of a `.kit` file in the same buckets (the same shape): only the entry object changes. */
  replaceKit(entry: KitEntry): void {
    this.kits.set(entry.path, entry);
    this.replaceSorted(entry);
    this.allRegsCache = undefined;
  }

  /** `entry` takes the place of its module's entry. */
  putModule(entry: ModuleEntry): void {
    const old = this.modules.get(entry.path);
    if (old) this.removeMember(entry.path, old.keys);
    this.modules.set(entry.path, entry);
    this.addMember(entry.path, entry.keys);
    // Modules leave the sorted `.kit` list alone: re-sorting it per module made loading N modules O(N·K log K).
    this.allRegsCache = undefined;
  }

  /** Takes the entry of `path` out (answers it, if there was one). */
  delete(path: string): KitEntry | ModuleEntry | undefined {
    const old = this.kits.get(path) ?? this.modules.get(path);
    if (!old) return undefined;
    this.removeMember(path, old.keys);
    this.kits.delete(path);
    this.modules.delete(path);
    this.sortedKitCache = undefined;
    this.allRegsCache = undefined;
    return old;
  }

  /** Adds `path` to the buckets of `keys`. */
  private addMember(path: string, keys: readonly string[]): void {
    // Keys come rule by rule, so most share the family of the key before: its index is reused
    // without cutting the family out of each key.
    let family: Family | '' = '';
    let index: Map<string, string | Set<string>> | undefined;
    for (const k of keys) {
      if (index === undefined || !sameFamily(k, family)) {
        const f = familyOf(k);
        family = f;
        index = this.buckets.get(f);
        if (index === undefined) this.buckets.set(f, (index = new Map()));
      }
      const members = index.get(k);
      if (members === undefined) index.set(k, path);
      else if (typeof members !== 'string') members.add(path);
      else if (members !== path) index.set(k, new Set([members, path]));
    }
  }

  /** Takes `path` out of the buckets of `keys` (a bucket left empty goes). */
  private removeMember(path: string, keys: readonly string[]): void {
    for (const k of keys) {
      const index = this.buckets.get(familyOf(k));
      const members = index?.get(k);
      if (members === undefined) continue;
      if (typeof members === 'string') {
        if (members !== path) continue;
      } else {
        members.delete(path);
        if (members.size > 0) continue;
      }
      index!.delete(k);
    }
  }

  /** The members of a bucket, as `buckets` holds them. */
  private membersOf(key: string): string | Set<string> | undefined {
    return this.buckets.get(familyOf(key))?.get(key);
  }

  /** The same set of paths: the sorted list keeps its order, only the entry object changes. */
  private replaceSorted(entry: KitEntry): void {
    const list = this.sortedKitCache;
    if (!list) return;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const p = list[mid].path;
      if (p === entry.path) {
        list[mid] = entry;
        return;
      }
      if (p < entry.path) lo = mid + 1;
      else hi = mid - 1;
    }
    this.sortedKitCache = undefined;
  }

  // ---- reads --------------------------------------------------------------------------------

  hasBucket(key: string): boolean {
    return this.membersOf(key) !== undefined;
  }

  /** The families that have had members, each with its keys (`keysOf`). */
  *families(): Iterable<[Family, Iterable<BucketKey>]> {
    for (const family of this.buckets.keys()) yield [family, this.keysOf(family)];
  }

  /** The keys of a family that have members (read again from the index each time it is iterated). */
  keysOf(family: Family): Iterable<BucketKey> {
    const index = this.buckets.get(family);
    if (index === undefined) return [];
    return { [Symbol.iterator]: () => index.keys() as Iterator<BucketKey> };
  }

  has(path: string): boolean {
    return this.kits.has(path) || this.modules.has(path);
  }

  get moduleCount(): number {
    return this.modules.size;
  }

  /** Every `.kit` entry, in no particular order (`allKit` sorts). */
  kitEntries(): Iterable<KitEntry> {
    return this.kits.values();
  }

  /** Every module entry, in no particular order. */
  moduleEntries(): Iterable<ModuleEntry> {
    return this.modules.values();
  }

  kitPaths(): string[] {
    return this.allKit().map((e) => e.path);
  }

  modulePaths(): string[] {
    return [...this.modules.keys()].sort();
  }

  module(path: string): ModuleEntry | undefined {
    return this.modules.get(path);
  }

  kit(path: string): KitEntry | undefined {
    return this.kits.get(path);
  }

  allKit(): KitEntry[] {
    return (this.sortedKitCache ??= [...this.kits.values()].sort(byPath));
  }

  allModules(): ModuleEntry[] {
    return [...this.modules.values()].sort(byPath);
  }

  kitMembers(key: string): KitEntry[] {
    return this.membersIn(key, this.kits);
  }

  moduleMembers(key: string): ModuleEntry[] {
    return this.membersIn(key, this.modules);
  }

  /** The entries of `map` in a bucket, sorted by path. */
  private membersIn<E extends { path: string }>(key: string, map: Map<string, E>): E[] {
    const members = this.membersOf(key);
    if (members === undefined) return [];
    if (typeof members === 'string') {
      const e = map.get(members);
      return e ? [e] : [];
    }
    const out: E[] = [];
    for (const p of members) {
      const e = map.get(p);
      if (e) out.push(e);
    }
    return out.sort(byPath);
  }

  registrationsIn(key: string): Registration[] {
    const members = this.membersOf(key);
    if (members === undefined) return [];
    const out: Registration[] = [];
    if (typeof members === 'string') this.pushRegistrations(members, out);
    else for (const p of members) this.pushRegistrations(p, out);
    return out.sort(compareRegistrations);
  }

  private pushRegistrations(path: string, out: Registration[]): void {
    const e = this.kits.get(path) ?? this.modules.get(path);
    if (e) out.push(...e.registrations);
  }

  allRegistrations(): Registration[] {
    if (!this.allRegsCache) {
      const out: Registration[] = [];
      for (const e of this.kits.values()) out.push(...e.registrations);
      for (const e of this.modules.values()) out.push(...e.registrations);
      this.allRegsCache = out.sort(compareRegistrations);
    }
    return this.allRegsCache;
  }

  /** The package of a directory: the first `package` declared by a `.kit` file there, else its name. */
  packageOfDir(dir: string): string {
    // Every `.kit` file joins its directory's `bind:` bucket: no need to scan the workspace.
    for (const e of this.kitMembers(`bind:${dir}`)) {
      if (e.summary.packageDecl) return e.summary.packageName;
    }
    return baseName(dir) || 'main';
  }
}
