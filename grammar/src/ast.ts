// The typed syntax tree of a `.kit` file. Plain data (no methods) so that the core, the language
// server and tests can compare and serialise it freely. One exception keeps it small: the parser's
// ranges are `Span` objects (grammar/src/common/text-lines.ts) that present the `Range` shape through
// getters and serialise to it; a structured clone of a tree therefore drops their positions.
//
// Positions: `line` and `column` are 0-based; `column` and `offset` count UTF-16 code units, the
// unit of JavaScript strings and of the LSP. Ranges are end-exclusive. Every part a diagnostic may
// point at (keyword, symbol, method, path string, each route param) has a range of its own.
import type { FileKind, MetaKeyword } from '#shared/language/facts.js';

export type { FileKind } from '#shared/language/facts.js';

export interface Pos {
  offset: number;
  line: number;
  column: number;
}

export interface Range {
  start: Pos;
  end: Pos;
}

/** A bare word: identifier, page ID (`blog.post`), guard ID (`role:admin`, `auth.required`), method, type. */
export interface Word {
  text: string;
  range: Range;
}

/** A double-quoted string literal. `value` has escapes resolved. */
export interface StringLit {
  value: string;
  /** Source text including quotes. */
  raw: string;
  range: Range;
  /**
   * Offset (UTF-16, absolute in the document) of each character of `value`, plus one entry for the
   * end, so `valueOffsets[i]` locates `value[i]` even when escapes make the source longer. Absent
   * when the string has no escapes: `value[i]` then sits at `range.start.offset + 1 + i`. Read it
   * through `valueOffset(lit, i)`. Route segment spans map to document ranges through it.
   */
  valueOffsets?: number[];
  /** False when the closing quote is missing (a diagnostic was reported). */
  terminated: boolean;
}

export interface KitFile {
  /** Path as given by the caller (a file system path in the CLI, a path from a URI in the LSP). */
  path: string;
  kind: FileKind;
  declarations: Declaration[];
  /** `//` line comments outside blocks, kept for the formatter and folding. */
  comments: LineComment[];
  diagnostics: SyntaxDiagnostic[];
  /** Line start offsets, for offset ↔ position conversion by later layers. */
  lineStarts: number[];
  /** Length of the source text in UTF-16 units. */
  length: number;
}

export interface LineComment {
  text: string;
  range: Range;
}

export interface SyntaxDiagnostic {
  /** `parse_error`, `unterminated_string`, `unsupported_top_level_block`, `unsupported_markup`, ... */
  code: string;
  message: string;
  range: Range;
  severity: 'error' | 'warning';
}

// ---------------------------------------------------------------------------------------------
// Declarations

interface DeclBase {
  /** The whole declaration, from the keyword to the end of its line or closing brace line. */
  range: Range;
  /** The leading keyword (for `go server {}`: the range of `go server`). */
  keyword: Range;
}

