// Declared files (`asset`, `wasm`, `error`) must exist: a missing one is reported at its
// declaration, in `kit check` and in the editor, instead of a build that copies nothing.
import { diag } from '../diagnostics/registry.js';
import { declaredFiles } from '../model/asset-files.js';
import type { RuleContext } from './context.js';

export function assetsRule(ctx: RuleContext): void {
  const { summary: s, options } = ctx;
  const probe = options.files;
  if (!probe) return;
  for (const f of declaredFiles(s)) {
    if (f.kind === 'error' && !f.written.endsWith('.html')) {
      ctx.report(
        diag('missing_asset', s.path, f.range, `${s.ownerId}: error "${f.written}" must name an .html document`),
      );
      continue;
    }
    const why = f.path === undefined ? f.problem : probe.isFile(f.path) ? undefined : `no such file: ${f.path}`;
    if (why)
      ctx.report(
        diag('missing_asset', s.path, f.range, `${s.ownerId}: ${f.kind} "${f.written}" cannot be used: ${why}`),
      );
  }
}
