// A fresh `kit init` starter in a temporary folder, with kit installed in it as npm would lay it
// out (node_modules/@kit-lang/kit → this repository), and strict type-checking of a project with
// its own tsconfig.json through the TypeScript API, as `tsc --noEmit` runs it.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { runInProcess } from '../server/cli/cli-harness.js';
import { repoRoot } from './repo.js';

export async function starterProject(prefix: string): Promise<{ work: string; project: string }> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const r = await runInProcess(['init', 'starter'], { cwd: work });
  assert.equal(r.code, 0, r.stderr);
  const project = join(work, 'starter');
  mkdirSync(join(project, 'node_modules', '@kit-lang'), { recursive: true });
  symlinkSync(repoRoot, join(project, 'node_modules', '@kit-lang', 'kit'), 'dir');
  return { work, project };
}

/** `tsc --noEmit -p <project>`: its errors as `file: message` lines. */
export function typeErrors(project: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(project, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  );
  assert.ok(config);
  const program = ts.createProgram(config.fileNames, config.options);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
