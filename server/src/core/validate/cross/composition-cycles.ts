// Cycles of composition across files: components that call each other round (`cgraph`) and layouts
// that nest in each other (`lgraph`, a layout naming itself included). Each family is one bucket
// holding every component (layout), walked as a graph.
import type { Range } from '#grammar/index.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diag } from '../../diagnostics/registry.js';
import type { KitEntry, WorkspaceView } from '../../model/entries.js';
import { componentKey, layoutKey } from '../../resolve/names.js';
import type { CrossRule } from './rule.js';

interface GraphNode {
  entry: KitEntry;
  edges: { to: string; range: Range }[];
}

/**
 * Reports each elementary cycle once, at the edge leaving its smallest member. The depth-first walk
 * keeps its own stack: a chain of thousands of components or layouts must not exhaust the call stack.
 */
function cycles(
  nodes: Map<string, GraphNode>,
  report: (path: string[], node: GraphNode, edgeIndex: number) => void,
): void {
  const state = new Map<string, 0 | 1 | 2>();
  const stack: string[] = [];
  /** Per node on `stack`: the index of its next edge to follow. */
  const next: number[] = [];
  const seen = new Set<string>();
  const enter = (id: string) => {
    state.set(id, 1);
    stack.push(id);
    next.push(0);
  };
  for (const root of [...nodes.keys()].sort()) {
    if ((state.get(root) ?? 0) !== 0) continue;
    enter(root);
    while (stack.length) {
      const top = stack.length - 1;
      const node = nodes.get(stack[top])!;
      if (next[top] === node.edges.length) {
        state.set(stack.pop()!, 2);
        next.pop();
        continue;
      }
      const e = node.edges[next[top]++];
      if (!nodes.has(e.to)) continue;
      const st = state.get(e.to) ?? 0;
      if (st === 0) {
        enter(e.to);
        continue;
      }
      if (st !== 1) continue;
      const cyc = stack.slice(stack.indexOf(e.to));
      const min = [...cyc].sort()[0];
      const rotated = [...cyc.slice(cyc.indexOf(min)), ...cyc.slice(0, cyc.indexOf(min))];
      const sig = rotated.join('>');
      if (seen.has(sig)) continue;
      seen.add(sig);
      const at = nodes.get(min)!;
      const to = rotated[1] ?? min;
      const idx = at.edges.findIndex((x) => x.to === to);
      report([...rotated, min], at, Math.max(0, idx));
    }
  }
}

/** Bucket `cgraph`: component composition cycles across all component files. */
export function componentCycles(view: WorkspaceView): Diagnostic[] {
  const nodes = new Map<string, GraphNode>();
  for (const e of view.allKit()) {
    if (e.summary.kind !== 'component') continue;
    const id = `${e.summary.packageName}.${e.summary.ownerId}`;
    if (nodes.has(id)) continue;
    const edges = e.summary.componentCalls
      .map((c) => ({ to: componentKey(e.summary, c) ?? '', range: c.range }))
      .filter((x) => x.to);
    nodes.set(id, { entry: e, edges });
  }
  const out: Diagnostic[] = [];
  cycles(nodes, (path, node, i) => {
    out.push(
      diag(
        'component_composition_cycle',
        node.entry.path,
        node.edges[i]?.range ?? node.entry.summary.component?.range ?? node.entry.ast.declarations[0].range,
        `component composition cycle: ${path.join(' -> ')}`,
      ),
    );
  });
  return out;
}

/** Bucket `lgraph`: layouts nesting in a cycle (and a layout naming itself). */
export function layoutCycles(view: WorkspaceView): Diagnostic[] {
  const nodes = new Map<string, GraphNode>();
  const out: Diagnostic[] = [];
  for (const e of view.allKit()) {
    if (e.summary.kind !== 'layout') continue;
    const id = `${e.summary.packageName}.${e.summary.ownerId}`;
    if (nodes.has(id)) continue;
    const edges: GraphNode['edges'] = [];
    for (const w of e.summary.layoutDecl?.layouts ?? []) {
      const to = layoutKey(e.summary, w.text);
      if (!to) continue;
      if (to === id) {
        out.push(
          diag(
            'layout_self_reference',
            e.path,
            w.range,
            `layout ${e.summary.ownerId} names itself as its parent layout`,
          ),
        );
        continue;
      }
      edges.push({ to, range: w.range });
    }
    nodes.set(id, { entry: e, edges });
  }
  cycles(nodes, (path, node, i) => {
    out.push(
      diag(
        'cyclic_layout_reference',
        node.entry.path,
        node.edges[i]?.range ?? node.entry.ast.declarations[0].range,
        `cyclic layout reference: ${path.join(' -> ')}`,
      ),
    );
  });
  return out;
}

/** `component_composition_cycle`: one bucket holding every component. */
export const componentCycleRule: CrossRule = {
  family: 'cgraph',
  kitKeys: (e) => (e.summary.kind === 'component' ? ['cgraph'] : []),
  evaluate: (ctx) => componentCycles(ctx),
};

/** `layout_cycle`, `layout_self_reference`: one bucket holding every layout. */
export const layoutCycleRule: CrossRule = {
  family: 'lgraph',
  kitKeys: (e) => (e.summary.kind === 'layout' ? ['lgraph'] : []),
  evaluate: (ctx) => layoutCycles(ctx),
};