export interface PackageDecl extends DeclBase {
  kind: 'package';
  name: Word;
}
export interface PageIdDecl extends DeclBase {
  kind: 'page';
  id: Word;
}
export interface RouteDecl extends DeclBase {
  kind: 'route';
  path: StringLit;
}
export interface RenderDecl extends DeclBase {
  kind: 'render';
  mode: Word;
}
export interface GuardDecl extends DeclBase {
  kind: 'guard';
  guards: Word[];
}
/** In a page or component: the layouts (outermost first). In a layout file: its parent layout(s). */
export interface LayoutDecl extends DeclBase {
  kind: 'layout';
  layouts: Word[];
}
export interface CacheDecl extends DeclBase {
  kind: 'cache';
  value: StringLit;
}
/** `revalidate 300` / `revalidate 5m`: the raw token, validated by the core. */
export interface RevalidateDecl extends DeclBase {
  kind: 'revalidate';
  value: Word;
}
export interface MetaDecl extends DeclBase {
  kind: 'meta';
  name: MetaKeyword;
  value: StringLit;
}
/** `css default`, `css page, extra` (names) or `css "./file.css"` (components). */
export interface CssDecl extends DeclBase {
  kind: 'css';
  names: Word[];
  file?: StringLit;
}
export interface JsDecl extends DeclBase {
  kind: 'js';
  file: StringLit;
}
export interface AssetDecl extends DeclBase {
  kind: 'asset';
  file: StringLit;
}
export interface WasmDecl extends DeclBase {
  kind: 'wasm';
  target: Word | StringLit;
}
/** `error "/errors/x.html"`: route-local error document. */
export interface ErrorPageDecl extends DeclBase {
  kind: 'error';
  file: StringLit;
}
/** `use alias "pkg"`: another `.kit` package, for `<alias.Comp />` and `alias.layout`. */
export interface UseDecl extends DeclBase {
  kind: 'use';
  alias: Word;
  pkg: StringLit;
}
export interface ComponentDecl extends DeclBase {
  kind: 'component';
  name: Word;
}

export interface PropsBlock extends DeclBase {
  kind: 'props';
  props: PropDecl[];
}
export interface PropDecl {
  range: Range;
  name: Word;
  type: Word;
  default?: Literal;
}

export interface PathsBlock extends DeclBase {
  kind: 'paths';
  records: PathRecord[];
}
/** One `=> { p: "v", ... }` line. */
export interface PathRecord {
  range: Range;
  fields: PathField[];
}
export interface PathField {
  range: Range;
  name: Word;
  /** A string literal, or the raw text of anything else (reported by the core: literal strings only). */
  value: StringLit | { kind: 'nonliteral'; text: string; range: Range };
}

/** `server { => { a, b.c } }` or `go server { ... }` (same meaning). */
export interface ServerBlock extends DeclBase {
  kind: 'server';
  go: boolean;
  fields: FieldPath[];
}
/** An identifier or dotted path: `editor.name`. */
export interface FieldPath {
  path: string[];
  text: string;
  range: Range;
}

/** `act Save POST "/save" [error "x.html"]` */
export interface ActDecl extends DeclBase {
  kind: 'act';
  symbol: Word;
  method: Word;
  /** Absent or empty (`""`) means: inherit the page route. */
  path?: StringLit;
  error?: StringLit;
}

/** `api Ping GET "/api/ping" [error "x.html"] [cors origins "..." methods "..." ...]` */
export interface ApiDecl extends DeclBase {
  kind: 'api';
  symbol: Word;
  method: Word;
  path?: StringLit;
  error?: StringLit;
  cors?: CorsOptions;
}
export interface CorsOptions {
  range: Range;
  origins?: StringLit;
  methods?: StringLit;
  headers?: StringLit;
  expose?: StringLit;
  credentials?: Word;
  maxAge?: Word;
}

/** `fragment Row GET "/rows/{id:int}" "#rows" { markup }` */
export interface FragmentDecl extends DeclBase {
  kind: 'fragment';
  name: Word;
  method: Word;
  path: StringLit;
  target: StringLit;
  body: MarkupNode[];
  bodyRange: Range;
}

export interface ViewBlock extends DeclBase {
  kind: 'view';
  body: MarkupNode[];
  bodyRange: Range;
}
export interface StyleBlock extends DeclBase {
  kind: 'style';
  css: string;
  cssRange: Range;
}

export type Declaration =
  | PackageDecl
  | PageIdDecl
  | RouteDecl
  | RenderDecl
  | GuardDecl
  | LayoutDecl
  | CacheDecl
  | RevalidateDecl
  | MetaDecl
  | CssDecl
  | JsDecl
  | AssetDecl
  | WasmDecl
  | ErrorPageDecl
  | UseDecl
  | ComponentDecl
  | PropsBlock
  | PathsBlock
  | ServerBlock
  | ActDecl
  | ApiDecl
  | FragmentDecl
  | ViewBlock
  | StyleBlock;

