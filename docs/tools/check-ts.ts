// Every fenced `ts` block of the documentation that imports kit (`@kit-lang/kit/app`, `/trace`,
// `/route`) type-checks, strictly, against the declarations kit ships (out/shared/**/*.d.ts). The
// blocks become files of one TypeScript program, placed in the repository so that the package's
// own name resolves through its `exports`, exactly as in a project that installed it.
import { join } from 'node:path';
import ts from 'typescript';
import { codeBlocks } from './markdown.js';
import type { Page } from './pages.js';

export const TS_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  // As in the starter: no @types packages, the DOM's Request, Response and File.
  types: [],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
};

const IMPORTS_KIT = /from\s+['"]@kit-lang\/kit(\/[a-z]+)?['"]/;
const SPECIFIER = /(?:from|import)\s+['"]([^'"]+)['"]/g;

/**
 * A block is checked when it imports kit and nothing but kit: a block that also needs another
 * package (an OpenTelemetry exporter, Node's own modules) needs that package's types, which the
 * check, like the starter, does not have.
 */
export function isKitBlock(body: string): boolean {
  if (!IMPORTS_KIT.test(body)) return false;
  return [...body.matchAll(SPECIFIER)].every((m) => m[1].startsWith('@kit-lang/kit'));
}

/**
 * Source files by name and text, kept for the process: the DOM and ES libraries and kit's
 * declarations are parsed once for every check that runs in it (the tutorial's steps, the blocks).
 */
const parsed = new Map<string, { text: string; file: ts.SourceFile }>();

/** A compiler host that reuses parsed source files whose text has not changed. */
export function cachingHost(
  options: ts.CompilerOptions,
  virtual: ReadonlyMap<string, string> = new Map(),
): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang) => {
    const text = host.readFile(f);
    if (text === undefined) return undefined;
    const key = `${f}\u0000${typeof lang === 'object' ? lang.impliedNodeFormat : ''}`;
    const hit = parsed.get(key);
    if (hit && hit.text === text) return hit.file;
    const file = ts.createSourceFile(f, text, lang);
    parsed.set(key, { text, file });
    return file;
  };
  return host;
}

interface Virtual {
  file: string;
  text: string;
  page: string;
  line: number;
}

/** Type errors of the given files, each `page:line: TS<code>: message`. */
export function typeCheck(root: string, files: Virtual[]): string[] {
  const byFile = new Map(files.map((f) => [f.file, f]));
  const host = cachingHost(TS_OPTIONS, new Map(files.map((f) => [f.file, f.text])));
  host.getCurrentDirectory = () => root;
  const program = ts.createProgram({ rootNames: [...byFile.keys()], options: TS_OPTIONS, host });
  const out: string[] = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n  ');
    const v = d.file && byFile.get(d.file.fileName);
    if (d.file && v && d.start !== undefined) {
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      out.push(`${v.page}:${v.line + line}: TS${d.code}: ${message}`);
    } else out.push(`${d.file?.fileName ?? 'program'}: TS${d.code}: ${message}`);
  }
  return out;
}

/** The standalone `ts` blocks that import kit, as files of the check (project files are project-check.ts's). */
export function kitTsBlocks(root: string, pages: Page[]): Virtual[] {
  const out: Virtual[] = [];
  for (const page of pages)
    for (const block of codeBlocks(page.text)) {
      if (block.lang !== 'ts' || block.attrs.file !== undefined || !isKitBlock(block.body)) continue;
      const name = `${page.path.replace(/[^a-z0-9]+/gi, '-')}-${block.line}.ts`;
      out.push({ file: join(root, '.doc-blocks', name), text: block.body, page: page.path, line: block.line });
    }
  return out;
}

/** Type errors of every such block of the pages. */
export function checkTsBlocks(root: string, pages: Page[]): string[] {
  const files = kitTsBlocks(root, pages);
  return files.length ? typeCheck(root, files) : [];
}
