// The graph envelope shared by `kit inspect endpoint-graph` and `asset-graph` (schema version 1):
// `{version, nodes, edges}`, nodes sorted by id, edges by from/to/kind, props without empty values.
import type { SourceSpan } from './types.js';
import { compareText } from './order.js';

export interface GraphNode {
  id: string;
  kind: string;
  name?: string;
  source?: string;
  span?: SourceSpan;
  props?: Record<string, unknown>;
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: string;
}

export interface Graph {
  version: 1;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** IDs are the `:`-joined non-empty parts. */
export function nodeId(...parts: (string | undefined)[]): string {
  return parts.filter((p): p is string => p !== undefined && p !== '').join(':');
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v as object).length === 0;
  return false;
}

/** Props without undefined, empty strings, empty lists and empty maps; booleans and numbers stay. */
export function cleanProps(props: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) if (!isEmpty(v)) out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

export function makeNode(
  id: string,
  kind: string,
  extra: { name?: string; source?: string; span?: SourceSpan; props?: Record<string, unknown> } = {},
): GraphNode {
  const n: GraphNode = { id, kind };
  if (extra.name) n.name = extra.name;
  if (extra.source) n.source = extra.source;
  if (extra.span) n.span = extra.span;
  const props = extra.props ? cleanProps(extra.props) : undefined;
  if (props) n.props = props;
  return n;
}

export function compareEdges(a: GraphEdge, b: GraphEdge): number {
  return compareText(a.from, b.from) || compareText(a.to, b.to) || compareText(a.kind, b.kind);
}

/** Collects nodes (first definition of an id wins) and edges (deduplicated), then sorts them. */
export class GraphBuilder {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly edges = new Map<string, GraphEdge>();

  node(n: GraphNode): string {
    if (!this.nodes.has(n.id)) this.nodes.set(n.id, n);
    return n.id;
  }

  has(id: string): boolean {
    return this.nodes.has(id);
  }

  edge(from: string, to: string, kind: string): void {
    const key = `${from}\u0000${to}\u0000${kind}`;
    if (!this.edges.has(key)) this.edges.set(key, { from, to, kind });
  }

  build(): Graph {
    return {
      version: 1,
      nodes: [...this.nodes.values()].sort((a, b) => compareText(a.id, b.id)),
      edges: [...this.edges.values()].sort(compareEdges),
    };
  }
}
