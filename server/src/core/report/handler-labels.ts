// Planned handler labels of the reports' `handler` field: stable names of the
// generated adapters, built with `exportedRouteName` so that every separator starts a new word.
import { exportedRouteName } from '../model/names.js';
import type { RenderMode } from '../model/summary.js';
import type { EndpointKind } from './types.js';

export function pageHandlerLabel(pageId: string, render: RenderMode): string {
  if (render === 'ssr') return `ssr.Render${exportedRouteName(pageId)}`;
  if (render === 'hybrid') return `hybrid.Render${exportedRouteName(pageId)}`;
  return `embedded.SPA(${JSON.stringify(`pages/${pageId.split('.').join('/')}.html`)})`;
}

const PREFIX: Record<'action' | 'api' | 'fragment', string> = { action: 'actions', api: 'api', fragment: 'fragments' };

/** `owner` is the page ID for `.kit` endpoints and the package name for comment endpoints. */
export function endpointHandlerLabel(
  kind: EndpointKind,
  owner: string,
  symbol: string,
  contractPackage?: string,
): string {
  if (kind === 'command' || kind === 'query') return `contracts.${kind}.${contractPackage ?? owner}.${symbol}`;
  return `${PREFIX[kind]}.${exportedRouteName(owner)}${symbol}`;
}
