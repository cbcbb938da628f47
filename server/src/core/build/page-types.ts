// Generated per-page types, as SvelteKit's `./$types`: for each directory of pages, a `$kit.d.ts`
// with each page's route params (typed as `app.typedParams` decodes them), the fields its
// `server {}` block declares, and the type of its `Load<PageID>`. They are written under
// `.kit-types/` beside the nearest `tsconfig.json` that maps it in with `rootDirs`
// (`"rootDirs": [".", ".kit-types"]`), so that a handler module imports them as `./$kit.js`.
// Projects without such a tsconfig get no files written.
//
// One writer for every front door: `kit check` and `kit build` write them all once, `kit dev` and
// the language server the directories whose pages changed, a moment after the last change
// (`PageTypesWriter.schedule`). Only a file whose text changes is written (each file atomically),
// so `tsc --watch` and editors watching the folder are not woken for nothing.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { ParamType } from '#shared/route/index.js';
import type { KitEntry } from '../model/entries.js';
import { dirName, exportedIdentifier, loadFunctionName } from '../model/names.js';
import type { FileSummary } from '../model/summary.js';
import type { Workspace } from '../workspace/workspace.js';

export const TYPES_DIR = '.kit-types';

const TS_TYPE: Record<ParamType, string> = {
  string: 'string',
  int: 'number',
  uint: 'number',
  float64: 'number',
  int64: 'bigint',
  uint64: 'bigint',
  bool: 'boolean',
};

/** A nested object type of field paths (`a`, `b.c` → `{ a: unknown; b: { c: unknown } }`). */
interface FieldTree {
  [name: string]: FieldTree | null;
}

function fieldTree(paths: readonly (readonly string[])[]): FieldTree {
  const root: FieldTree = {};
  for (const path of paths) {
    let node = root;
    path.forEach((name, i) => {
      if (i === path.length - 1) {
        if (!(name in node)) node[name] = null;
      } else node = node[name] ??= {};
    });
  }
  return root;
}

function quoteKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

