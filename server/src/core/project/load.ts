// Loads a workspace from disk for the command line: discovery, reading, indexing.
import { resolve } from 'node:path';
import { Workspace, type WorkspaceLoadOptions } from '../workspace/workspace.js';
import type { CheckOptions } from '../model/options.js';
import { discoverSources, type DiscoveredSources } from './discover.js';
import { diskFiles } from './disk-files.js';
import { ReadAhead } from './read-ahead.js';
import { readSourceFile, type SourceText } from './read-source.js';

export interface LoadedProject {
  workspace: Workspace;
  kitFiles: string[];
  modules: string[];
}

const CLEAN: SourceText['diagnostics'] = [];

function read(path: string, cwd: string, ahead: ReadAhead, index: number): SourceText {
  const early = ahead.take(index);
  if (early !== undefined) return { text: early, diagnostics: CLEAN };
  return readSourceFile(resolve(cwd, path), path);
}

/**
 * `load.releaseMarkup` for commands that read no markup after validation (`kit check`, the
 * reports): see `WorkspaceLoadOptions`. `load.sources`: what discovery of `inputs` already found.
 */
export function loadProject(
  inputs: string[],
  options: CheckOptions,
  cwd: string = process.cwd(),
  load: Pick<WorkspaceLoadOptions, 'releaseMarkup'> & { sources?: DiscoveredSources } = {},
): LoadedProject {
  const { kitFiles, modules } = load.sources ?? discoverSources(inputs, cwd);
  const workspace = new Workspace({ files: diskFiles(cwd), ...options }, cwd, {
    incremental: false,
    releaseMarkup: load.releaseMarkup,
  });
  // Modules after kit files so that their package names come from `package` declarations.
  const ahead = new ReadAhead([...kitFiles, ...modules].map((f) => resolve(cwd, f)));
  try {
    let i = 0;
    for (const f of kitFiles) {
      const { text, diagnostics } = read(f, cwd, ahead, i++);
      workspace.setKitFile(f, text, undefined, diagnostics);
    }
    for (const m of modules) {
      const { text, diagnostics } = read(m, cwd, ahead, i++);
      workspace.setModule(m, text, diagnostics);
    }
  } finally {
    ahead.close();
  }
  workspace.flush();
  return { workspace, kitFiles, modules };
}
