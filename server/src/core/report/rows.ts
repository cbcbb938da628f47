// Row projections of the report model: `kit routes` rows (page rows, then endpoint rows),
// `kit endpoints` records, and the `info` notes. Consumed by the CLI reports, the static build's
// `kit-routes.json`, the language server's hover and the generated app's route table.
import type { Range } from '#grammar/index.js';
import type { RouteParam } from '#shared/route/index.js';
import { reportRange } from '../model/report-positions.js';
import type { Workspace } from '../workspace/workspace.js';
import type { HandlerBinding } from '../bind/types.js';
import { buildReportModel, type EndpointInfo, type PageInfo, type ReportModel } from './model.js';
import type {
  BackendBindingRecord,
  ContractRecord,
  ContractStatus,
  EndpointRecord,
  EndpointReport,
  EndpointRow,
  InfoNote,
  PageRow,
  RouteParamRecord,
  RouteReport,
  RouteRow,
  SourceSpan,
} from './types.js';

export type * from './types.js';
export { isPageRow, REPORT_VERSION } from './types.js';
export { buildReportModel, type ReportModel, type PageInfo, type EndpointInfo } from './model.js';

export interface RowOptions {
  /** A model already built for this workspace state (saves rebuilding it for several projections). */
  model?: ReportModel;
}

function modelOf(ws: Workspace, opts: RowOptions): ReportModel {
  return opts.model ?? buildReportModel(ws);
}

export function sourceSpan(ws: Workspace, file: string, range: Range): SourceSpan {
  const text = ws.kit(file)?.text ?? ws.module(file)?.text;
  return reportRange(text, range);
}

/** Spread helper that keeps JSON key order while leaving absent fields out (for small records). */
function opt<K extends string, V>(key: K, value: V | undefined | false): { [P in K]?: V } {
  return value === undefined || value === false ? {} : ({ [key]: value } as { [P in K]?: V });
}

// Rows are built by assignment in field order (JSON keeps insertion order): tens of thousands of
// rows per report, so no per-field spreads.

export function pageRow(ws: Workspace, p: PageInfo): PageRow {
  const s = p.summary;
  const row = {
    kind: s.render,
    method: 'GET',
    route: p.route,
    pageId: p.pageId,
    package: p.package,
    render: s.render,
  } as PageRow;
  if (p.cache !== undefined) row.cache = p.cache;
  const params = p.parsed.params;
  if (params.length) {
    row.dynamicParams = params.map((x) => x.name).sort();
    row.routeParams = params.map(routeParam);
  }
  if (s.layouts.length) row.layouts = [...s.layouts];
  if (s.guards.length) row.guards = [...s.guards];
  row.source = p.file;
  row.sourceSpan = sourceSpan(ws, p.file, p.range);
  row.handler = p.handler;
  if (p.load) row.bindingStatus = p.load.status;
  return row;
}

function routeParam(p: RouteParam): RouteParamRecord {
  return { name: p.name, type: p.type || 'string' };
}

export function endpointRow(ws: Workspace, e: EndpointInfo): EndpointRow {
  const row = {
    kind: e.kind,
    endpointSource: e.endpointSource,
    directive: e.directive,
    method: e.method,
    route: e.route,
    ...(e.paths ? { paths: [...e.paths] } : {}),
    pageId: e.pageId,
    package: e.package,
    packagePath: e.packagePath,
    packageName: e.packageName,
    symbol: e.symbol,
    cache: 'no-store',
  } as EndpointRow;
  const params = e.parsed.params;
  if (params.length) {
    row.dynamicParams = params.map((x) => x.name).sort();
    row.routeParams = params.map(routeParam);
  }
  if (e.guards.length) row.guards = [...e.guards];
  if (e.csrf) row.csrf = true;
  row.source = e.file;
  row.sourceSpan = sourceSpan(ws, e.file, e.range);
  row.handler = e.handler;
  if (e.binding) row.bindingStatus = e.binding.status;
  return row;
}

export function backendBindingRecord(b: HandlerBinding): BackendBindingRecord {
  return {
    status: b.status,
    packageName: b.packageName,
    ...opt('importPath', b.importPath),
    functionName: b.functionName,
    ...opt('signature', b.signature),
    ...opt('signatureText', b.signatureText),
    ...opt('inputType', b.inputType),
    ...opt(
      'inputFields',
      b.inputFields?.map((f) => ({ ...f })),
    ),
    ...opt('message', b.message),
  };
}

