// Every fenced `kit` block of the documentation is checked with the core, as `kit check` would.
//
//   ```kit                      a whole file: no diagnostics at all
//   ```kit error=a,b warning=c  a whole file meant to show these codes: exactly they are reported
//   ```kit fragment             a few declaration lines of a file: they must parse (syntax codes only)
//   ```kit fragment=view        markup from inside a `view {}`: it must parse
//   ```kit ssr=false            checked without request-time rendering (the default is with it)
//   ```kit file=site/x.kit      a file of the page's project (project-check.ts checks those)
//
// A block may hold several files, each starting at a `// file: <name>` line (a layout needs its
// `.layout.kit` name). Blocks are checked beside the starter's kit.config.ts, so the guard it
// registers (`signed.in`) is known. Handler binding is left out unless a block names a binding
// code: a block stands alone, without the handler modules a project would have.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeInfo, type Diagnostic, Workspace } from '#core/index.js';
import { starterDir } from '#cli/init/scaffold.js';
import type { Block } from './markdown.js';
import { codeBlocks } from './markdown.js';
import type { Page } from './pages.js';

const KNOWN_ATTRS = new Set(['error', 'warning', 'fragment', 'ssr', 'file']);

/** A block's files: split at `// file: <name>` lines, else one file named `example.kit`. */
export function blockFiles(body: string): { path: string; text: string }[] {
  const files: { path: string; text: string }[] = [];
  let current: { path: string; lines: string[] } | undefined;
  for (const line of body.split('\n')) {
    const m = /^\/\/ file: (\S+)\s*$/.exec(line);
    if (m) {
      if (current) files.push({ path: current.path, text: current.lines.join('\n') });
      current = { path: m[1], lines: [] };
    } else {
      current ??= { path: 'example.kit', lines: [] };
      current.lines.push(line);
    }
  }
  if (current) files.push({ path: current.path, text: current.lines.join('\n') });
  return files.map((f) => ({ path: f.path, text: f.text.replace(/\n*$/, '\n') }));
}

function codesOf(attr: string | undefined): string[] {
  return attr ? attr.split(',').filter(Boolean) : [];
}

/** The diagnostics of one standalone block, as the check keeps them (see the file's comment). */
export function diagnoseBlock(block: Block): Diagnostic[] {
  const fragment = block.attrs.fragment;
  const expected = [...codesOf(block.attrs.error), ...codesOf(block.attrs.warning)];
  const ws = new Workspace({ ssr: block.attrs.ssr !== 'false' });
  const files =
    fragment === 'view'
      ? [{ path: 'example.kit', text: `page example\nroute "/example"\nguard public\n\nview {\n${block.body}}\n` }]
      : blockFiles(block.body);
  for (const f of files) ws.setKitFile(f.path, f.text);
  ws.setModule('kit.config.ts', readFileSync(join(starterDir(), 'kit.config.ts'), 'utf8'));
  return ws.allDiagnostics().filter((d) => {
    const area = codeInfo(d.code)?.area;
    if (fragment !== undefined) return area === 'syntax';
    return area !== 'binding' || expected.includes(d.code);
  });
}

function describe(d: Diagnostic): string {
  return `${d.severity} ${d.code} at ${d.file}:${d.range.start.line}:${d.range.start.column}: ${d.message}`;
}

/** Problems with one block, each a line naming the page and the block's line. */
export function checkKitBlock(page: string, block: Block): string[] {
  const where = `${page}:${block.line}: kit block`;
  const unknown = Object.keys(block.attrs).filter((a) => !KNOWN_ATTRS.has(a));
  if (unknown.length) return [`${where}: unknown attribute ${unknown.join(', ')} (known: ${[...KNOWN_ATTRS]})`];
  const wanted = new Map<string, string>();
  for (const code of codesOf(block.attrs.error)) wanted.set(code, 'error');
  for (const code of codesOf(block.attrs.warning)) wanted.set(code, 'warning');
  for (const [code, severity] of wanted) {
    const info = codeInfo(code);
    if (!info) return [`${where}: ${code} is not a diagnostic code`];
    if (info.severity !== severity)
      return [
        `${where}: ${code} is ${info.severity === 'error' ? 'an' : 'a'} ${info.severity}, not ${severity === 'error' ? 'an' : 'a'} ${severity}`,
      ];
  }
  const got = diagnoseBlock(block);
  const problems: string[] = [];
  const unexpected = got.filter((d) => wanted.get(d.code) !== d.severity);
  for (const d of unexpected) problems.push(`${where}: unexpected ${describe(d)}`);
  for (const [code, severity] of wanted)
    if (!got.some((d) => d.code === code && d.severity === severity))
      problems.push(`${where}: expected ${severity} ${code}, but the block does not report it`);
  return problems;
}

/** Problems with every standalone `kit` block of the pages (project files are project-check.ts's). */
export function checkKitBlocks(pages: Page[]): string[] {
  const problems: string[] = [];
  for (const page of pages)
    for (const block of codeBlocks(page.text))
      if (block.lang === 'kit' && block.attrs.file === undefined) problems.push(...checkKitBlock(page.path, block));
  return problems;
}
