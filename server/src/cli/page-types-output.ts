// `kit check` and `kit build` keep the generated page types current (`core/build/page-types.ts`).
// A types directory that cannot be written is a warning: it never fails a check or a build.
import { writePageTypes } from '../core/build/page-types.js';
import type { Workspace } from '../core/workspace/workspace.js';
import type { CliIO } from './io.js';

export function writeTypes(ws: Workspace, io: CliIO, command: string): void {
  for (const f of writePageTypes(ws, io.cwd).failed)
    io.stderr.write(`kit ${command}: warning: cannot write the page types to ${f}\n`);
}
