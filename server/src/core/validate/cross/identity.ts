// Cross-file identity rules: page IDs and component names are unique.
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diag } from '../../diagnostics/registry.js';
import type { KitEntry, WorkspaceView } from '../../model/entries.js';
import { callsTouchedByDefinition } from './composition.js';
import { bucket, type CrossRule } from './rule.js';

function identityRange(e: KitEntry) {
  const s = e.summary;
  return (
    s.pageIdDecl?.range ??
    s.route?.decl.range ??
    e.ast.declarations[0]?.range ?? { start: { offset: 0, line: 0, column: 0 }, end: { offset: 0, line: 0, column: 0 } }
  );
}

// Which of two files is first: the members come sorted by path, the same order route conflicts use
// within a group (`compareRegistrations`), so every duplicate across files is reported by one rule.

/** Bucket `page:<id>`. */
export function duplicatePageIds(view: WorkspaceView, key: string): Diagnostic[] {
  const pages = view.kitMembers(key).filter((e) => e.summary.kind === 'page');
  const out: Diagnostic[] = [];
  const first = pages[0];
  for (const e of pages.slice(1)) {
    const id = e.summary.ownerId;
    out.push(
      diag(
        'duplicate_page_id',
        e.path,
        identityRange(e),
        `${id}: duplicate page ID "${id}"; first declared by ${first.path}`,
        {
          related: [{ file: first.path, range: identityRange(first), message: `page ID "${id}" first declared here` }],
        },
      ),
    );
  }
  return out;
}

/** Bucket `cdef:<package>.<Name>`. */
export function duplicateComponents(view: WorkspaceView, key: string): Diagnostic[] {
  const comps = view.kitMembers(key).filter((e) => e.summary.kind === 'component');
  const out: Diagnostic[] = [];
  const first = comps[0];
  for (const e of comps.slice(1)) {
    const at = e.summary.component?.name.range ?? identityRange(e);
    out.push(
      diag(
        'duplicate_component_name',
        e.path,
        at,
        `component ${e.summary.ownerId} is declared twice in package ${e.summary.packageName}`,
        {
          related: [
            {
              file: first.path,
              range: first.summary.component?.name.range ?? identityRange(first),
              message: `component ${first.summary.ownerId} first declared here`,
            },
          ],
        },
      ),
    );
  }
  return out;
}

/** `duplicate_page_id`. */
export const pageIdRule: CrossRule = {
  family: 'page',
  kitKeys: (e) => (e.summary.kind === 'page' ? [bucket('page', e.summary.ownerId)] : []),
  evaluate: duplicatePageIds,
};

/** `duplicate_component_name`; a component's calls resolve against this bucket (`ccall`). */
export const componentNameRule: CrossRule = {
  family: 'cdef',
  kitKeys: (e) =>
    e.summary.kind === 'component' ? [bucket('cdef', `${e.summary.packageName}.${e.summary.ownerId}`)] : [],
  evaluate: duplicateComponents,
  touches: (key, ctx) => callsTouchedByDefinition(ctx, key),
};
