// The binder's view of a directory (`BindScope`), made from the workspace's entries as they are:
// the same description a binding worker receives as data (`bind-host.ts`).
import type { KitEntry, ModuleEntry } from '../model/entries.js';
import { baseName } from '../model/names.js';
import type { BindScope } from './binder.js';
import { kitTargets } from './targets.js';

/** The package a directory's modules belong to: a `.kit` file's `package` declaration, else the directory's name. */
export function packageOfKits(dir: string, kits: readonly KitEntry[]): string {
  return kits.find((k) => k.summary.packageDecl)?.summary.packageName ?? (baseName(dir) || 'main');
}

export function bindScope(
  dir: string,
  kits: readonly KitEntry[],
  modules: readonly ModuleEntry[],
  packageModules: (name: string) => { dirs: string[]; modules: ModuleEntry[] },
): BindScope<KitEntry> {
  return {
    dir,
    packageName: packageOfKits(dir, kits),
    kits,
    targetsOf: kitTargets,
    keep: true,
    modules,
    packageModules,
  };
}
