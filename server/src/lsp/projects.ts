// One workspace model per workspace folder, like `kit check <folder>` run in that folder: files are
// named by their path relative to the folder (so messages read as the CLI's do) and rules never
// compare files of two unrelated folders. Files outside every folder share one more model, named
// by absolute path. A file belongs to the deepest folder that contains it.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { SUMMARIES, Workspace } from '../core/workspace/workspace.js';
import { isHandlerModulePath } from '../core/model/handler-modules.js';
import type { CheckOptions } from '../core/model/options.js';
import { readSourceFile, type SourceText } from '../core/project/read-source.js';
import { diskFiles } from '../core/project/disk-files.js';
import { featureContext, type FeatureContext } from './features/context.js';

export class KitProject {
  readonly ws: Workspace;
  readonly ctx: FeatureContext;
  /** True while its folder is being read: its diagnostics are published once indexing is done. */
  indexing = false;
  /** `.kit` files its first index took from loading threads (`KIT_WORKERS`), for `kit/stats`. */
  pooled = 0;

  constructor(
    /** Folder path, or undefined for the files outside every folder. */
    readonly root: string | undefined,
    readonly uri: string,
    readonly name: string,
    options: CheckOptions,
    uriOfFsPath: (fsPath: string) => string,
  ) {
    // Files read from disk are parsed once, without what incremental re-parsing needs, and their
    // markup is dropped once checked (re-parsed if a feature reads it); a document opened in the
    // editor gets a full parse of its own (`Workspace.editKitFile`).
    const base = root ?? process.cwd();
    this.ws = new Workspace({ files: diskFiles(base), ...options }, base, SUMMARIES);
    this.ctx = featureContext(this.ws, (key) => uriOfFsPath(this.fsPathOf(key)));
  }

  contains(fsPath: string): boolean {
    if (this.root === undefined) return true;
    return fsPath === this.root || fsPath.startsWith(this.root.endsWith(sep) ? this.root : this.root + sep);
  }

  /** The workspace path of a file: relative to the folder with `/` separators. */
  keyOf(fsPath: string): string {
    if (this.root === undefined) return fsPath;
    const rel = relative(this.root, fsPath);
    return sep === '/' ? rel : rel.split(sep).join('/');
  }

  fsPathOf(key: string): string {
    if (this.root === undefined || isAbsolute(key)) return key;
    return join(this.root, key);
  }
}

export class ProjectSet {
  private folders: KitProject[] = [];
  readonly loose: KitProject;

  constructor(
    private options: CheckOptions,
    private readonly uriOfFsPath: (fsPath: string) => string,
  ) {
    this.loose = new KitProject(undefined, '', 'files outside the workspace folders', options, uriOfFsPath);
  }

  addFolder(fsPath: string, uri: string, name: string): KitProject {
    const existing = this.folders.find((f) => f.root === fsPath);
    if (existing) return existing;
    const p = new KitProject(fsPath, uri, name, this.options, this.uriOfFsPath);
    // Deepest folders first, so that a nested folder owns its files.
    this.folders = [...this.folders, p].sort((a, b) => b.root!.length - a.root!.length);
    return p;
  }

  removeFolder(fsPath: string): KitProject | undefined {
    const p = this.folders.find((f) => f.root === fsPath);
    if (p) this.folders = this.folders.filter((f) => f !== p);
    return p;
  }

  projectFor(fsPath: string): KitProject {
    return this.folders.find((f) => f.contains(fsPath)) ?? this.loose;
  }

  all(): KitProject[] {
    return [...this.folders, this.loose];
  }

  folderProjects(): KitProject[] {
    return [...this.folders];
  }

  /** New check options for every model: each re-validates what depends on them. */
  setOptions(options: CheckOptions): void {
    this.options = options;
    for (const p of this.all()) p.ws.setOptions(options);
  }
}

/** Handler modules in a directory (names only), or none when it cannot be read. */
export function handlerModulesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const n of names) {
    if (!isHandlerModulePath(n)) continue;
    try {
      if (statSync(join(dir, n)).isFile()) out.push(join(dir, n));
    } catch {
      /* vanished between listing and stat */
    }
  }
  return out.sort();
}

/**
 * The text of a file, or undefined when it cannot be read (deleted, unreadable, not a regular file,
 * over the size cap, binary): the same rules as the command line's.
 */
export function readText(fsPath: string): SourceText | undefined {
  try {
    return readSourceFile(fsPath, fsPath);
  } catch {
    return undefined;
  }
}