const CONTRACT_STATUS: Record<HandlerBinding['status'], ContractStatus> = {
  bound: 'bound',
  missing: 'missing',
  unsupported_signature: 'invalid',
};

export function contractRecord(e: EndpointInfo): ContractRecord | undefined {
  const c = e.contract;
  if (!c) return undefined;
  const b = e.binding;
  return {
    name: c.name,
    kind: c.kind,
    status: b ? CONTRACT_STATUS[b.status] : 'unknown',
    ...opt('importAlias', c.alias),
    ...opt('importPath', c.importPath ?? b?.importPath),
    ...opt('type', b?.inputType),
    ...opt('result', b?.resultType),
    handler: e.handler,
    ...opt(
      'message',
      b ? b.message : `package ${c.alias ?? ''} of ${c.name} is not part of this run; its contract cannot be checked`,
    ),
  };
}

/** An endpoint record: the shared endpoint row fields (same values) plus binding and contract detail. */
export function endpointRecord(ws: Workspace, e: EndpointInfo): EndpointRecord {
  const row = endpointRow(ws, e);
  const r = {
    kind: row.kind,
    endpointSource: row.endpointSource,
    directive: row.directive,
    source: row.source,
  } as EndpointRecord;
  if (row.sourceSpan) r.sourceSpan = row.sourceSpan;
  r.package = row.package;
  r.packagePath = row.packagePath;
  r.packageName = row.packageName;
  r.symbol = row.symbol;
  r.method = row.method;
  r.route = row.route;
  if (row.paths) r.paths = row.paths;
  r.cache = row.cache;
  if (row.dynamicParams) r.dynamicParams = row.dynamicParams;
  if (row.routeParams) r.routeParams = row.routeParams;
  if (row.guards) r.guards = row.guards;
  if (row.csrf) r.csrf = row.csrf;
  r.pageId = row.pageId;
  r.handler = row.handler;
  if (row.bindingStatus) r.bindingStatus = row.bindingStatus;
  if (e.binding?.signature) r.signature = e.binding.signature;
  if (e.binding?.inputType) r.inputType = e.binding.inputType;
  if (e.binding) r.backendBinding = backendBindingRecord(e.binding);
  const contract = contractRecord(e);
  if (contract) r.contract = contract;
  return r;
}

/** `kit routes` rows: page rows (by page ID), then endpoint rows (by owner, in declaration order). */
export function routeRows(ws: Workspace, opts: RowOptions = {}): RouteRow[] {
  const m = modelOf(ws, opts);
  return [...m.pages.map((p) => pageRow(ws, p)), ...m.endpoints.map((e) => endpointRow(ws, e))];
}

/** The endpoint rows of `kit routes` only. */
export function endpointRows(ws: Workspace, opts: RowOptions = {}): EndpointRow[] {
  return modelOf(ws, opts).endpoints.map((e) => endpointRow(ws, e));
}

/** `kit endpoints` records, in the order of the endpoint rows. */
export function endpointRecords(ws: Workspace, opts: RowOptions = {}): EndpointRecord[] {
  return modelOf(ws, opts).endpoints.map((e) => endpointRecord(ws, e));
}

/** One `ssr_disabled` note per SPA page row and one `spa_disabled` per SSR row (hybrid rows get none). */
export function routeInfo(ws: Workspace, opts: RowOptions = {}): InfoNote[] {
  const out: InfoNote[] = [];
  for (const p of modelOf(ws, opts).pages) {
    const render = p.summary.render;
    if (render === 'spa') {
      out.push({
        code: 'ssr_disabled',
        pageId: p.pageId,
        route: p.route,
        message: `${p.pageId} uses build-time page output; request-time page rendering is disabled`,
      });
    } else if (render === 'ssr') {
      out.push({
        code: 'spa_disabled',
        pageId: p.pageId,
        route: p.route,
        message: `${p.pageId} uses request-time page behavior; generated SPA/static page output is disabled`,
      });
    }
  }
  return out;
}

export function routeReport(ws: Workspace, opts: RowOptions = {}): RouteReport {
  const model = modelOf(ws, opts);
  return { version: 1, routes: routeRows(ws, { model }), info: routeInfo(ws, { model }) };
}

export function endpointReport(ws: Workspace, opts: RowOptions = {}): EndpointReport {
  return { version: 1, endpoints: endpointRecords(ws, opts) };
}
