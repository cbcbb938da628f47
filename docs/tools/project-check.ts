// A page that builds a project step by step (the tutorial) is checked as a reader would follow it:
// the starter, as `kit init` writes it, then each `##` section's files (blocks with `file=<path>`,
// a later block of the same path replacing the earlier one). After every such section the project
// must pass `kit check` with no diagnostic at all (handler binding included) and a strict `tsc`
// of its TypeScript, with the page types kit check writes, exactly as `npm run check` runs them.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { writePageTypes } from '#core/build/page-types.js';
import { loadProjectAsync } from '#core/project/load.js';
import { writeStarter } from '#cli/init/scaffold.js';
import { cachingHost } from './check-ts.js';
import { codeBlocks, headingText } from './markdown.js';
import type { Page } from './pages.js';
import { repoRoot } from './pages.js';

export interface ProjectFile {
  path: string;
  text: string;
  /** The page line of the block's first line. */
  line: number;
}

export interface ProjectStep {
  title: string;
  line: number;
  files: ProjectFile[];
}

/** The `file=` blocks of a page, grouped by the `##` section they stand in (sections without any left out). */
export function projectSteps(page: Page): ProjectStep[] {
  const lines = page.text.split('\n');
  const sections: ProjectStep[] = [];
  lines.forEach((l, i) => {
    const h = /^## (.*)$/.exec(l);
    if (h) sections.push({ title: headingText(h[1]), line: i + 1, files: [] });
  });
  for (const b of codeBlocks(page.text)) {
    if (b.attrs.file === undefined) continue;
    const section = [...sections].reverse().find((s) => s.line < b.line);
    if (!section) throw new Error(`${page.path}:${b.line}: a file= block before the first ## heading`);
    section.files.push({ path: b.attrs.file, text: b.body, line: b.line });
  }
  return sections.filter((s) => s.files.length > 0);
}

/** The kit checks and type checks of a project (a directory holding the starter and the steps so far). */
async function checkState(
  dir: string,
  shownAt: Map<string, ProjectFile>,
  page: string,
  previous: { program?: ts.Program },
): Promise<string[]> {
  const out: string[] = [];
  const where = (file: string, line: number): string => {
    const f = shownAt.get(file);
    return f ? `${page}:${f.line + line - 1} (${file}:${line})` : `${page} (${file}:${line}, a file of the starter)`;
  };
  const project = await loadProjectAsync(['site'], { ssr: true }, dir);
  for (const d of project.workspace.allDiagnostics())
    out.push(`${where(d.file, d.range.start.line)}: kit check: ${d.severity} ${d.code}: ${d.message}`);
  writePageTypes(project.workspace, dir);
  const config = ts.getParsedCommandLineOfConfigFile(
    join(dir, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) =>
        out.push(`tsconfig.json: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`),
    },
  );
  if (!config) return out;
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host: cachingHost(config.options),
    oldProgram: previous.program,
  });
  previous.program = program;
  const pre = ts.getPreEmitDiagnostics(program);
  for (const d of pre) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (d.file && d.start !== undefined) {
      const file = d.file.fileName.slice(dir.length + 1);
      out.push(`${where(file, d.file.getLineAndCharacterOfPosition(d.start).line + 1)}: tsc: TS${d.code}: ${message}`);
    } else out.push(`${page}: tsc: TS${d.code}: ${message}`);
  }
  return out;
}

/** Problems of a page's project after each of its steps; nothing for a page without `file=` blocks. */
export async function checkProjectPage(page: Page): Promise<string[]> {
  const steps = projectSteps(page);
  if (steps.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), 'kit-doc-project-'));
  try {
    writeStarter(dir, { name: 'my-site', kitVersion: '0.0.0', kitSpec: '^0.0.0' });
    mkdirSync(join(dir, 'node_modules', '@kit-lang'), { recursive: true });
    symlinkSync(repoRoot, join(dir, 'node_modules', '@kit-lang', 'kit'), 'dir');
    const shownAt = new Map<string, ProjectFile>();
    const problems: string[] = [];
    const previous: { program?: ts.Program } = {};
    for (const step of steps) {
      for (const f of step.files) {
        mkdirSync(dirname(join(dir, f.path)), { recursive: true });
        writeFileSync(join(dir, f.path), f.text);
        shownAt.set(f.path, f);
      }
      for (const p of await checkState(dir, shownAt, page.path, previous))
        problems.push(`${p} [after "${step.title}"]`);
    }
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
