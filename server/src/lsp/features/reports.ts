// The answers of two of kit's own requests (`shared/protocol`): `kit/routes` (the routes report of
// each workspace folder) and `kit/tree` (the source tree of `kit inspect tree`), both projections of
// the report model.
import { routeInfo, routeRows } from '#core/report/rows.js';
import { sourceTree } from '#core/report/tree.js';
import type { FeatureContext } from './context.js';
import type { RoutesAnswer, TreeAnswer } from '#shared/protocol/protocol.js';

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
