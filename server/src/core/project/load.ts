// Loads a workspace from disk for the command line: discovery, reading, indexing.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Workspace } from '../model/workspace.js';
import type { CheckOptions } from '../validate/context.js';
import { discoverSources, SourceError } from './discover.js';

export interface LoadedProject {
  workspace: Workspace;
  kitFiles: string[];
  modules: string[];
}

function read(path: string, cwd: string): string {
  try {
    return readFileSync(resolve(cwd, path), 'utf8');
  } catch (e) {
    throw new SourceError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

export function loadProject(inputs: string[], options: CheckOptions, cwd: string = process.cwd()): LoadedProject {
  const { kitFiles, modules } = discoverSources(inputs, cwd);
  const workspace = new Workspace(options, cwd, { incremental: false });
  for (const f of kitFiles) workspace.setKitFile(f, read(f, cwd));
  // Modules after kit files so that their package names come from `package` declarations.
  for (const m of modules) workspace.setModule(m, read(m, cwd));
  workspace.flush();
  return { workspace, kitFiles, modules };
}
