// What every IDE feature receives: the workspace model that owns the document and a way to name
// files to the client. Features are plain functions over this context, so tests call them directly.
import type { Workspace } from '../../core/workspace/workspace.js';
import { buildReportModel, type ReportModel } from '../../core/report/rows.js';
import type { UriOf } from '../convert.js';

export interface FeatureContext {
  ws: Workspace;
  uriOf: UriOf;
  /** The report model of `ws` (pages, endpoints, bindings), cached until the workspace changes. */
  reportModel(): ReportModel;
}

/** A context over a workspace; `generation` tells the report model cache when the workspace changed. */
export function featureContext(ws: Workspace, uriOf: UriOf, generation: () => number = () => 0): FeatureContext {
  let cached: { gen: number; model: ReportModel } | undefined;
  return {
    ws,
    uriOf,
    reportModel() {
      const gen = generation();
      if (!cached || cached.gen !== gen) cached = { gen, model: buildReportModel(ws) };
      return cached.model;
    },
  };
}
