// Default-deny guards: a page without a guard is denied (403) and warned about; with endpoints the
// warning becomes an error because they would be callable without any policy. A protective guard
// needs a request to run on: on a page built ahead of time its HTML would be a public static file.
import { diag } from '../diagnostics/registry.js';
import type { RuleContext } from './context.js';

export function guardsRule(ctx: RuleContext): void {
  const { file, summary: s } = ctx;
  if (file.kind !== 'page') return;
  if (!s.guardDecl) {
    const endpoints = s.actions.length + s.apis.length + s.fragments.length + s.contractRefs.length;
    const at = s.pageIdDecl?.range ?? s.route?.decl.range ?? file.declarations[0]?.range;
    if (!at) return;
    if (endpoints > 0) {
      ctx.report(
        diag(
          'missing_page_guard',
          file.path,
          at,
          `${s.ownerId}: page declares no guard but declares ${endpoints} endpoint${endpoints === 1 ? '' : 's'}, ` +
            `which would be publicly callable; add guard public or a protective guard`,
          { severity: 'error' },
        ),
      );
    } else {
      ctx.report(
        diag(
          'missing_page_guard',
          file.path,
          at,
          `${s.ownerId}: page declares no guard; its route is denied (403) until guard public or a protective ` +
            `guard is added`,
        ),
      );
    }
    return;
  }
  const guards = s.guardDecl.guards;
  if (guards.length > 1) {
    const pub = guards.find((g) => g.text === 'public');
    if (pub)
      ctx.report(
        diag('public_guard_exclusive', file.path, guards[0].range, `${s.ownerId}: public must be the only guard ID`),
      );
  }
  const protective = guards.find((g) => g.text !== 'public');
  if (protective && s.render === 'spa' && !guards.some((g) => g.text === 'public'))
    ctx.report(
      diag(
        'guard_requires_request_render',
        file.path,
        protective.range,
        `${s.ownerId}: guard "${protective.text}" cannot protect a page built ahead of time (render spa): ` +
          `its HTML would be a static file anyone can fetch; render it at request time with render ssr or server {}`,
      ),
    );
  const seen = new Set<string>();
  for (const g of guards) {
    if (seen.has(g.text))
      ctx.report(diag('duplicate_guard', file.path, g.range, `${s.ownerId}: guard "${g.text}" is listed twice`));
    seen.add(g.text);
  }
}
