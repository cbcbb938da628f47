// What the main thread and the loading threads of `parse-pool.ts` share: the slots of their state
// (an Int32Array over a SharedArrayBuffer) and the result for one file.
import type { KitFile } from '#grammar/index.js';
import { fileRegistrations } from '../model/registrations.js';
import { parsedRoute } from '../model/route-cache.js';
import { compactSummary } from '../model/summary.js';
import type { KitAnalysis } from '../workspace/analyse-kit.js';
import { dropCallValues } from '../model/markup-release.js';

/** The next batch to claim (every thread claims with `Atomics.add`). */
export const NEXT = 0;
/** Bumped, and notified, when a loading thread posts a batch or ends. */
export const DONE = 1;
/** Non-zero: loading threads claim no more batches. */
export const STOP = 2;
/** Files a loading thread has finished: the main thread waits while this moves. */
export const progressSlot = (id: number): number => 3 + 2 * id;
/** Non-zero once a loading thread has ended. */
export const deadSlot = (id: number): number => 4 + 2 * id;
export const stateSlots = (threads: number): number => 3 + 2 * threads;

/** A file as the pool hands it over: its views' and fragments' markup left out (`dropMarkup`). */
export interface PooledKit {
  text: string;
  analysis: KitAnalysis;
}

/**
 * Empties the markup of `file`'s views and fragments, once analysed, as a workspace that releases
 * markup would (`markup-release.ts`): it is re-parsed from the text if anything reads it
 * (`Workspace.setAnalysedKitFile`). What the summary holds of it (component calls, `<slot>`
 * elements) stays, as a released body leaves it (`dropCallValues`).
 */
export function dropMarkup(file: KitFile): void {
  for (const d of file.declarations)
    if (d.kind === 'view' || d.kind === 'fragment') {
      dropCallValues(d.body);
      d.body = [];
    }
}

/**
 * What a loading thread leaves out of an analysis it sends: the registrations and the summary's
 * parsed route, which the main thread makes again (`unpackAnalysis`). A parsed route is shared by
 * every file with its pattern (`route-cache.ts`), and the route rules loop over registrations and
 * routes: over copies made by structured cloning those loops measured twice as slow, while making
 * them again costs little.
 */
export function packAnalysis(a: KitAnalysis): KitAnalysis {
  const route = a.summary.route;
  // The pattern is kept in the declaration; `unpackAnalysis` parses it (once per pattern) again.
  if (route) a.summary.route = { decl: route.decl, parsed: undefined as never };
  return { ast: a.ast, summary: a.summary, registrations: [], local: a.local };
}

/** The analysis `packAnalysis` sent, made whole on the main thread. */
export function unpackAnalysis(a: KitAnalysis): KitAnalysis {
  const route = a.summary.route;
  if (route) route.parsed = parsedRoute(route.decl.path.value);
  compactSummary(a.summary);
  a.registrations = fileRegistrations(a.summary);
  return a;
}
