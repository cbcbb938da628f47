// `kit inspect asset-graph --json`: which owner (page, component, layout) introduced which CSS,
// JavaScript, file asset or WASM declaration.
import type { Declaration } from '#grammar/index.js';
import type { Workspace } from '../workspace/workspace.js';
import type { FileSummary } from '../model/summary.js';
import { GraphBuilder, makeNode, nodeId, type Graph } from './graph.js';
import { ownerNodeId, packageNodeId } from './ids.js';
import { sourceSpan } from './rows.js';

interface AssetDecl {
  kind: 'css' | 'js' | 'asset' | 'wasm';
  path: string;
  name: string;
  inline: boolean;
  decl: Declaration;
  /** Where the span points when not the whole declaration (the `style` keyword of a block). */
  at?: import('#grammar/index.js').Range;
}

function fileName(p: string): string {
  const i = p.lastIndexOf('/');
  return i >= 0 ? p.slice(i + 1) : p;
}

function assetsOf(s: FileSummary): AssetDecl[] {
  const out: AssetDecl[] = [];
  for (const d of s.declarations) {
    switch (d.kind) {
      case 'css':
        if (d.file) out.push({ kind: 'css', path: d.file.value, name: fileName(d.file.value), inline: false, decl: d });
        for (const n of d.names) out.push({ kind: 'css', path: '', name: n.text, inline: false, decl: d });
        break;
      case 'style':
        out.push({ kind: 'css', path: '', name: 'style', inline: true, decl: d, at: d.keyword });
        break;
      case 'js':
        out.push({ kind: 'js', path: d.file.value, name: fileName(d.file.value), inline: false, decl: d });
        break;
      case 'asset':
        out.push({ kind: 'asset', path: d.file.value, name: fileName(d.file.value), inline: false, decl: d });
        break;
      case 'wasm': {
        const target = 'value' in d.target ? d.target.value : d.target.text;
        out.push({ kind: 'wasm', path: target, name: fileName(target), inline: false, decl: d });
        break;
      }
      default:
        break;
    }
  }
  return out;
}

export function assetGraph(ws: Workspace): Graph {
  const g = new GraphBuilder();
  for (const k of ws.allKit()) {
    const s = k.summary;
    const owner = g.node(
      makeNode(ownerNodeId(s), s.kind, { name: s.ownerId, source: s.path, props: { package: s.packageName } }),
    );
    if (s.view) {
      const tid = g.node(
        makeNode(nodeId('template', s.kind, s.packageName, s.ownerId), 'template', {
          name: s.ownerId,
          source: s.path,
          span: sourceSpan(ws, s.path, s.view.keyword),
          props: { ownerKind: s.kind, package: s.packageName, route: s.route?.decl.path.value, guards: s.guards },
        }),
      );
      g.edge(owner, tid, 'has_template');
    }
    for (const a of assetsOf(s)) {
      const aid = g.node(
        makeNode(nodeId('asset', s.kind, s.packageName, s.ownerId, a.kind, a.path, a.name), 'asset', {
          name: a.name,
          source: s.path,
          span: sourceSpan(ws, s.path, a.at ?? a.decl.range),
          props: {
            kind: a.kind,
            package: s.packageName,
            ownerId: s.ownerId,
            ownerKind: s.kind,
            path: a.path,
            name: a.name,
            inline: a.inline,
          },
        }),
      );
      g.edge(owner, aid, 'declares_asset');
      g.edge(aid, g.node(makeNode(packageNodeId(s.packageName), 'package', { name: s.packageName })), 'uses_package');
    }
  }
  return g.build();
}
