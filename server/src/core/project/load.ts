// Loads a workspace from disk for the command line: discovery, reading, indexing.
import { resolve } from 'node:path';
import { Workspace, type WorkspaceLoadOptions } from '../workspace/workspace.js';
import type { CheckOptions } from '../model/options.js';
import { discoverSources } from './discover.js';
import { diskFiles } from './disk-files.js';
import { analyseInPool, poolSettings, type PoolSettings } from './parse-pool.js';
import { ReadAhead } from './read-ahead.js';
import { readSourceFile, type SourceText } from './read-source.js';

export interface LoadedProject {
  workspace: Workspace;
  kitFiles: string[];
  modules: string[];
}

const CLEAN: SourceText['diagnostics'] = [];

function read(path: string, cwd: string, ahead: ReadAhead | undefined, index: number): SourceText {
  const early = ahead?.take(index);
  if (early !== undefined) return { text: early, diagnostics: CLEAN };
  return readSourceFile(resolve(cwd, path), path);
}

/**
 * Loads the `.kit` files on several threads (`parse-pool.ts`); answers false, having loaded none,
 * when one thread should: too few files, no loading thread, or a load that keeps markup (a build
 * renders every view, so a loading thread's tree would be parsed again here for its markup).
 */
function loadKitInPool(workspace: Workspace, kitFiles: string[], cwd: string, pool: PoolSettings): boolean {
  if (pool.threads < 2 || kitFiles.length < pool.minFiles || !workspace.releasesMarkup) return false;
  const files = kitFiles.map((path) => ({ path, abs: resolve(cwd, path) }));
  const received = analyseInPool({ files, options: workspace.options, cwd }, pool.threads, (i, pooled) => {
    const path = kitFiles[i];
    if (pooled) workspace.setAnalysedKitFile(path, pooled.text, pooled.analysis);
    else {
      // Unreadable, or not clean UTF-8: read here, in order, so that it is reported as always.
      const { text, diagnostics } = read(path, cwd, undefined, i);
      workspace.setKitFile(path, text, undefined, diagnostics);
    }
  });
  return received !== undefined;
}

/**
 * `load.releaseMarkup` for commands that read no markup after validation (`kit check`, the
 * reports): see `WorkspaceLoadOptions`. `pool`: how many threads may parse, from how many files
 * (`KIT_WORKERS`, `KIT_WORKERS_MIN_FILES`).
 */
export function loadProject(
  inputs: string[],
  options: CheckOptions,
  cwd: string = process.cwd(),
  load: Pick<WorkspaceLoadOptions, 'releaseMarkup'> = {},
  pool: PoolSettings = poolSettings(),
): LoadedProject {
  const { kitFiles, modules } = discoverSources(inputs, cwd);
  const workspace = new Workspace({ files: diskFiles(cwd), ...options }, cwd, { incremental: false, ...load });
  // A file probe of the caller's cannot be handed to another thread.
  const pooled = !options.files && loadKitInPool(workspace, kitFiles, cwd, pool);
  // Modules after kit files so that their package names come from `package` declarations.
  const rest = pooled ? modules : [...kitFiles, ...modules];
  const kits = pooled ? 0 : kitFiles.length;
  const ahead = new ReadAhead(rest.map((f) => resolve(cwd, f)));
  try {
    for (let i = 0; i < rest.length; i++) {
      const { text, diagnostics } = read(rest[i], cwd, ahead, i);
      if (i < kits) workspace.setKitFile(rest[i], text, undefined, diagnostics);
      else workspace.setModule(rest[i], text, diagnostics);
    }
  } finally {
    ahead.close();
  }
  workspace.flush();
  return { workspace, kitFiles, modules };
}
