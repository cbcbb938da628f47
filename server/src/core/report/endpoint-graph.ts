// `kit inspect endpoint-graph --json`: pages, routes, endpoints, handlers, guards, contracts and
// the view elements that dispatch to endpoints.
import type { Element } from '#grammar/index.js';
import type { Workspace } from '../workspace/workspace.js';
import type { FileSummary } from '../model/summary.js';
import { GraphBuilder, makeNode, type Graph } from './graph.js';
import {
  contractName,
  contractNodeId,
  endpointNodeId,
  guardNodeId,
  handlerNodeId,
  pageNodeId,
  routeNodeId,
  viewNodeId,
} from './ids.js';
import { buildReportModel, type EndpointInfo, type ReportModel } from './model.js';
import { contractRecord, endpointRow, sourceSpan } from './rows.js';
import { splitAttributes, viewChildren } from './view-walk.js';

/** Endpoint props shared by the graph and the tree. */
export function endpointProps(ws: Workspace, e: EndpointInfo): Record<string, unknown> {
  const row = endpointRow(ws, e);
  return {
    kind: row.kind,
    endpointSource: row.endpointSource,
    package: row.package,
    method: row.method,
    route: row.route,
    cache: row.cache,
    dynamicParams: row.dynamicParams,
    routeParams: row.routeParams,
    guards: row.guards,
    csrf: row.csrf ?? false,
    bindingStatus: row.bindingStatus,
    signature: e.binding?.signature,
    inputType: e.binding?.inputType,
  };
}

function structural(
  ws: Workspace,
  g: GraphBuilder,
  s: FileSummary,
  source: string,
  dispatch: Map<string, string[]>,
): void {
  if (!s.view) return;
  const visit = (el: Element, id: string) => {
    const { attributes, directives, events } = splitAttributes(el, source);
    const action = el.attrs.find((a) => a.name === 'g:post');
    const actionName =
      action?.value?.type === 'expr' && action.value.expr.type === 'path'
        ? action.value.expr.path.join('.')
        : typeof directives['g:post'] === 'string'
          ? (directives['g:post'] as string)
          : undefined;
    const command = s.contractRefs.find((c) => c.element === el && c.kind === 'command')?.name;
    const query = s.contractRefs.find((c) => c.element === el && c.kind === 'query')?.name;
    if (action === undefined && command === undefined && query === undefined && events.length === 0) return;
    g.node(
      makeNode(id, 'structural', {
        name: el.name,
        source: s.path,
        span: sourceSpan(ws, s.path, el.openRange),
        props: {
          ownerKind: s.kind,
          ownerId: s.ownerId,
          package: s.packageName,
          attributes,
          directives: Object.keys(directives).sort(),
          events,
          action: actionName,
          command,
          query,
        },
      }),
    );
    const targets = [
      ...(actionName ? (dispatch.get(`action ${actionName}`) ?? []) : []),
      ...(command ? (dispatch.get(`command ${command}`) ?? []) : []),
      ...(query ? (dispatch.get(`query ${query}`) ?? []) : []),
    ];
    for (const t of targets) g.edge(id, t, 'dispatches');
  };
  const walk = (nodes: import('#grammar/index.js').MarkupNode[], parent: string) => {
    viewChildren(nodes, source).forEach((c, i) => {
      if (c.kind === 'text') return;
      const id = `${parent}:${i}`;
      visit(c.el, id);
      walk(c.el.children, id);
    });
  };
  walk(s.view.body, viewNodeId(s));
}

export function endpointGraph(ws: Workspace, model: ReportModel = buildReportModel(ws)): Graph {
  const g = new GraphBuilder();
  const byPage = new Map<string, EndpointInfo[]>();
  for (const p of model.pages) {
    const s = p.summary;
    const pid = g.node(
      makeNode(pageNodeId(p), 'page', {
        name: p.pageId,
        source: p.file,
        span: sourceSpan(ws, p.file, s.pageIdDecl?.range ?? p.range),
        props: { package: p.package, render: s.render, guards: s.guards },
      }),
    );
    const rid = g.node(
      makeNode(routeNodeId(p), 'route', {
        name: p.route,
        source: p.file,
        span: sourceSpan(ws, p.file, p.range),
        props: {
          method: 'GET',
          kind: s.render,
          cache: p.cache,
          dynamicParams: p.parsed.params.map((x) => x.name).sort(),
        },
      }),
    );
    g.edge(pid, rid, 'declares');
    for (const guard of s.guards)
      g.edge(pid, g.node(makeNode(guardNodeId(guard), 'guard', { name: guard })), 'uses_guard');
  }
  for (const e of model.endpoints) {
    const eid = g.node(
      makeNode(endpointNodeId(e), 'endpoint', {
        name: e.symbol,
        source: e.file,
        span: sourceSpan(ws, e.file, e.range),
        props: endpointProps(ws, e),
      }),
    );
    if (e.page) {
      g.edge(pageNodeId(e.page), eid, 'owns_endpoint');
      const list = byPage.get(e.page.file) ?? [];
      list.push(e);
      byPage.set(e.page.file, list);
    }
    for (const guard of e.guards)
      g.edge(eid, g.node(makeNode(guardNodeId(guard), 'guard', { name: guard })), 'uses_guard');
    const b = e.binding;
    const hid = g.node(
      makeNode(handlerNodeId(e.handler), 'handler', {
        name: e.handler,
        props: {
          bindingStatus: b?.status,
          packageName: b?.packageName ?? e.packageName,
          importPath: b?.importPath,
          functionName: b?.functionName ?? e.symbol,
        },
      }),
    );
    g.edge(eid, hid, 'handled_by');
    if (e.contract) {
      const c = contractRecord(e)!;
      const cid = g.node(
        makeNode(contractNodeId(e), 'contract', {
          name: contractName(e),
          props: {
            kind: c.kind,
            status: c.status,
            type: c.type,
            result: c.result,
            roles: c.roles,
            handler: c.handler,
            register: c.register,
          },
        }),
      );
      g.edge(eid, cid, 'references_contract');
    }
  }
  for (const k of ws.allKit()) {
    const eps = byPage.get(k.path) ?? [];
    const dispatch = new Map<string, string[]>();
    for (const e of eps) {
      const key = `${e.kind} ${e.symbol}`;
      dispatch.set(key, [...(dispatch.get(key) ?? []), endpointNodeId(e)]);
    }
    structural(ws, g, k.summary, k.text, dispatch);
  }
  return g.build();
}
