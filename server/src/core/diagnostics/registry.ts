// The single registry of diagnostic codes: every code kit can emit, with its default severity,
// a one-line summary and, where one exists, a suggestion and a machine fix the editor can offer.
// Rules refer to codes through the `DiagnosticCode` type, so an unregistered code does not compile.
import type { Range } from '#grammar/index.js';
import type { Diagnostic, RelatedLocation, Severity } from './diagnostic.js';

export type Area =
  | 'syntax'
  | 'structure'
  | 'route'
  | 'guard'
  | 'cache'
  | 'endpoint'
  | 'view'
  | 'composition'
  | 'binding'
  | 'config';

export interface CodeInfo {
  area: Area;
  severity: Severity;
  summary: string;
  suggestion?: string;
  /** Names a quick fix the language server knows how to build. */
  fix?:
    | 'add_public_guard'
    | 'remove_trailing_slash'
    | 'add_paths_block'
    | 'split_optional_param'
    | 'create_handler_stub'
    | 'add_request_render';
}

function c(
  area: Area,
  severity: Severity,
  summary: string,
  extra: Partial<Pick<CodeInfo, 'suggestion' | 'fix'>> = {},
): CodeInfo {
  return { area, severity, summary, ...extra };
}

export const REGISTRY = {
  // syntax (reported by the grammar layer)
  parse_error: c('syntax', 'error', 'The line does not match any declaration form.'),
  unterminated_string: c('syntax', 'error', 'A string literal is missing its closing quote.'),
  unterminated_block: c('syntax', 'error', 'A block is missing its closing `}` line.'),
  unknown_declaration: c('syntax', 'error', 'The first word of the line is not a kit declaration keyword.'),
  unsupported_top_level_block: c('syntax', 'error', 'The block kind is not part of the kit language.'),
  malformed_legacy_metadata: c(
    'syntax',
    'error',
    '`@keyword` metadata lines are not supported; write `keyword value`.',
  ),
  old_action_block_syntax: c(
    'syntax',
    'error',
    '`act X {` blocks were replaced by one-line `act X POST "/path"` declarations.',
  ),
  old_api_block_syntax: c(
    'syntax',
    'error',
    '`api X {` blocks were replaced by one-line `api X GET "/path"` declarations.',
  ),
  view_parse_error: c('syntax', 'error', 'The view markup is not well formed.'),
  unsupported_markup_syntax: c(
    'syntax',
    'error',
    'Template syntax from other frameworks is not supported in kit views.',
  ),
  invalid_expression: c('syntax', 'error', 'The `{...}` expression cannot be read.'),
  markup_too_deep: c(
    'syntax',
    'error',
    'Elements nest deeper than the limit (256); the content inside the element that crosses it is not read.',
  ),
  invalid_utf8: c(
    'syntax',
    'error',
    'The file holds bytes that are not UTF-8; each invalid sequence is reported at its byte (it reads as U+FFFD).',
    { suggestion: 'save the file as UTF-8' },
  ),
  // documents the language server does not analyse (the last good version stays in effect)
  document_too_large: c('syntax', 'warning', 'The document is larger than 8 MiB; kit does not analyse it.'),
  binary_document: c(
    'syntax',
    'warning',
    'The document contains NUL characters (binary data); kit does not analyse it.',
  ),

  // structure of a file
  missing_route: c('structure', 'error', 'A page file must declare `route "<pattern>"`.'),
  missing_view_block: c('structure', 'error', 'A page must declare a `view { ... }` block.'),
  duplicate_declaration: c('structure', 'error', 'A declaration that may appear once appears twice.'),
  unsupported_declaration: c('structure', 'error', 'The declaration is not valid in this kind of file.'),
  invalid_render_mode: c('structure', 'error', '`render` accepts spa, ssr or hybrid.'),
  server_requires_request_render: c(
    'structure',
    'error',
    '`server {}` needs request-time rendering, but the page forces `render spa`.',
  ),
  missing_ssr_addon: c('structure', 'error', 'The page renders at request time, but SSR validation is not enabled.', {
    suggestion: 'set `export const ssr = true` in kit.config.ts (or run kit with --ssr)',
  }),
  duplicate_page_id: c('structure', 'error', 'Two pages have the same page ID.', {
    suggestion: 'give one of the pages an explicit `page <id>` or rename its file',
  }),
  invalid_page_id: c('structure', 'error', 'A page ID may contain letters, digits, `.`, `-` and `_`.'),
  unknown_use_alias: c('structure', 'error', 'The `alias.` prefix is not declared by a `use` line.'),
  duplicate_use_alias: c('structure', 'error', 'A `use` alias is declared twice.'),
  missing_asset: c(
    'structure',
    'error',
    'A file named by `asset`, `wasm` or `error` does not exist (paths are relative to the declaring file).',
  ),
  missing_asset_file: c(
    'structure',
    'error',
    'A css or js file named by a page, layout or component does not exist or cannot be read.',
  ),

  // routes
  malformed_route: c('route', 'error', 'The route pattern breaks a route pattern rule.', {
    fix: 'remove_trailing_slash',
  }),
  duplicate_route_param: c('route', 'error', 'A route repeats a parameter name.'),
  duplicate_route: c('route', 'error', 'Two page routes have the same pattern (parameter names are ignored).', {
    suggestion: 'give each page a distinct route pattern',
  }),
  route_method_conflict: c('route', 'error', 'The same method and path are declared twice.', {
    suggestion: 'give each page, action, API, fragment or contract a unique method/path pair',
  }),
  ambiguous_dynamic_route: c('route', 'error', 'Two dynamic routes could match the same request path.', {
    suggestion: 'make the routes distinguishable by a literal segment',
  }),
  spa_dynamic_route_missing_paths: c(
    'route',
    'error',
    'A build-time page with route params needs a `paths {}` block.',
    { fix: 'add_paths_block' },
  ),
  paths_record_not_literal: c('route', 'error', '`paths {}` records accept string literals only.'),
  paths_unknown_param: c('route', 'error', 'A `paths {}` record names a parameter the route does not declare.'),
  paths_missing_param: c('route', 'error', 'A `paths {}` record leaves a route parameter without a value.'),
  paths_invalid_value: c('route', 'error', 'A `paths {}` value cannot be used as a path segment.'),
  paths_value_type: c('route', 'error', 'A `paths {}` value does not decode as its typed route parameter.'),
  duplicate_paths_record: c('route', 'warning', 'Two `paths {}` records give the same concrete path.', {
    suggestion: 'remove the repeated record',
  }),
  paths_without_params: c('route', 'warning', '`paths {}` on a route without parameters has no effect.'),
  unknown_route_param: c('route', 'error', '`param("x")` names a parameter the route does not declare.'),
  contract_route_invalid: c('route', 'error', 'A command or query path must be a local absolute path.'),

  // guards
  missing_page_guard: c('guard', 'warning', 'The page declares no guard; its route is denied (403).', {
    suggestion: 'add `guard public` or a protective guard',
    fix: 'add_public_guard',
  }),
  public_guard_exclusive: c('guard', 'error', '`public` must be the only guard ID.'),
  guard_requires_request_render: c(
    'guard',
    'error',
    'A protective guard on a page built ahead of time (render spa) cannot protect it: its HTML is a static file.',
    { suggestion: 'render the page at request time: add `render ssr` or `server {}`', fix: 'add_request_render' },
  ),
  duplicate_guard: c('guard', 'warning', 'A guard ID is listed twice.'),
  missing_endpoint_guard: c(
    'guard',
    'warning',
    'A `//kit:` comment endpoint has no `//kit:guard` line; it is denied (403).',
    { suggestion: 'add `//kit:guard public` or a protective guard to the comment block' },
  ),
  unknown_guard: c(
    'guard',
    'warning',
    'No guard with this ID is registered in the app config; requests fail closed (403).',
  ),

  // cache
  invalid_cache_policy: c('cache', 'error', '`cache` needs a non-empty Cache-Control value.'),
  revalidate_requires_cache: c('cache', 'error', '`revalidate` needs a `cache` policy.'),
  duplicate_revalidate_policy: c(
    'cache',
    'error',
    'The cache policy already has `stale-while-revalidate`; drop one of them.',
  ),
  invalid_revalidate: c(
    'cache',
    'error',
    '`revalidate` takes positive whole seconds (`300`) or a Go duration of whole seconds (`60s`, `1h30m`, `2000ms`).',
  ),

  // endpoints
  unsupported_action_method: c('endpoint', 'error', 'Actions currently require POST.'),
  unsupported_api_method: c('endpoint', 'error', 'APIs accept GET, POST, PUT, PATCH or DELETE.'),
  unsupported_fragment_method: c('endpoint', 'error', 'Fragments currently require GET.'),
  invalid_backend_handler_name: c(
    'endpoint',
    'error',
    'A handler symbol must be an exported identifier starting with an uppercase letter.',
  ),
  invalid_fragment_target: c('endpoint', 'error', 'A fragment target must be a literal `#id`.'),
  invalid_cors_option: c('endpoint', 'error', 'A `cors` option has an invalid value.'),
  malformed_go_endpoint_comment: c(
    'endpoint',
    'error',
    'Expected `//kit:act METHOD /path` or `//kit:api METHOD /path`.',
  ),
  duplicate_go_endpoint_comment: c('endpoint', 'error', 'A function carries more than one `//kit:` endpoint comment.'),
  invalid_go_endpoint_handler: c(
    'endpoint',
    'error',
    'A `//kit:` endpoint comment must sit directly above an exported function.',
  ),

  // binding (handler modules, read with the TypeScript compiler API)
  unsupported_backend_signature: c(
    'binding',
    'error',
    'kit cannot call the exported handler: no handler type of `@kit-lang/kit/app` allows its signature, or ' +
      'kit does not bind that form of export (a re-export, a default export, a value that is not a function).',
  ),
  ambiguous_backend_handler: c('binding', 'warning', 'Two modules of the directory export the same handler name.'),
  load_missing_field: c(
    'binding',
    'warning',
    "The page's Load function returns a type without a field its server {} block declares.",
  ),
  missing_backend_handler: c(
    'binding',
    'warning',
    'No exported handler with this name exists yet; the endpoint answers 501.',
    { fix: 'create_handler_stub' },
  ),
  backend_binding_required: c('binding', 'error', 'A production build requires every handler to be bound.'),

  // view markup
  script_element_not_allowed: c('view', 'error', '`<script>` elements are not allowed in views; use `js "./file.js"`.'),
  inline_event_handler_not_allowed: c('view', 'error', 'Inline `on*` event handler attributes are not allowed.'),
  misplaced_path_value: c(
    'view',
    'error',
    '`{x...}` (a value spanning URL segments) is only allowed in the path of a URL attribute.',
  ),
  unsafe_url: c(
    'view',
    'error',
    'URL attributes must not use javascript:, data:, vbscript: or protocol-relative URLs.',
  ),
  invalid_pattern: c(
    'view',
    'error',
    'A `pattern` attribute does not compile as browsers compile it (`^(?:…)$`, `v` flag), so it checks nothing.',
    { suggestion: 'in v mode, escape `-`, `(`, `)`, `[`, `]`, `{`, `}`, `/` and `|` inside a class: [a-z\\-]' },
  ),
  unsafe_pattern: c(
    'view',
    'error',
    'A `pattern` cannot be matched in time linear in the value (a backreference, or a repetition too large).',
    {
      suggestion: 'drop the backreference, or bound the repetition with a smaller count ({1,64} rather than {1,9999})',
    },
  ),
  unsupported_markup_directive: c('view', 'error', 'Unknown `g:` directive.'),
  unknown_name: c(
    'view',
    'error',
    'An interpolation or attribute expression names nothing in scope; it would render empty.',
  ),
  broken_internal_link: c('view', 'warning', 'A literal internal link matches no route of the workspace.'),
  unknown_action: c('view', 'error', '`g:post` names an action the page does not declare.'),
  g_post_requires_form: c('view', 'error', '`g:post` is only valid on a `<form>`.'),
  unknown_target_id: c('view', 'error', '`g:target` must reference an `id` in the same view.'),
  invalid_swap: c('view', 'error', '`g:swap` accepts innerHTML or outerHTML and needs `g:target`.'),
  directive_lane_required: c('view', 'error', '`g:if` and `g:for` need `g:lane="server"`.'),
  directive_lane_mismatch: c('view', 'error', '`g:lane="server"` needs a request-time page (`server {}`).'),
  invalid_directive_value: c('view', 'error', 'The directive value has the wrong form.'),
  unknown_error_field: c('view', 'error', '`g:error` names no field of its form.'),
  duplicate_id: c('view', 'warning', 'Two elements of one view have the same `id`.'),
  unknown_component: c('composition', 'error', 'No component with this name is declared in the package.'),
  unknown_layout_id: c('composition', 'error', 'No layout with this ID exists.'),
  cyclic_layout_reference: c('composition', 'error', 'Layouts nest in a cycle.'),
  layout_self_reference: c('composition', 'error', 'A layout names itself as its parent.'),
  layout_slot_count: c('composition', 'error', 'A layout view must contain exactly one `<slot />`.'),
  component_composition_cycle: c('composition', 'error', 'Components call each other in a cycle.'),
  duplicate_component_name: c('composition', 'error', 'Two components of one package have the same name.'),
  invalid_component_name: c('composition', 'error', 'A component name must start with an uppercase letter.'),
  invalid_prop_type: c('composition', 'error', 'Prop types are string, int, float or bool.'),
  invalid_prop_default: c('composition', 'error', 'A prop default must be a literal of the prop type.'),
  unknown_prop: c('composition', 'warning', 'The component declares no prop with this name.'),
  missing_prop: c('composition', 'error', 'A prop without a default must be passed.'),
  unknown_slot: c('composition', 'warning', 'The component has no slot with this name; the content is not rendered.'),
  unknown_slot_value: c('composition', 'error', 'The slot passes no value with this `let:` name.'),
  slot_value_not_object: c(
    'composition',
    'error',
    'The slot passes a scalar (a string, number or boolean prop, or a text) for this `let:` name: it has no fields.',
  ),
  invalid_slot_let: c(
    'view',
    'error',
    '`let:<name>` belongs on slot content (`<template g:slot>` or a component call) and takes no value.',
  ),

  // kit.config settings, read from the module's syntax tree without running it
  config_not_literal: c(
    'config',
    'error',
    'A kit.config setting is not a literal: kit reads its settings without running the config.',
    { suggestion: 'write the value itself (`export const ssr = true`); pass --ssr or a path for a one-off run' },
  ),
  config_invalid_setting: c('config', 'error', 'A kit.config setting has a value of the wrong type.'),
} satisfies Record<string, CodeInfo>;

export type DiagnosticCode = keyof typeof REGISTRY;

export function codeInfo(code: string): CodeInfo | undefined {
  return (REGISTRY as Record<string, CodeInfo>)[code];
}

export interface DiagOptions {
  related?: RelatedLocation[];
  severity?: Severity;
  suggestion?: string;
}

/** Builds a diagnostic with the registry's default severity and suggestion. */
export function diag(
  code: DiagnosticCode,
  file: string,
  range: Range,
  message: string,
  opts: DiagOptions = {},
): Diagnostic {
  const info: CodeInfo = REGISTRY[code];
  // A message built from template pieces is a tree of string fragments until something reads it
  // as a whole; reading a character now makes it one flat string, which a workspace keeping tens of
  // thousands of diagnostics holds (and the garbage collector copies) in half the memory.
  message.charCodeAt(0);
  const d: Diagnostic = { code, severity: opts.severity ?? info.severity, message, file, range };
  if (opts.related && opts.related.length) d.related = opts.related;
  const suggestion = opts.suggestion ?? info.suggestion;
  if (suggestion) d.suggestion = suggestion;
  return d;
}
