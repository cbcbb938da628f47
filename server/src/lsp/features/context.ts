// What every IDE feature receives: the workspace model that owns the document and a way to name
// files to the client. Features are plain functions over this context, so tests call them directly.
import type { Workspace } from '#core/workspace/workspace.js';
import { buildReportModel, type ReportModel } from '#core/report/rows.js';
import type { UriOf } from '../convert.js';

export interface FeatureContext {
  ws: Workspace;
  uriOf: UriOf;
  /** The report model of `ws` (pages, endpoints, bindings), cached until the workspace changes. */
  reportModel(): ReportModel;
}

/** A context over a workspace; the report model is cached under the workspace's revision. */
export function featureContext(ws: Workspace, uriOf: UriOf): FeatureContext {
  let cached: { revision: number; model: ReportModel } | undefined;
  return {
    ws,
    uriOf,
    reportModel() {
      if (!cached || cached.revision !== ws.revision) {
        const model = buildReportModel(ws);
        // Building may flush (binding results), which moves the revision: keyed on the one after.
        cached = { revision: ws.revision, model };
      }
      return cached.model;
    },
  };
}
