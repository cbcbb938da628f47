// The extension's custom requests: `kit/routes` (the routes report of each workspace folder) and
// `kit/tree` (the source tree of `kit inspect tree`), both projections of the report model.
import { routeInfo, routeRows, type InfoNote, type RouteRow } from '../../core/report/rows.js';
import { sourceTree, type SourceTree } from '../../core/report/tree.js';
import type { FeatureContext } from './context.js';

export interface FolderReport<T> {
  /** Folder URI; `""` for files outside every workspace folder. */
  root: string;
  name: string;
  report: T;
}

export interface RoutesAnswer {
  version: 1;
  workspaces: { root: string; name: string; routes: RouteRow[]; info: InfoNote[] }[];
}

export interface TreeAnswer {
  version: 1;
  workspaces: FolderReport<SourceTree>[];
}

export interface NamedContext {
  root: string;
  name: string;
  ctx: FeatureContext;
}

export function routesReport(folders: NamedContext[]): RoutesAnswer {
  return {
    version: 1,
    workspaces: folders.map(({ root, name, ctx }) => {
      const model = ctx.reportModel();
      return { root, name, routes: routeRows(ctx.ws, { model }), info: routeInfo(ctx.ws, { model }) };
    }),
  };
}

export function treeReport(folders: NamedContext[]): TreeAnswer {
  return {
    version: 1,
    workspaces: folders.map(({ root, name, ctx }) => ({ root, name, report: sourceTree(ctx.ws, ctx.reportModel()) })),
  };
}
