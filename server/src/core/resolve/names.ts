// Name resolution: which declaration a component call, a layout name or a `use` line refers to.
// One module so that validation, binding, the build, the reports and the editor agree on it.
import type { FileSummary } from '../model/summary.js';

/** `<pkg>.<Name>` of a call, resolving `alias.Name` through the file's `use` lines. */
export function componentKey(s: FileSummary, call: { alias?: string; localName: string }): string | undefined {
  if (!call.alias) return `${s.packageName}.${call.localName}`;
  const use = s.uses.get(call.alias);
  if (!use) return undefined;
  return `${packageOfUse(use.pkg.value)}.${call.localName}`;
}

/** `use ui "shared/ui"` names the package `ui` (the last path element). */
export function packageOfUse(spec: string): string {
  const parts = spec.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? spec;
}

export function layoutKey(s: FileSummary, id: string): string | undefined {
  const dot = id.indexOf('.');
  if (dot > 0) {
    const use = s.uses.get(id.slice(0, dot));
    if (use) return `${packageOfUse(use.pkg.value)}.${id.slice(dot + 1)}`;
  }
  return `${s.packageName}.${id}`;
}