export type DeclarationKind = Declaration['kind'];

// ---------------------------------------------------------------------------------------------
// Markup (view and fragment bodies)

export type MarkupNode = Element | TextNode | Interpolation | MarkupComment;

export interface Element {
  type: 'element';
  /** Tag name as written: `div`, `Card`, `ui.Button`, `slot`, `template`. */
  name: string;
  nameRange: Range;
  /** Capitalised (or `alias.Capitalised`) names are component calls. */
  isComponent: boolean;
  /** For `ui.Button`: `ui`; for `Button`: undefined. */
  alias?: string;
  /** For `ui.Button`: `Button`. */
  localName: string;
  attrs: Attribute[];
  children: MarkupNode[];
  /** `<x />` */
  selfClosing: boolean;
  /** Range of the whole element, from `<` to the end of the closing tag. */
  range: Range;
  /** Range of the opening tag `<...>`. */
  openRange: Range;
  closeNameRange?: Range;
}

export interface Attribute {
  /** `class`, `g:post`, `href`; for shorthands: `class` / `id`. */
  name: string;
  nameRange: Range;
  range: Range;
  /**
   * `normal`, `.class` shorthand, `#id` shorthand, or `let`: `let:value` on slot content (a
   * `<template g:slot>` or a component call), which binds the slot value `value` as a local name of
   * that content; `name` keeps the `let:` prefix (`letBinding` reads the bound name).
   */
  form: 'normal' | 'class-shorthand' | 'id-shorthand' | 'let';
  /** Undefined for a boolean attribute (`required`). Shorthands carry a text value. */
  value?: AttrValue;
}

/** The name a `let:` attribute binds (`value` for `let:value`); undefined for any other attribute. */
export function letBinding(a: Attribute): string | undefined {
  return a.form === 'let' ? a.name.slice(4) : undefined;
}

export type AttrValue =
  | { type: 'string'; parts: TextOrInterpolation[]; range: Range /** value range without quotes */; innerRange: Range }
  | { type: 'expr'; expr: Expr; range: Range };

export type TextOrInterpolation = { type: 'text'; value: string; range: Range } | Interpolation;

export interface TextNode {
  type: 'text';
  /** Raw source text (entities kept as written). */
  value: string;
  range: Range;
}

export interface Interpolation {
  type: 'interp';
  expr: Expr;
  range: Range;
}

export interface MarkupComment {
  type: 'comment';
  value: string;
  range: Range;
}

// ---------------------------------------------------------------------------------------------
// Expressions inside `{...}`: the small, deterministic language of views.

export type Expr = PathExpr | ParamCall | Literal | NotExpr | BinaryExpr | ForExpr | InvalidExpr;

/** `name`, `a.b.c`; `{a.b...}` in a URL attribute: a path value whose slashes separate segments. */
export interface PathExpr {
  type: 'path';
  path: string[];
  range: Range;
  segments?: true;
}
/** `param("slug")` */
export interface ParamCall {
  type: 'param';
  name: StringLit;
  range: Range;
}
export interface Literal {
  type: 'literal';
  value: string | number | boolean;
  range: Range;
}
export interface NotExpr {
  type: 'not';
  expr: Expr;
  range: Range;
}
export interface BinaryExpr {
  type: 'binary';
  op: '==' | '!=' | '&&' | '||' | '<' | '<=' | '>' | '>=';
  left: Expr;
  right: Expr;
  range: Range;
}
/** `item in items` / `item, i in items` (only valid as the value of `g:for`). */
export interface ForExpr {
  type: 'for';
  item: Word;
  index?: Word;
  collection: Expr;
  range: Range;
}
/** Anything the expression grammar could not read; a diagnostic was reported. */
export interface InvalidExpr {
  type: 'invalid';
  text: string;
  range: Range;
}
