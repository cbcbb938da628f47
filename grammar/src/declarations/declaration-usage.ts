// Usage messages and argument shapes of the one-line declarations, and the small text helpers
// the chunk builders share.
import type { IToken } from 'chevrotain';

// Maps, not object literals: a keyword such as `valueOf` must not find Object.prototype members.
const USAGE_TABLE: Record<string, string> = {
  package: 'package declaration needs a name: package <ident>',
  page: 'page declaration needs an ID: page <id>',
  route: 'route declaration needs a quoted pattern: route "/path"',
  render: 'render declaration needs a mode: render spa|ssr|hybrid',
  guard: 'guard declaration needs one or more guard IDs: guard public | guard auth.required, role:admin',
  layout: 'layout declaration needs one or more layout IDs: layout frame[, reading]',
  cache: 'cache declaration needs a quoted Cache-Control value: cache "public, max-age=60"',
  revalidate: 'revalidate declaration needs whole seconds or a duration: revalidate 60 | revalidate 5m',
  title: 'title declaration needs quoted text: title "Text"',
  description: 'description declaration needs quoted text: description "Text"',
  canonical: 'canonical declaration needs a quoted URL: canonical "https://example.com/page"',
  css: 'css declaration needs names or one quoted file: css default | css page, extra | css "./file.css"',
  js: 'js declaration needs a quoted module path: js "./file.js"',
  asset: 'asset declaration needs a quoted file path: asset "./file"',
  wasm: 'wasm declaration needs a package path: wasm ./pkg',
  error: 'error declaration needs a quoted error document path: error "/errors/not-found.html"',
  use: 'use declaration needs an alias and a quoted package: use ui "shared/ui"',
  component: 'component declaration needs a name: component Name',
  act: 'act declaration needs a symbol, a method and optionally a path: act <Symbol> POST "/path"',
  api:
    'api declaration needs a symbol, a method and optionally a path: api <Symbol> GET "/path" [error ' +
    '"x.html"] [cors origins "..." ...]',
  fragment:
    'fragment declaration needs a name, a method, a quoted route and a quoted "#target": fragment <Name> GET ' +
    '"/path" "#target" {',
  view: 'view block: `view {` on its own line, markup, then a line that is exactly `}`',
  style: 'style block: `style {` on its own line, CSS, then the closing `}`',
  paths: 'paths block: `paths {`, then one `=> { param: "value" }` line per concrete path, then `}`',
  server: 'server block: `server {` (or `go server {`), optional `=> { field, user.name }` lines, then `}`',
  props: 'props block: `props {`, then one `name type [= literal]` line per prop, then `}`',
};

export type ArgKind = 'word' | 'string' | 'either';
const ONE_ARG_TABLE: Record<string, ArgKind> = {
  package: 'word',
  page: 'word',
  render: 'word',
  revalidate: 'word',
  component: 'word',
  route: 'string',
  cache: 'string',
  title: 'string',
  description: 'string',
  canonical: 'string',
  js: 'string',
  asset: 'string',
  error: 'string',
  wasm: 'either',
};

export const USAGE = new Map(Object.entries(USAGE_TABLE));
export const ONE_ARG = new Map(Object.entries(ONE_ARG_TABLE));
export function usageOf(kw: string): string {
  return USAGE.get(kw) ?? USAGE.get('server')!;
}

export const FIELD_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
export const NUMBER = /^-?\d+(?:\.\d+)?$/;

export function isSpaceCode(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xfeff;
}

/** Offset just past the last non-space character in [from, to). */
export function trimEnd(text: string, from: number, to: number): number {
  let e = to;
  while (e > from && isSpaceCode(text.charCodeAt(e - 1))) e--;
  return e;
}

export function describe(t: IToken): string {
  if (!(t.startOffset >= 0) || t.image === undefined || t.image === '') return 'the end of the line';
  const img = t.image.length > 30 ? t.image.slice(0, 30) + '…' : t.image;
  return `\`${img}\``;
}
