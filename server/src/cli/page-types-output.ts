// The command line's use of the generated page types (`core/build/page-types.ts`): `kit check` and
// `kit build` keep them current, `kit init` writes the starter's. A types directory that cannot be
// written is a warning: it never fails a command.
import { resolve } from 'node:path';
import { pageTypesByDir, PageTypesWriter, typesRootOf } from '#core/build/page-types.js';
import { readProjectConfig } from '#core/project/config.js';
import { displayPath } from '#core/project/discover.js';
import type { Workspace } from '#core/workspace/workspace.js';
import type { CliIO } from './io.js';

export function writeTypes(ws: Workspace, io: CliIO, command: string, cwd: string = io.cwd): void {
  const dirs = typedDirs(ws, cwd);
  if (dirs.size > 0) writeTypeTexts(pageTypesByDir(ws, dirs), io, command, cwd);
}

/**
 * The directories of pages that a tsconfig.json maps types in for: only theirs are made (most
 * projects `kit check` runs on have none, and making every page's types was 2% of the command).
 */
function typedDirs(ws: Workspace, cwd: string): Set<string> {
  const pageDirs = new Set<string>();
  for (const e of ws.allKit()) if (e.summary.kind === 'page') pageDirs.add(e.summary.dir);
  const seen = new Map<string, string | undefined>();
  const dirs = new Set<string>();
  for (const dir of pageDirs) if (typesRootOf(resolve(cwd, dir), seen) !== undefined) dirs.add(dir);
  return dirs;
}

/** `writeTypes` of the page types already made (`pageTypesByDir`; `kit build` keeps them in its cache). */
export function writeTypeTexts(
  texts: ReadonlyMap<string, string | null>,
  io: CliIO,
  command: string,
  cwd: string = io.cwd,
): void {
  for (const f of new PageTypesWriter(cwd).writeTexts(texts, true).failed)
    io.stderr.write(`kit ${command}: warning: cannot write the page types to ${f}\n`);
}

/** The page types of the project in `dir` (absolute), its sources and settings read from its kit.config. */
export async function writeProjectTypes(dir: string, io: CliIO, command: string): Promise<void> {
  const config = readProjectConfig(dir, dir);
  if (!config) return;
  const { loadProjectAsync, threadSettings } = await import('#core/project/load.js');
  const { SUMMARIES } = await import('#core/workspace/workspace.js');
  const project = await loadProjectAsync([displayPath(config.sources, dir) || '.'], { ssr: config.ssr }, dir, {
    policy: SUMMARIES,
    ...threadSettings(io.env),
  });
  writeTypes(project.workspace, io, command, dir);
}
