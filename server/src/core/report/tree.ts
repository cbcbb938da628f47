// `kit inspect tree --json`: the unified source tree — packages, pages with
// their route, endpoints, contract references and view; components; layouts; comment endpoints —
// with stable IDs, sources, spans and ordered children, plus `renders_component` edges and
// component composition cycles as tree diagnostics.
import type { MarkupNode } from '#grammar/index.js';
import type { Workspace } from '../workspace/workspace.js';
import type { FileSummary } from '../model/summary.js';
import type { KitEntry } from '../model/entries.js';
import { componentKey } from '../resolve/names.js';
import { compareEdges, makeNode, nodeId, type GraphEdge } from './graph.js';
import { endpointNodeId, ownerNodeId, packageNodeId, viewNodeId } from './ids.js';
import { buildReportModel, type EndpointInfo, type PageInfo, type ReportModel } from './model.js';
import { contractRecord, sourceSpan } from './rows.js';
import { endpointProps } from './endpoint-graph.js';
import type { SourceSpan } from './types.js';
import type { GraphNode } from './graph.js';
import { splitAttributes, viewChildren } from './view-walk.js';
import { compareText } from './order.js';

/** A tree node is a graph node with ordered children. */
export interface TreeNode extends GraphNode {
  children?: TreeNode[];
}

export interface TreeDiagnostic {
  code: 'component_composition_cycle';
  message: string;
  /** Component node IDs around the cycle, the first repeated at the end. */
  path: string[];
}

export interface SourceTree {
  version: 1;
  root: TreeNode;
  edges?: GraphEdge[];
  diagnostics?: TreeDiagnostic[];
}

function tnode(
  id: string,
  kind: string,
  extra: { name?: string; source?: string; span?: SourceSpan; props?: Record<string, unknown>; children?: TreeNode[] },
): TreeNode {
  const n: TreeNode = makeNode(id, kind, extra);
  if (extra.children?.length) n.children = extra.children;
  return n;
}

class TreeBuilder {
  readonly edges: GraphEdge[] = [];
  private readonly components = new Map<string, KitEntry>();

  constructor(
    private readonly ws: Workspace,
    private readonly model: ReportModel,
  ) {
    for (const e of ws.allKit()) {
      if (e.summary.kind !== 'component') continue;
      const key = `${e.summary.packageName}.${e.summary.ownerId}`;
      if (!this.components.has(key)) this.components.set(key, e);
    }
  }

  private markup(s: FileSummary, source: string, nodes: MarkupNode[], parent: string): TreeNode[] {
    return viewChildren(nodes, source).map((c, i) => {
      const id = `${parent}:${i}`;
      if (c.kind === 'text')
        return tnode(id, 'text', { name: c.text, source: s.path, span: sourceSpan(this.ws, s.path, c.range) });
      const { attributes, directives } = splitAttributes(c.el, source);
      const props: Record<string, unknown> = { attributes, directives };
      if (c.kind === 'component-call') {
        const key = componentKey(s, c.el);
        const target = key ? this.components.get(key) : undefined;
        if (target) {
          const tid = ownerNodeId(target.summary);
          Object.assign(props, {
            targetId: tid,
            targetPackage: target.summary.packageName,
            targetName: target.summary.ownerId,
            targetSource: target.path,
          });
          this.edges.push({ from: id, to: tid, kind: 'renders_component' });
        }
      }
      return tnode(id, c.kind, {
        name: c.el.name,
        source: s.path,
        span: sourceSpan(this.ws, s.path, c.el.range),
        props,
        children: this.markup(s, source, c.el.children, id),
      });
    });
  }

  private view(e: KitEntry): TreeNode | undefined {
    const s = e.summary;
    if (!s.view) return undefined;
    const id = viewNodeId(s);
    return tnode(id, 'view', {
      name: s.ownerId,
      source: s.path,
      span: sourceSpan(this.ws, s.path, s.view.range),
      props: { ownerKind: s.kind, ownerId: s.ownerId },
      children: this.markup(s, e.text, s.view.body, id),
    });
  }

  private endpoint(e: EndpointInfo): TreeNode {
    return tnode(endpointNodeId(e), 'endpoint', {
      name: e.symbol,
      source: e.file,
      span: sourceSpan(this.ws, e.file, e.range),
      props: endpointProps(this.ws, e),
    });
  }

  private contractRef(e: EndpointInfo): TreeNode {
    const s = e.page!.summary;
    const c = contractRecord(e)!;
    return tnode(nodeId('contract-ref', s.kind, s.ownerId, c.kind, c.name, e.method, e.route), 'contract-reference', {
      name: c.name,
      source: e.file,
      span: sourceSpan(this.ws, e.file, e.range),
      props: {
        kind: c.kind,
        method: e.method,
        route: e.route,
        status: c.status,
        type: c.type,
        result: c.result,
        roles: c.roles,
        guards: e.guards,
      },
    });
  }

