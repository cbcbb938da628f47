// The binder's view of a directory (`BindScope`), made from the workspace's entries: the same
// plain description whether the directory is bound here or by a binding worker (`bind-host.ts`).
import type { KitEntry, ModuleEntry } from '../model/entries.js';
import { baseName } from '../model/names.js';
import type { BindKit, BindModule, BindScope } from './binder.js';
import { kitTargets, type BindTarget } from './targets.js';

export function bindKit(e: KitEntry): BindKit {
  let targets: BindTarget[] | undefined;
  return { path: e.path, targets: () => (targets ??= kitTargets(e)), keep: e };
}

export function bindModule(m: ModuleEntry): BindModule {
  return { path: m.path, endpoints: m.summary.endpoints };
}

/** The package a directory's modules belong to: a `.kit` file's `package` declaration, else the directory's name. */
export function packageOfKits(dir: string, kits: readonly KitEntry[]): string {
  return kits.find((k) => k.summary.packageDecl)?.summary.packageName ?? (baseName(dir) || 'main');
}

export function bindScope(
  dir: string,
  kits: readonly KitEntry[],
  modules: readonly ModuleEntry[],
  packageModules: (name: string) => { dirs: string[]; modules: ModuleEntry[] },
): BindScope {
  return {
    dir,
    packageName: packageOfKits(dir, kits),
    kits: kits.map(bindKit),
    modules: modules.map(bindModule),
    packageModules: (name) => {
      const p = packageModules(name);
      return { dirs: p.dirs, modules: p.modules.map(bindModule) };
    },
  };
}
