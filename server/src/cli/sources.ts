// Source text lookup over a loaded workspace, for position conversion in reports.
import type { Workspace } from '#core/workspace/workspace.js';
import type { SourceLookup } from '#core/model/report-positions.js';

export function sourceLookup(ws: Workspace): SourceLookup {
  return (file) => ws.kit(file)?.text ?? ws.module(file)?.text;
}
