// The closed sets of words of the kit language, and of the HTML and HTTP it speaks, each named once:
// the declaration keywords and what each kind of file may declare, the `g:` directives, the
// constraints a `g:message:` names, render modes, prop types, API and safe methods, CORS options,
// void elements and form controls. The grammar, the rules, the language server's completion and the
// generated app's runtime all read them here. Pure data that imports nothing, at the bottom of the
// layer list, so that every one of them may import it (docs/architecture.md, "Language facts");
// `test/architecture/invariants.test.ts` fails on a second spelling of one of these sets.

/**
 * The kind of declaration each top-level keyword starts: `title`, `description` and `canonical` are
 * `meta`, and `go` starts `go server {`. Look a word up only once `DECLARATION_KEYWORD_SET` has it
 * (a plain object: `valueOf` would find Object.prototype's).
 */
export const KEYWORD_KINDS = {
  package: 'package',
  page: 'page',
  route: 'route',
  render: 'render',
  guard: 'guard',
  layout: 'layout',
  cache: 'cache',
  revalidate: 'revalidate',
  title: 'meta',
  description: 'meta',
  canonical: 'meta',
  css: 'css',
  js: 'js',
  asset: 'asset',
  wasm: 'wasm',
  error: 'error',
  use: 'use',
  component: 'component',
  props: 'props',
  paths: 'paths',
  server: 'server',
  go: 'server',
  act: 'act',
  api: 'api',
  fragment: 'fragment',
  view: 'view',
  style: 'style',
} as const;

export type DeclarationKeyword = keyof typeof KEYWORD_KINDS;
/** The kinds of declaration (the grammar's `DeclarationKind`; a test holds the two equal). */
export type DeclarationKindName = (typeof KEYWORD_KINDS)[DeclarationKeyword];
/** The keywords of `meta` declarations, which are also the meta's name. */
export type MetaKeyword = {
  [K in DeclarationKeyword]: (typeof KEYWORD_KINDS)[K] extends 'meta' ? K : never;
}[DeclarationKeyword];

/** Every keyword that starts a top-level declaration, in the order of `KEYWORD_KINDS`. */
export const DECLARATION_KEYWORDS: readonly DeclarationKeyword[] = Object.freeze(
  Object.keys(KEYWORD_KINDS) as DeclarationKeyword[],
);
export const DECLARATION_KEYWORD_SET: ReadonlySet<string> = new Set(DECLARATION_KEYWORDS);

/** Keywords that open a block (`fragment` after its name, method, route and target). */
export const BLOCK_KEYWORDS: ReadonlySet<string> = new Set<DeclarationKeyword>([
  'paths',
  'server',
  'go',
  'props',
  'style',
  'view',
  'fragment',
]);

/** The kinds of `.kit` file (`*.cmp.kit` or a `component` declaration, `*.layout.kit`, any other a page). */
export const FILE_KINDS = ['page', 'component', 'layout'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** The declarations each kind of file may hold. */
export const ALLOWED_DECLARATIONS: Readonly<Record<FileKind, ReadonlySet<DeclarationKindName>>> = {
  page: new Set<DeclarationKindName>([
    'package',
    'page',
    'route',
    'render',
    'guard',
    'layout',
    'cache',
    'revalidate',
    'meta',
    'css',
    'js',
    'asset',
    'wasm',
    'error',
    'use',
    'paths',
    'server',
    'act',
    'api',
    'fragment',
    'view',
    'style',
  ]),
  component: new Set<DeclarationKindName>([
    'package',
    'component',
    'props',
    'css',
    'js',
    'asset',
    'wasm',
    'use',
    'view',
    'style',
  ]),
  layout: new Set<DeclarationKindName>(['package', 'layout', 'error', 'meta', 'css', 'js', 'asset', 'view', 'style']),
};

/** Declarations that may appear at most once per file (meta is unique per name). */
export const UNIQUE_DECLARATIONS: ReadonlySet<DeclarationKindName> = new Set<DeclarationKindName>([
  'package',
  'page',
  'route',
  'render',
  'guard',
  'layout',
  'cache',
  'revalidate',
  'paths',
  'server',
  'view',
  'component',
  'props',
  'error',
  'style',
]);

/** How a page is served: prerendered (`spa`), rendered per request (`ssr`), or both (`hybrid`). */
export const RENDER_MODES = ['spa', 'ssr', 'hybrid'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

/** The types a component's prop may declare. */
export const PROP_TYPES = ['string', 'int', 'float', 'bool'] as const;

/** The `g:` directives of view markup (`g:message:<constraint>` apart: `MESSAGE_CONSTRAINTS`). */
export const DIRECTIVES: ReadonlySet<string> = new Set([
  'g:post',
  'g:target',
  'g:swap',
  'g:command',
  'g:query',
  'g:if',
  'g:for',
  'g:key',
  'g:lane',
  'g:slot',
  'g:error',
]);

/** The constraints whose message a control may write itself, with `g:message:<constraint>`. */
export const MESSAGE_CONSTRAINTS = ['required', 'minlength', 'maxlength', 'pattern'] as const;
export type MessageConstraint = (typeof MESSAGE_CONSTRAINTS)[number];
const MESSAGE_PREFIX = 'g:message:';

/** The constraint a `g:message:<constraint>` attribute names, if it is one of `MESSAGE_CONSTRAINTS`. */
export function messageConstraint(attribute: string): MessageConstraint | undefined {
  if (!attribute.startsWith(MESSAGE_PREFIX)) return undefined;
  const c = attribute.slice(MESSAGE_PREFIX.length);
  return isOneOf(MESSAGE_CONSTRAINTS, c) ? c : undefined;
}

/** The `g:message:` directive of a constraint. */
export function messageDirective(constraint: MessageConstraint): string {
  return MESSAGE_PREFIX + constraint;
}

/** The methods an `api` endpoint may declare (`act` is POST, a fragment GET). */
export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** HTTP's safe methods: no body to read, no state to change, so no CSRF check. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** The options of an endpoint's `cors`: the quoted ones, then `credentials` and `maxAge` (words). */
export const CORS_STRING_OPTIONS = ['origins', 'methods', 'headers', 'expose'] as const;
export type CorsStringOption = (typeof CORS_STRING_OPTIONS)[number];
export const CORS_OPTIONS = [...CORS_STRING_OPTIONS, 'credentials', 'maxAge'] as const;

/** HTML's void elements: no content, no closing tag. */
export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/** The HTML elements whose `name` a form submits a value under (kit's form fields). */
export const FORM_CONTROLS: ReadonlySet<string> = new Set(['input', 'textarea', 'select']);

/** Whether `word` is one of `words` (narrowing it to their type). */
export function isOneOf<T extends string>(words: readonly T[], word: string): word is T {
  return (words as readonly string[]).includes(word);
}
