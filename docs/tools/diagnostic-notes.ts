// What the diagnostics registry does not say about a code: how to fix it (every code needs a fix,
// here or as the registry's suggestion), a sentence more on what it means, and examples for codes
// the conformance corpus cannot show as a standalone `kit` block (binding codes need handler
// modules, editor-only codes an editor). gen-diagnostics.ts reads this; the doc tests check the
// `kit` and `ts` examples like every other block of the documentation.
export interface Note {
  fix?: string;
  meaning?: string;
  examples?: { info: string; body: string }[];
}

const kit = (info: string, lines: string[]) => ({
  info: `kit${info ? ` ${info}` : ''}`,
  body: `${lines.join('\n')}\n`,
});
const ts = (lines: string[]) => ({ info: 'ts', body: `${lines.join('\n')}\n` });
const text = (lines: string[]) => ({ info: 'text', body: `${lines.join('\n')}\n` });

const PAGE = [
  'package site',
  '',
  'page save',
  'route "/save"',
  'guard public',
  '',
  'act Save POST "/save"',
  '',
  'view {',
  '  <form g:post={Save}><button>Save</button></form>',
  '}',
];

export const DIAGNOSTIC_NOTES: Record<string, Note> = {
  // syntax
  parse_error: {
    fix: 'write the line as one of the declaration forms of [the language](language.md); the message names what was expected',
  },
  unterminated_string: { fix: 'close the string with `"` on the same line' },
  unterminated_block: { fix: 'close the block with a line that is exactly `}`' },
  unknown_declaration: { fix: 'use the keyword the message suggests, or turn the line into a `//` comment' },
  unsupported_top_level_block: { fix: 'use the blocks kit has: `view`, `style`, `paths`, `server`, `props`' },
  malformed_legacy_metadata: { fix: 'drop the `@`: write `title "About"`, not `@title "About"`' },
  old_action_block_syntax: {
    fix: 'declare the action on one line (`act Save POST "/save"`) and write its body in a handler module',
  },
  old_api_block_syntax: {
    fix: 'declare the API on one line (`api Feed GET "/api/feed"`) and write its body in a handler module',
  },
  view_parse_error: { fix: 'close every element you open, quote attribute values, and escape a literal `<` as `&lt;`' },
  unsupported_markup_syntax: {
    fix: "use kit's directives: `g:if`, `g:for` and `{name}` instead of `{#if}`, `v-if`, `*ngIf` or `{{ }}`",
  },
  invalid_expression: {
    fix: 'write a name, a dotted path (`{post.title}`), `param("x")`, a literal, `!`, `&&`, `||` or a comparison, nested at most 64 levels',
  },
  markup_too_deep: {
    fix: 'flatten the markup: move deep parts into components, which each start counting again only at build time if the page stays within 256 levels',
    meaning:
      'Every tool walks markup recursively, so depth is capped where trees are made. No hand-written view comes near the limit: generated markup does.',
  },
  invalid_utf8: {
    meaning:
      'Each invalid byte sequence is reported once (at most 10 per file), at the U+FFFD the decoder put in its place. The rest of the file is checked as decoded, and `kit fmt` leaves such a file untouched.',
    examples: [text(['route "/caf\\xE9"      <- the byte E9 alone (Latin-1 "é"): not UTF-8'])],
  },
  document_too_large: {
    fix: 'split the file; nothing written by hand comes near 8 MiB',
    meaning:
      'Reported by the language server for an open document. The last version under the limit stays in effect; `kit check` refuses such a file with an I/O error instead.',
    examples: [text(['A generated 9 MiB pages.kit opened in the editor.'])],
  },
  binary_document: {
    fix: 'open the text file you meant; a `.kit` file is UTF-8 text',
    meaning:
      'Reported by the language server for an open document holding NUL characters. `kit check` refuses such a file with an I/O error instead.',
    examples: [text(['An image saved by mistake as logo.kit, opened in the editor.'])],
  },
  // structure
  missing_route: {
    fix: 'add `route "/path"`, or name the file `*.cmp.kit` (a component) or `*.layout.kit` (a layout) if it is not a page',
  },
  missing_view_block: { fix: "add `view { ... }` with the page's markup" },
  duplicate_declaration: { fix: 'keep one of the two lines' },
  unsupported_declaration: {
    fix: 'move the line to a file where it belongs: `route`, `act` and `api` to pages, `props` to components',
  },
  invalid_render_mode: { fix: 'write `render spa`, `render ssr` or `render hybrid`' },
  server_requires_request_render: { fix: 'drop `render spa`: `server {}` makes the page render per request' },
  missing_ssr_addon: {
    fix: 'turn request-time rendering on for the project: `ssr: true` in kit.config.ts (the starter has it), or `--ssr` on the command line',
  },
  invalid_page_id: { fix: 'use letters, digits, `.`, `-` and `_` only' },
  unknown_use_alias: { fix: 'add `use <alias> "<package>"` above, or use the name without the prefix' },
  duplicate_use_alias: { fix: 'give each `use` line its own alias' },
  missing_asset: {
    fix: 'create the file, or correct the path; it is relative to the `.kit` file that declares it (`./img/logo.png`)',
    examples: [
      kit('', [
        'package site',
        '',
        'page about',
        'route "/about"',
        'guard public',
        'asset "./img/team.jpg"   // reported when site/img/team.jpg does not exist',
        '',
        'view {',
        '  <img src="./img/team.jpg" alt="The team" />',
        '}',
      ]),
    ],
  },
  missing_asset_file: {
    fix: 'create the css or js file, or correct the path (relative to the declaring file)',
    meaning: 'Reported by `kit build` and `kit dev`, which read the files.',
    examples: [
      kit('', [
        'package site',
        '',
        'page home',
        'route "/"',
        'guard public',
        'css "./home.css"   // reported when site/home.css cannot be read',
        '',
        'view {',
        '  <h1>Home</h1>',
        '}',
      ]),
    ],
  },
  // routes
  malformed_route: {
    fix: 'start the route with `/`, use no empty or dot segments and no trailing slash, and put a rest param last',
  },
  duplicate_route_param: { fix: 'give each parameter of the route its own name' },
  spa_dynamic_route_missing_paths: {
    fix: 'list the concrete paths in `paths { => { slug: "a" } }`, or render the page per request with `server {}`',
  },
  paths_record_not_literal: { fix: 'write each value as a string literal: `=> { slug: "hello" }`' },
  paths_unknown_param: { fix: "use only the names of the route's parameters" },
  paths_missing_param: { fix: 'give every parameter of the route a value in each record' },
  paths_invalid_value: {
    fix: 'use a non-empty value without `/` that is not `.` or `..` (a rest parameter may hold `/`)',
  },
  paths_value_type: { fix: 'give a value of the parameter\'s type (`{id:int}` takes `"42"`)' },
  paths_without_params: { fix: 'remove the `paths {}` block' },
  unknown_route_param: { fix: 'use a parameter the route declares (the message lists them)' },
  contract_route_invalid: { fix: 'give a path that starts with `/` and stays on the site' },
  // guards
  public_guard_exclusive: {
    fix: 'write `guard public` alone, or only protective guards',
    examples: [
      kit('error=public_guard_exclusive', [
        'package site',
        '',
        'page news',
        'route "/news"',
        'guard public, signed.in',
        '',
        'view {',
        '  <h1>News</h1>',
        '}',
      ]),
    ],
  },
  duplicate_guard: {
    fix: 'list each guard once',
    examples: [
      kit('warning=duplicate_guard', [
        'package site',
        '',
        'page inbox',
        'route "/inbox"',
        'guard signed.in, signed.in',
        '',
        'server {',
        '  => { count }',
        '}',
        '',
        'view {',
        '  <h1>{count} messages</h1>',
        '}',
      ]),
    ],
  },
  missing_endpoint_guard: {
    examples: [
      ts([
        "import { type ApiHandler, json } from '@kit-lang/kit/app';",
        '',
        '//kit:api GET /api/stats',
        '// (no //kit:guard line: the endpoint answers 403 and kit check warns)',
        'export const Stats: ApiHandler = async () => json({ visits: 0 });',
      ]),
    ],
  },
  unknown_guard: {
    fix: "register the guard in kit.config.ts (`export const guards = { 'id': (ctx) => ... }`) or correct its ID (the message suggests the closest)",
  },
  // kit.config settings
  config_not_literal: {
    fix: 'write the value as a literal (`export const ssr = true`); to vary it per run, pass `--ssr` or paths on the command line instead',
    examples: [
      ts(['// kit.config.ts', "export const ssr = process.env.KIT_SSR === '1';"]),
      text([
        "kit.config.ts:1:20: error config_not_literal: ssr in kit.config.ts is not a literal (process.env.KIT_SSR === '1') ...",
      ]),
    ],
  },
  config_invalid_setting: {
    fix: 'give the setting a literal of its type: `ssr` a boolean, `sources`/`out` a path in quotes, `app` a path in quotes or `false`',
    examples: [
      ts(['// kit.config.ts', 'export const sources = 42;']),
      text([
        'kit.config.ts:1:24: error config_invalid_setting: sources in kit.config.ts must be a directory path in quotes, not 42',
      ]),
    ],
  },
  // cache
  invalid_cache_policy: { fix: 'give a Cache-Control value: `cache "public, max-age=600"`' },
  revalidate_requires_cache: { fix: 'add a `cache` line above `revalidate`' },
  duplicate_revalidate_policy: { fix: 'keep either `revalidate` or the `stale-while-revalidate` in `cache`' },
  invalid_revalidate: { fix: 'give whole seconds: `300`, `60s`, `5m`, `1h30m`' },
  // endpoints
  unsupported_action_method: { fix: 'declare actions with POST; use `api` for other methods' },
  unsupported_api_method: { fix: 'use GET, POST, PUT, PATCH or DELETE' },
  unsupported_fragment_method: { fix: 'declare fragments with GET' },
  invalid_backend_handler_name: {
    fix: 'start the symbol with an uppercase letter (`act Save`), as the exported function is named',
  },
  invalid_fragment_target: { fix: 'write the target as a literal `"#id"`' },
  invalid_cors_option: {
    fix: 'give each `cors` option its form: `origins "https://a.example"`, `credentials true`, `maxAge 600`',
  },
  malformed_go_endpoint_comment: {
    fix: 'write `//kit:act POST /path` or `//kit:api GET /path`',
    examples: [
      ts([
        "import { type ApiHandler, json } from '@kit-lang/kit/app';",
        '',
        '//kit:api /api/ping        <- no method',
        '//kit:guard public',
        'export const Ping: ApiHandler = async () => json({ ok: true });',
      ]),
    ],
  },
  duplicate_go_endpoint_comment: {
    fix: 'keep one `//kit:` endpoint comment per function; write a second function for a second endpoint',
    examples: [
      ts([
        "import { type ApiHandler, json } from '@kit-lang/kit/app';",
        '',
        '//kit:api GET /api/ping',
        '//kit:api GET /api/pong',
        '//kit:guard public',
        'export const Ping: ApiHandler = async () => json({ ok: true });',
      ]),
    ],
  },
  invalid_go_endpoint_handler: {
    fix: 'put the comment directly above an exported function',
    examples: [
      ts([
        "import { json } from '@kit-lang/kit/app';",
        '',
        '//kit:api GET /api/ping',
        '//kit:guard public',
        'const Ping = async () => json({ ok: true });   // not exported',
        'void Ping;',
      ]),
    ],
  },
  // binding
  unsupported_backend_signature: {
    fix: "write the handler to one of kit's types (`Action`, `ActionWithInput<I>`, `FormAction`, `ApiHandler`, `Load<D>`); the message lists the shapes kit accepts",
    meaning:
      'No kit type allows the signature, so kit could not call the handler correctly. A handler that declares fewer parameters than kit passes is accepted.',
    examples: [
      kit('', PAGE),
      ts([
        "import type { RequestContext } from '@kit-lang/kit/app';",
        '',
        '// handlers.ts beside it: three parameters, and kit passes two.',
        'export function Save(ctx: RequestContext, name: string, extra: string) {',
        '  return { saved: name + extra };',
        '}',
      ]),
    ],
  },
  ambiguous_backend_handler: {
    fix: 'export the handler from one module of the directory only',
    examples: [kit('', PAGE), text(['site/handlers.ts  exports Save', 'site/legacy.ts    exports Save too'])],
  },
  load_missing_field: {
    fix: 'return every field the `server {}` block lists (type the load with the generated `<Page>Load`, and tsc says it too)',
    examples: [
      kit('', [
        'package site',
        '',
        'page profile',
        'route "/profile"',
        'guard signed.in',
        '',
        'server {',
        '  => { name, email }',
        '}',
        '',
        'view {',
        '  <p>{name} ({email})</p>',
        '}',
      ]),
      ts([
        "import { type Load, app } from '@kit-lang/kit/app';",
        '',
        '// handlers.ts: email is missing from the result.',
        "export const LoadProfile: Load<{ name: string }> = (ctx) => ({ name: app.cookie(ctx, 'session') ?? 'guest' });",
      ]),
    ],
  },
  missing_backend_handler: {
    fix: 'export a function of that name from a module beside the page (the message names the file; the editor writes the stub)',
    examples: [kit('', PAGE), text(['site/handlers.ts exports no Save: POST /save answers 501 until it does.'])],
  },
  backend_binding_required: {
    fix: 'write the missing handlers, or build without `--strict-bindings` while they are unfinished',
    meaning:
      '`kit build --strict-bindings` turns every missing or unusable handler into this error, so a production build never ships a 501.',
    examples: [
      text([
        'kit build --strict-bindings --out dist/site --app dist/app site',
        'site/save.kit:7:5: error backend_binding_required: ...',
      ]),
    ],
  },
  // view
  script_element_not_allowed: { fix: 'move the code into a file and declare it with `js "./file.js"`' },
  inline_event_handler_not_allowed: { fix: 'attach the listener from a `js "./file.js"` module' },
  misplaced_path_value: { fix: 'use `{x...}` only in the path of `href`, `src` or `action`; write `{x}` elsewhere' },
  unsafe_url: { fix: 'link to `https:`, `http:`, `mailto:` or a path of the site' },
  unsupported_markup_directive: {
    fix: 'use one of `g:post`, `g:target`, `g:swap`, `g:command`, `g:query`, `g:error`, `g:message:*`, `g:if`, `g:for`, `g:lane`, `g:slot`',
  },
  unknown_name: {
    fix: 'use a name in scope (the message lists them and suggests the closest), or add the field to `server {}`',
  },
  broken_internal_link: { fix: 'correct the link (the message suggests the closest route), or add the page' },
  unknown_action: { fix: 'declare the action on the page (`act Save POST "/save"`) or correct the name' },
  g_post_requires_form: { fix: 'put `g:post` on a `<form>`' },
  unknown_target_id: { fix: 'give an element of the view that `id`, or correct the target' },
  invalid_swap: { fix: 'write `g:swap="innerHTML"` or `"outerHTML"`, together with `g:target`' },
  directive_lane_required: { fix: 'add `g:lane="server"`' },
  directive_lane_mismatch: { fix: 'render the page per request (`server {}`), or drop the directive' },
  invalid_directive_value: {
    fix: 'write the directive in its form: `g:post={Save}`, `g:target="#id"`, `g:for={item in items}`',
  },
  unknown_error_field: { fix: 'name an input, textarea or select of the form (the message suggests the closest)' },
  duplicate_id: { fix: 'give each element its own `id`' },
  invalid_slot_let: { fix: 'put `let:name` on a `<template g:slot>` or on the component call, without a value' },
  // composition
  unknown_component: {
    fix: 'declare the component in the package, import its package with `use`, or correct the name',
  },
  unknown_layout_id: { fix: 'create `<id>.layout.kit` in the package, or correct the ID' },
  cyclic_layout_reference: { fix: 'break the cycle: one layout of the chain must have no parent' },
  layout_self_reference: {
    fix: 'name another layout as the parent, or none',
    examples: [
      kit('error=layout_self_reference', [
        '// file: main.layout.kit',
        'package site',
        '',
        'layout main',
        '',
        'view {',
        '  <main><slot /></main>',
        '}',
      ]),
    ],
  },
  layout_slot_count: {
    fix: "put exactly one `<slot />` in the layout's view: the page goes there",
    examples: [
      kit('error=layout_slot_count', [
        '// file: main.layout.kit',
        'package site',
        '',
        'view {',
        '  <main>no slot</main>',
        '}',
      ]),
    ],
  },
  component_composition_cycle: { fix: 'break the cycle: a component must not call itself through others' },
  duplicate_component_name: { fix: 'rename one of the components' },
  invalid_component_name: { fix: 'start the component name with an uppercase letter' },
  invalid_prop_type: { fix: 'use `string`, `int`, `float` or `bool`' },
  invalid_prop_default: { fix: "give a literal of the prop's type: `compact bool = false`" },
  unknown_prop: { fix: 'pass only props the component declares (the message suggests the closest)' },
  missing_prop: { fix: 'pass the prop, or give it a default in `props {}`' },
  unknown_slot: { fix: 'use a slot name the component has (the message suggests the closest)' },
  unknown_slot_value: { fix: 'take a value the slot passes (the message lists them)' },
  slot_value_not_object: { fix: 'read the value itself (`{text}`), not a field of it' },
};
