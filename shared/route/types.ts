// Data shapes shared by every part of the route module. Kept apart from the code so that the
// checker, the language server and the generated server can import the types without pulling
// in the router or the decoders.

export type ParamType = 'string' | 'int' | 'int64' | 'uint' | 'uint64' | 'bool' | 'float64';

/** The supported param types, in the order diagnostics list them. */
export const PARAM_TYPES: readonly ParamType[] = Object.freeze([
  'string',
  'int',
  'int64',
  'uint',
  'uint64',
  'bool',
  'float64',
] as const);

/** UTF-16 offsets inside the pattern string, end exclusive (JavaScript string indices, as LSP counts). */
export interface Span {
  start: number;
  end: number;
}

export type Segment =
  | { kind: 'static'; value: string; span: Span }
  | { kind: 'param'; name: string; type: ParamType; typed: boolean; span: Span; nameSpan: Span; typeSpan?: Span }
  | { kind: 'rest'; name: string; span: Span; nameSpan: Span };

export type RouteIssueCode = 'malformed_route' | 'duplicate_route_param';

export type RouteIssueKind =
  | 'empty'
  | 'whitespace'
  | 'leading_slash'
  | 'query'
  | 'backslash'
  | 'control'
  | 'empty_segment'
  | 'trailing_slash'
  | 'dot_segment'
  | 'param_segment'
  | 'optional'
  | 'rest_unnamed'
  | 'rest_dots'
  | 'param_name'
  | 'rest_typed'
  | 'param_type'
  | 'rest_not_last'
  | 'duplicate_param'
  // Only from validateContractPath: absolute URLs, protocol-relative paths, params where a concrete path is needed.
  | 'not_local'
  | 'not_concrete';

export interface RouteIssue {
  code: RouteIssueCode;
  message: string;
  /** The offending param or segment when there is one, else the whole pattern. */
  span: Span;
  /** Name of the param the issue is about, when it has one. */
  param?: string;
  kind: RouteIssueKind;
}

export interface RouteParam {
  name: string;
  type: ParamType;
}

export interface ParsedRoute {
  /** As declared. */
  pattern: string;
  /** Best effort even when the pattern is invalid: unparseable param segments appear as static text. */
  segments: Segment[];
  issues: RouteIssue[];
  /** `issues.length === 0`. */
  valid: boolean;
  /** Declaration order, without repeated names; rest params have type `string`. */
  params: RouteParam[];
  hasRest: boolean;
  /** Any param or rest segment. */
  isDynamic: boolean;
  /** Literal segments kept, `{x}`/`{x:t}` → `{}`, rest → `{**}`; `/` for the root. Equal keys = same shape. */
  shapeKey: string;
}