function treeType(tree: FieldTree, indent: string): string {
  const names = Object.keys(tree);
  if (names.length === 0) return '{}';
  const inner = `${indent}  `;
  const lines = names.map((n) => {
    const sub = tree[n];
    return `${inner}${quoteKey(n)}: ${sub ? treeType(sub, inner) : 'unknown'};`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** Each page's declarations, kept per summary: a save re-generates its directory from the others' text. */
const declarationsOf = new WeakMap<FileSummary, string>();

/** The declarations of one page. */
function pageDeclarations(e: KitEntry): string {
  let text = declarationsOf.get(e.summary);
  if (text === undefined) {
    text = pageDeclarationsOf(e.summary);
    declarationsOf.set(e.summary, text);
  }
  return text;
}

function pageDeclarationsOf(s: FileSummary): string {
  const id = exportedIdentifier(s.ownerId);
  const route = s.route?.parsed;
  const out: string[] = [];
  const params = route?.params ?? [];
  const paramLines = params.map((p) => `  ${quoteKey(p.name)}: ${TS_TYPE[p.type] ?? 'string'};`);
  out.push(
    `/** Route params of page \`${s.ownerId}\` (${route ? JSON.stringify(route.pattern) : 'no route'}), as ` +
      `\`app.typedParams<${id}Params>(ctx)\` decodes them. */`,
    paramLines.length ? `export interface ${id}Params {\n${paramLines.join('\n')}\n}` : `export type ${id}Params = {};`,
    `/** The same params undecoded, as \`app.params<${id}RawParams>(ctx)\` gives them. */`,
    `export type ${id}RawParams = { [K in keyof ${id}Params]: string };`,
  );
  if (s.server) {
    const load = loadFunctionName(s.ownerId);
    out.push(
      `/** What \`server {}\` of page \`${s.ownerId}\` declares: the fields \`${load}\` returns. */`,
      `export interface ${id}Data ${treeType(fieldTree(s.server.fields.map((f) => f.path)), '')}`,
      `/** The type of \`${load}\`: \`export const ${load}: ${id}Load = async (ctx) => ({ ... })\`. */`,
      `export type ${id}Load = (ctx: RequestContext) => ${id}Data | Promise<${id}Data>;`,
    );
  }
  return out.join('\n');
}

/** The pages of the workspace by directory (workspace directory → its pages); only `dirs` when given. */
function pagesByDir(ws: Workspace, dirs?: ReadonlySet<string>): Map<string, KitEntry[]> {
  const byDir = new Map<string, KitEntry[]>();
  for (const d of dirs ?? []) byDir.set(d, []);
  for (const e of ws.allKit()) {
    if (e.summary.kind !== 'page' || (dirs && !dirs.has(e.summary.dir))) continue;
    const list = byDir.get(e.summary.dir) ?? [];
    list.push(e);
    byDir.set(e.summary.dir, list);
  }
  return byDir;
}

/**
 * The `$kit.d.ts` text of each directory of pages (workspace directory → text; null for a directory
 * of `dirs` without pages), every directory's when `dirs` is undefined.
 */
export function pageTypesByDir(ws: Workspace, dirs?: ReadonlySet<string>): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const [dir, pages] of pagesByDir(ws, dirs)) out.set(dir, pages.length ? directoryTypes(pages) : null);
  return out;
}

/** The `$kit.d.ts` text of one directory's pages. */
function directoryTypes(pages: readonly KitEntry[]): string {
  const header =
    '// Generated by kit from the pages of this directory (kit check, kit build, kit dev and the language\n' +
    '// server keep it current); do not edit.\n' +
    "import type { RequestContext } from '@kit-lang/kit/app';\n";
  return `${header}\n${pages.map(pageDeclarations).join('\n\n')}\n`;
}

/**
 * The directory `.kit-types` goes in: the nearest one at or above `dir` holding a tsconfig.json that
 * maps `.kit-types` in; undefined when the nearest tsconfig.json does not (or there is none).
 * `seen` remembers the answers of a write's directories, so that they share the walk up.
 */
export function typesRootOf(dir: string, seen: Map<string, string | undefined> = new Map()): string | undefined {
  if (seen.has(dir)) return seen.get(dir);
  let text: string | undefined;
  try {
    text = readFileSync(join(dir, 'tsconfig.json'), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') text = '';
  }
  const root =
    text !== undefined
      ? text.includes(TYPES_DIR)
        ? dir
        : undefined
      : existsSync(join(dir, 'package.json')) || dirname(dir) === dir
        ? undefined
        : typesRootOf(dirname(dir), seen);
  seen.set(dir, root);
  return root;
}

const TYPES_FILE = '$kit.d.ts';

/** The `$kit.d.ts` files under a types directory (absolute), found by listing it. */
function typesFilesUnder(dir: string, out: string[] = []): string[] {
  let names;
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const n of names) {
    if (n.isDirectory()) typesFilesUnder(join(dir, n.name), out);
    else if (n.name === TYPES_FILE) out.push(join(dir, n.name));
  }
  return out;
}

export interface TypesWrite {
  /** Files written (their text changed or they were new) and removed. */
  written: string[];
  removed: string[];
  /** Types directories that could not be written, with the reason (callers warn: it never fails a run). */
  failed: string[];
}

/** How long the writer waits after the last change it was told of (`schedule`) before writing. */
export const TYPES_DEBOUNCE_MS = 100;

/**
 * Keeps a project's `.kit-types/` current. `write` brings the files of some directories of pages
 * (or of all, which also removes the files of directories without pages) up to date now;
 * `schedule` does it for the directories of changed pages once changes pause. It remembers the text
 * of every file it read or wrote, so a write compares against memory and touches the disk only for
 * a file whose text changes.
 */
export class PageTypesWriter {
  private readonly onDisk = new Map<string, string | null>();
  private pending: Set<string> | 'all' | undefined;
  private timer: NodeJS.Timeout | undefined;

  /**
   * `cwd`: what workspace paths are relative to; `done`: told of each scheduled write (a failure
   * is worth a warning, never an error).
   */
  constructor(
    private readonly cwd: string,
    private readonly done: (result: TypesWrite) => void = () => {},
  ) {}

  /** The files of `dirs` (workspace directories of `.kit` files; every directory when undefined), now. */
  write(ws: Workspace, dirs?: ReadonlySet<string>): TypesWrite {
    return this.writeTexts(pageTypesByDir(ws, dirs), dirs === undefined);
  }

  /**
   * The files of the directories of `texts` (`pageTypesByDir`; `kit build` keeps them in its cache),
   * now; `all`: these are every directory, and the files of other directories are removed.
   */
  writeTexts(texts: ReadonlyMap<string, string | null>, all: boolean): TypesWrite {
    const result: TypesWrite = { written: [], removed: [], failed: [] };
    const byRoot = new Map<string, Map<string, string | null>>();
    const seen = new Map<string, string | undefined>();
    for (const [dir, text] of texts) {
      const abs = resolve(this.cwd, dir);
      const root = typesRootOf(abs, seen);
      if (root === undefined) continue;
      const files = byRoot.get(root) ?? new Map<string, string | null>();
      files.set(join(root, TYPES_DIR, relative(root, abs), TYPES_FILE), text);
      byRoot.set(root, files);
    }
    for (const [root, files] of byRoot) {
      const target = join(root, TYPES_DIR);
      try {
        for (const [file, text] of files) this.put(file, text, target, result);
        // A full write also removes the files of directories that have no pages any more.
        if (all) for (const file of typesFilesUnder(target)) if (!files.has(file)) this.put(file, null, target, result);
      } catch (e) {
        result.failed.push(`${target}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
    }
    return result;
  }

  /** Writes the directories of the `.kit` files `paths` (all: every directory) once changes pause. */
  schedule(ws: Workspace, paths: Iterable<string> | 'all'): void {
    if (paths === 'all') this.pending = 'all';
    else if (this.pending !== 'all') {
      this.pending ??= new Set();
      for (const p of paths) if (p.endsWith('.kit')) this.pending.add(dirName(p));
    }
    if (this.pending !== 'all' && this.pending?.size === 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const dirs = this.pending;
      this.pending = undefined;
      this.timer = undefined;
      if (dirs !== undefined) this.done(this.write(ws, dirs === 'all' ? undefined : dirs));
    }, TYPES_DEBOUNCE_MS);
    this.timer.unref();
  }

  /** True while a scheduled write waits. */
  get scheduled(): boolean {
    return this.timer !== undefined;
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }

  /** One file to `text` (null: removed), touching the disk only when it differs. */
  private put(file: string, text: string | null, target: string, result: TypesWrite): void {
    let current = this.onDisk.get(file);
    if (current === undefined) {
      try {
        current = readFileSync(file, 'utf8');
      } catch {
        current = null;
      }
    }
    if (current === text) {
      this.onDisk.set(file, text);
      return;
    }
    if (text === null) {
      unlinkSync(file);
      result.removed.push(file);
      // Directories left empty go too, up to the types directory itself.
      for (let d = dirname(file); d.startsWith(target + sep); d = dirname(d)) {
        try {
          rmdirSync(d);
        } catch {
          break;
        }
      }
    } else {
      mkdirSync(dirname(file), { recursive: true });
      // Renamed into place: a watcher never reads half a file.
      const fresh = `${file}.${process.pid}.tmp`;
      writeFileSync(fresh, text);
      renameSync(fresh, file);
      result.written.push(file);
    }
    this.onDisk.set(file, text);
  }
}

/**
 * Writes the page types of the workspace's `.kit` files (workspace paths relative to `cwd`) into
 * each types root that maps them in: every file whose text changed, and the files of directories
 * without pages removed. A root that cannot be written is reported in `failed`.
 */
export function writePageTypes(ws: Workspace, cwd: string): TypesWrite {
  return new PageTypesWriter(cwd).write(ws);
}
