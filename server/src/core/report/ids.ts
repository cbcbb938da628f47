// Node ID conventions of the inspect outputs, in one place so the
// endpoint graph, the asset graph and the tree name the same things the same way.
import type { FileSummary } from '../model/summary.js';
import { nodeId } from './graph.js';
import type { EndpointInfo, PageInfo } from './model.js';

export function ownerNodeId(s: FileSummary): string {
  return nodeId(s.kind, s.packageName, s.ownerId);
}

export function pageNodeId(p: PageInfo): string {
  return nodeId('page', p.package, p.pageId);
}

export function routeNodeId(p: PageInfo): string {
  return nodeId('route', p.package, p.pageId, 'GET', p.route);
}

export function endpointNodeId(e: EndpointInfo): string {
  return nodeId('endpoint', e.kind, e.pageId, e.symbol, e.method, e.route);
}

export function guardNodeId(name: string): string {
  return nodeId('guard', name);
}

export function handlerNodeId(label: string): string {
  return nodeId('handler', label);
}

/** Contracts are named package-qualified (`notes.Save`), whichever way the view spelled them. */
export function contractName(e: EndpointInfo): string {
  const c = e.contract!;
  const local = c.name.slice(c.name.lastIndexOf('.') + 1);
  return `${c.packageName ?? c.alias ?? e.package}.${local}`;
}

export function contractNodeId(e: EndpointInfo): string {
  return nodeId('contract', contractName(e));
}

export function viewNodeId(s: FileSummary): string {
  return nodeId('view', s.kind, s.packageName, s.ownerId);
}

export function packageNodeId(name: string): string {
  return nodeId('package', name);
}
