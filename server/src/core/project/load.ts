// Loads a workspace from disk for the command line: discovery, reading, indexing.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Workspace, type WorkspaceLoadOptions } from '../model/workspace.js';
import type { CheckOptions } from '../validate/context.js';
import { discoverSources, SourceError } from './discover.js';
import { ReadAhead } from './read-ahead.js';

export interface LoadedProject {
  workspace: Workspace;
  kitFiles: string[];
  modules: string[];
}

function read(path: string, cwd: string, ahead: ReadAhead, index: number): string {
  const early = ahead.take(index);
  if (early !== undefined) return early;
  try {
    return readFileSync(resolve(cwd, path), 'utf8');
  } catch (e) {
    throw new SourceError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/**
 * `load.releaseMarkup` for commands that read no markup after validation (`kit check`, the
 * reports): see `WorkspaceLoadOptions`.
 */
export function loadProject(
  inputs: string[],
  options: CheckOptions,
  cwd: string = process.cwd(),
  load: Pick<WorkspaceLoadOptions, 'releaseMarkup'> = {},
): LoadedProject {
  const { kitFiles, modules } = discoverSources(inputs, cwd);
  const workspace = new Workspace(options, cwd, { incremental: false, ...load });
  // Modules after kit files so that their package names come from `package` declarations.
  const ahead = new ReadAhead([...kitFiles, ...modules].map((f) => resolve(cwd, f)));
  try {
    let i = 0;
    for (const f of kitFiles) workspace.setKitFile(f, read(f, cwd, ahead, i++));
    for (const m of modules) workspace.setModule(m, read(m, cwd, ahead, i++));
  } finally {
    ahead.close();
  }
  workspace.flush();
  return { workspace, kitFiles, modules };
}