  page(e: KitEntry, info: PageInfo | undefined, endpoints: EndpointInfo[]): TreeNode {
    const s = e.summary;
    const children: TreeNode[] = [];
    if (info) {
      children.push(
        tnode(nodeId('route', s.packageName, s.ownerId, info.route), 'route', {
          name: info.route,
          source: s.path,
          span: sourceSpan(this.ws, s.path, info.range),
          props: { method: 'GET', params: info.parsed.params.map((p) => ({ name: p.name, type: p.type })) },
        }),
      );
    }
    for (const ep of endpoints) children.push(ep.contract ? this.contractRef(ep) : this.endpoint(ep));
    const view = this.view(e);
    if (view) children.push(view);
    return tnode(ownerNodeId(s), 'page', {
      name: s.ownerId,
      source: s.path,
      span: sourceSpan(
        this.ws,
        s.path,
        s.pageIdDecl?.range ??
          s.route?.decl.range ??
          e.ast.declarations[0]?.range ?? {
            start: { offset: 0, line: 0, column: 0 },
            end: { offset: 0, line: 0, column: 0 },
          },
      ),
      props: {
        package: s.packageName,
        route: info?.route,
        render: s.renderDecl ? s.render : undefined,
        cache: info?.cache,
        layouts: s.layouts,
        guards: s.guards,
      },
      children,
    });
  }

  owner(e: KitEntry): TreeNode {
    const s = e.summary;
    const view = this.view(e);
    const decl = s.component?.range ?? e.ast.declarations[0]?.range;
    const props =
      s.kind === 'component'
        ? {
            package: s.packageName,
            props: (s.props?.props ?? []).map((p) => p.name.text),
            uses: [...s.uses.values()].map((u) => `${u.alias.text} ${u.pkg.value}`).sort(),
          }
        : { package: s.packageName, layouts: s.layouts };
    return tnode(ownerNodeId(s), s.kind, {
      name: s.ownerId,
      source: s.path,
      span: decl ? sourceSpan(this.ws, s.path, decl) : undefined,
      props,
      children: view ? [view] : [],
    });
  }

  build(): SourceTree {
    const byPackage = new Map<
      string,
      { dirs: Set<string>; pages: TreeNode[]; components: TreeNode[]; layouts: TreeNode[]; endpoints: TreeNode[] }
    >();
    const pkg = (name: string) => {
      let p = byPackage.get(name);
      if (!p) byPackage.set(name, (p = { dirs: new Set(), pages: [], components: [], layouts: [], endpoints: [] }));
      return p;
    };
    const pageInfo = new Map(this.model.pages.map((p) => [p.file, p]));
    const pageEndpoints = new Map<string, EndpointInfo[]>();
    for (const ep of this.model.endpoints) {
      if (ep.page) pageEndpoints.set(ep.page.file, [...(pageEndpoints.get(ep.page.file) ?? []), ep]);
      else {
        const p = pkg(ep.package);
        p.dirs.add(ep.packagePath);
        p.endpoints.push(this.endpoint(ep));
      }
    }
    for (const e of this.ws.allKit()) {
      const s = e.summary;
      const p = pkg(s.packageName);
      p.dirs.add(s.dir);
      if (s.kind === 'page') p.pages.push(this.page(e, pageInfo.get(e.path), pageEndpoints.get(e.path) ?? []));
      else if (s.kind === 'component') p.components.push(this.owner(e));
      else p.layouts.push(this.owner(e));
    }
    const byName = (a: TreeNode, b: TreeNode) =>
      compareText(a.name ?? '', b.name ?? '') || compareText(a.source ?? '', b.source ?? '') || compareText(a.id, b.id);
    const packages = [...byPackage.entries()]
      .sort(([a], [b]) => compareText(a, b))
      .map(([name, p]) =>
        tnode(packageNodeId(name), 'package', {
          name,
          props: { sourceDirs: [...p.dirs].sort() },
          children: [...p.pages.sort(byName), ...p.components.sort(byName), ...p.layouts.sort(byName), ...p.endpoints],
        }),
      );
    const tree: SourceTree = {
      version: 1,
      root: tnode('program', 'program', { name: 'kit program', children: packages }),
    };
    if (this.edges.length) tree.edges = [...this.edges].sort(compareEdges);
    const diagnostics = compositionCycles(this.ws);
    if (diagnostics.length) tree.diagnostics = diagnostics;
    return tree;
  }
}

const CYCLE_MESSAGE = /^component composition cycle: (.+)$/;

/** The workspace's `component_composition_cycle` diagnostics, with their cycles as component node IDs. */
function compositionCycles(ws: Workspace): TreeDiagnostic[] {
  const out: TreeDiagnostic[] = [];
  for (const d of ws.allDiagnostics()) {
    if (d.code !== 'component_composition_cycle') continue;
    const m = CYCLE_MESSAGE.exec(d.message);
    const path = m
      ? m[1]
          .split(' -> ')
          .map((k) => nodeId('component', k.slice(0, k.lastIndexOf('.')), k.slice(k.lastIndexOf('.') + 1)))
      : [];
    out.push({ code: 'component_composition_cycle', message: d.message, path });
  }
  return out;
}

export function sourceTree(ws: Workspace, model: ReportModel = buildReportModel(ws)): SourceTree {
  return new TreeBuilder(ws, model).build();
}
