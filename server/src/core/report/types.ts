// Report shapes, schema version 1: `kit routes` rows, `kit endpoints` records and their parts.
// Field names and order are those of the README's report tables; the JSON Schemas under `schemas/`
// describe the same shapes and tests validate real outputs against them.
import type { RenderMode } from '../model/summary.js';
import type { BindingStatus, InputField, SignatureKind } from '../bind/types.js';

export const REPORT_VERSION = 1;

/** 1-based line and column; columns count Unicode code points. */
export interface ReportPos {
  line: number;
  column: number;
}
/** End exclusive. */
export interface SourceSpan {
  start: ReportPos;
  end: ReportPos;
}

export interface RouteParamRecord {
  name: string;
  type: string;
}

/** `static` is part of the schema but not emitted: SPA pages report `spa` (as the original does). */
export type PageKind = 'static' | RenderMode;
export type EndpointKind = 'action' | 'api' | 'fragment' | 'command' | 'query';
export type Directive = 'act' | 'api' | 'fragment' | 'g:command' | 'g:query';
/**
 * `kit`: declared in a `.kit` file; `comment`: a `//kit:` comment in a handler module; `contract`: a
 * `g:command`/`g:query` reference.
 */
export type EndpointSource = 'kit' | 'comment' | 'contract';

export interface PageRow {
  kind: PageKind;
  method: 'GET';
  /** As declared (`/p/{id:int}`); the types also appear in `routeParams`. */
  route: string;
  pageId: string;
  package: string;
  render: RenderMode;
  /** Effective policy: the declared `cache` plus `, stale-while-revalidate=<s>` when `revalidate` is set. */
  cache?: string;
  /** Param names, sorted. */
  dynamicParams?: string[];
  routeParams?: RouteParamRecord[];
  layouts?: string[];
  guards?: string[];
  source: string;
  sourceSpan?: SourceSpan;
  /** Planned handler label: `embedded.SPA("pages/blog/post.html")`, `ssr.RenderDocs`, `hybrid.RenderX`. */
  handler: string;
  /** Binding of `Load<PageID>`, for pages with `server {}`. */
  bindingStatus?: BindingStatus;
}

/** The endpoint fields shared by `kit routes` rows and `kit endpoints` records (identical values). */
export interface EndpointRow {
  kind: EndpointKind;
  endpointSource: EndpointSource;
  directive: Directive;
  method: string;
  /** As declared; an endpoint without a path inherits the page route. */
  route: string;
  /**
   * The only paths it answers on, when not the whole route: a path-less action of a dynamic SPA
   * page inherits the page's generated concrete paths (percent-encoded, sorted).
   */
  paths?: string[];
  /** Owning page; `<package>.<Function>` for comment endpoints. */
  pageId: string;
  package: string;
  /** Directory of the package's sources, relative to the working directory. */
  packagePath: string;
  /** Package whose modules the handler binds to. */
  packageName: string;
  /** Declared symbol, fragment name, contract reference or comment endpoint function. */
  symbol: string;
  cache: 'no-store';
  dynamicParams?: string[];
  routeParams?: RouteParamRecord[];
  /** Inherited from the page; from `//kit:guard` for comment endpoints. */
  guards?: string[];
  /** Present (true) for actions, state-changing APIs and commands. */
  csrf?: true;
  source: string;
  sourceSpan?: SourceSpan;
  /**
   * `actions.<Page><Symbol>`, `api.<Page><Symbol>`, `fragments.<Page><Symbol>`,
   * `contracts.<command|query>.<pkg.Name>`.
   */
  handler: string;
  bindingStatus?: BindingStatus;
}

export type RouteRow = PageRow | EndpointRow;

export interface BackendBindingRecord {
  status: BindingStatus;
  packageName: string;
  importPath?: string;
  functionName: string;
  signature?: SignatureKind;
  /** kit addition: the declaration as written. */
  signatureText?: string;
  inputType?: string;
  /** kit addition: the input type's form-decodable fields. */
  inputFields?: InputField[];
  message?: string;
}

export type ContractStatus = 'unknown' | 'bound' | 'missing' | 'invalid';

export interface ContractRecord {
  name: string;
  kind: 'command' | 'query';
  status: ContractStatus;
  importAlias?: string;
  importPath?: string;
  /** Input type of the contract function. */
  type?: string;
  /** Declared result type. */
  result?: string;
  roles?: string[];
  handler?: string;
  register?: string;
  message?: string;
}

export interface EndpointRecord {
  kind: EndpointKind;
  endpointSource: EndpointSource;
  directive: Directive;
  source: string;
  sourceSpan?: SourceSpan;
  package: string;
  packagePath: string;
  packageName: string;
  symbol: string;
  method: string;
  route: string;
  paths?: string[];
  cache: 'no-store';
  dynamicParams?: string[];
  routeParams?: RouteParamRecord[];
  guards?: string[];
  csrf?: true;
  pageId: string;
  handler: string;
  bindingStatus?: BindingStatus;
  signature?: SignatureKind;
  inputType?: string;
  backendBinding?: BackendBindingRecord;
  contract?: ContractRecord;
}

export interface InfoNote {
  code: 'ssr_disabled' | 'spa_disabled';
  pageId: string;
  route: string;
  message: string;
}

export interface RouteReport {
  version: 1;
  routes: RouteRow[];
  info: InfoNote[];
}

export interface EndpointReport {
  version: 1;
  endpoints: EndpointRecord[];
}

export function isPageRow(row: RouteRow): row is PageRow {
  return !('endpointSource' in row);
}
