// Bindings made ahead of time by a binding worker (`bind/bind-host.ts`) during a cold load, kept
// until each directory's `bind:` bucket is evaluated. A directory takes its binding only when its
// `.kit` files and modules are still the entries it was made from and no module anywhere changed
// since (a module's types may be imported by another directory's): else it binds in this thread.
import type { BindScope, DirectoryBinding } from '../bind/binder.js';
import type { KitEntry, ModuleEntry } from '../model/entries.js';

/** What a binding worker is asked, and how its answers come back. */
export interface PrebindJob {
  scopes: BindScope<KitEntry>[];
  accept(results: ReadonlyMap<string, DirectoryBinding>): void;
}

export interface PrebindDir {
  scope: BindScope<KitEntry>;
  kits: readonly KitEntry[];
  modules: readonly ModuleEntry[];
}

interface Made {
  kits: readonly KitEntry[];
  modules: readonly ModuleEntry[];
  result: DirectoryBinding;
}

function sameEntries<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export class Prebound {
  private readonly byDir = new Map<string, Made>();
  private moduleEdits = 0;
  /** Bindings taken so far (tests and benchmarks: whether a worker's answers were used). */
  taken = 0;

  /** A module came, changed or went, or the options changed: nothing made before holds. */
  invalidate(): void {
    this.moduleEdits++;
    this.byDir.clear();
  }

  job(dirs: readonly PrebindDir[]): PrebindJob {
    const asked = this.moduleEdits;
    return {
      scopes: dirs.map((d) => d.scope),
      accept: (results) => {
        if (this.moduleEdits !== asked) return;
        for (const d of dirs) {
          const result = results.get(d.scope.dir);
          if (result) this.byDir.set(d.scope.dir, { kits: d.kits, modules: d.modules, result });
        }
      },
    };
  }

  /** The binding made for `dir`, if it was made from these very entries (taken once). */
  take(dir: string, kits: readonly KitEntry[], modules: readonly ModuleEntry[]): DirectoryBinding | undefined {
    const made = this.byDir.get(dir);
    if (!made) return undefined;
    this.byDir.delete(dir);
    if (!sameEntries(made.kits, kits) || !sameEntries(made.modules, modules)) return undefined;
    this.taken++;
    return made.result;
  }
}
