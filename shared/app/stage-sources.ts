// Where the stage spans of a route's requests point (`stage-spans.ts`): span source options built
// once per route at start-up from the route table's source references.
import { type SpanOption, withSource } from '../trace/index.js';
import type { EndpointEntry, PageEntry, SourceRef } from './manifest.js';

/** Where a route's stage spans point: prepared once per route at start-up. */
export interface StageSources {
  /** The route (pages) or the endpoint declaration. */
  decl?: SpanOption;
  guard?: SpanOption;
  /** The handler (endpoints) or `Load<PageID>` (pages) in its `.ts` module. */
  handler?: SpanOption;
}

function option(ref: SourceRef | undefined, ownerKind: string, ownerId: string): SpanOption | undefined {
  return ref === undefined ? undefined : withSource({ ...ref, ownerKind, ownerId });
}

export function pageSources(p: PageEntry): StageSources {
  return {
    decl: option(p.source, 'page', p.pageId),
    guard: option(p.guardSource, 'page', p.pageId),
    handler: option(p.load?.source, 'load', p.load?.export ?? ''),
  };
}

export function endpointSources(e: EndpointEntry): StageSources {
  const id = `${e.pageId}.${e.symbol}`;
  return {
    decl: option(e.source, e.kind, id),
    guard: option(e.guardSource, e.kind, id),
    handler: option(e.handler.source, e.kind, e.handler.export),
  };
}
