// Structure of one file: required and unique declarations, declarations valid per file kind,
// render mode, page identity and `use` aliases.
import type { Declaration } from '#grammar/index.js';
import { ALLOWED_DECLARATIONS, isOneOf, RENDER_MODES, UNIQUE_DECLARATIONS } from '#shared/language/facts.js';
import { diag } from '../diagnostics/registry.js';
import { PAGE_ID_PATTERN } from '../model/names.js';
import type { RuleContext } from './context.js';

function declLabel(d: Declaration): string {
  if (d.kind === 'meta') return d.name;
  if (d.kind === 'server') return d.go ? 'go server {}' : 'server {}';
  if (d.kind === 'paths' || d.kind === 'view' || d.kind === 'props' || d.kind === 'style') return `${d.kind} {}`;
  return d.kind;
}

export function structureRule(ctx: RuleContext): void {
  const { file, summary: s, options } = ctx;
  const seen = new Map<string, Declaration>();
  for (const d of file.declarations) {
    if (!ALLOWED_DECLARATIONS[file.kind].has(d.kind)) {
      ctx.report(
        diag(
          'unsupported_declaration',
          file.path,
          d.keyword,
          `${declLabel(d)} is not supported in a ${file.kind} file`,
        ),
      );
      continue;
    }
    const key = d.kind === 'meta' ? `meta:${d.name}` : d.kind;
    if (UNIQUE_DECLARATIONS.has(d.kind) || d.kind === 'meta') {
      const first = seen.get(key);
      if (first) {
        ctx.report(
          diag('duplicate_declaration', file.path, d.keyword, `${declLabel(d)} is declared more than once`, {
            related: [{ file: file.path, range: first.keyword, message: `${declLabel(first)} first declared here` }],
          }),
        );
      } else seen.set(key, d);
    }
  }
  if (file.kind === 'page') {
    const anchor = s.pageIdDecl?.range ?? file.declarations[0]?.range ?? zeroRange();
    if (!s.route)
      ctx.report(diag('missing_route', file.path, anchor, `${s.ownerId}: page declares no route; add route "/path"`));
    if (!s.view)
      ctx.report(
        diag(
          'missing_view_block',
          file.path,
          s.route?.decl.range ?? anchor,
          `${s.ownerId}: page has no view block; add view { ... }`,
        ),
      );
    if (s.pageIdDecl && !PAGE_ID_PATTERN.test(s.pageIdDecl.id.text)) {
      ctx.report(
        diag(
          'invalid_page_id',
          file.path,
          s.pageIdDecl.id.range,
          `page ID "${s.pageIdDecl.id.text}" may contain only letters, digits, ".", "-" and "_"`,
        ),
      );
    }
    const mode = s.renderDecl?.mode;
    if (mode && !isOneOf(RENDER_MODES, mode.text)) {
      ctx.report(
        diag(
          'invalid_render_mode',
          file.path,
          mode.range,
          `${s.ownerId}: unsupported render mode "${mode.text}"; use spa, ssr or hybrid`,
        ),
      );
    }
    if (s.server && mode?.text === 'spa') {
      ctx.report(
        diag(
          'server_requires_request_render',
          file.path,
          s.server.keyword,
          `${s.ownerId}: ${s.server.go ? 'go server {}' : 'server {}'} needs request-time rendering, but the ` +
            `page declares render spa`,
        ),
      );
    }
    if (!options.ssr && (s.render === 'ssr' || s.render === 'hybrid')) {
      const at = s.server?.keyword ?? s.renderDecl?.range ?? anchor;
      ctx.report(
        diag(
          'missing_ssr_addon',
          file.path,
          at,
          `${s.ownerId}: uses request-time page behavior (render ${s.render}), but SSR is not enabled; set ` +
            'ssr = true in kit.config or run with --ssr',
        ),
      );
    }
  }
  const aliases = new Map<string, Declaration>();
  for (const d of file.declarations) {
    if (d.kind !== 'use') continue;
    const first = aliases.get(d.alias.text);
    if (first)
      ctx.report(
        diag(
          'duplicate_use_alias',
          file.path,
          d.alias.range,
          `use alias "${d.alias.text}" is declared more than once`,
          { related: [{ file: file.path, range: first.range, message: `use ${d.alias.text} first declared here` }] },
        ),
      );
    else aliases.set(d.alias.text, d);
  }
}

function zeroRange() {
  return { start: { offset: 0, line: 0, column: 0 }, end: { offset: 0, line: 0, column: 0 } };
}
