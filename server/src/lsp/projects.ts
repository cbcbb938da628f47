// One workspace model per workspace folder, like `kit check <folder>` run in that folder: files are
// named by their path relative to the folder (so messages read as the CLI's do) and rules never
// compare files of two unrelated folders. Files outside every folder share one more model, named
// by absolute path. A file belongs to the deepest folder that contains it.
//
// Each folder takes its settings from its kit.config as `kit check` would there: read from disk
// when the folder is added, then from the config module the model holds (the open buffer, or the
// disk as it changes); an editor setting or `kit lsp --ssr` overrides `ssr` for every folder.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { SUMMARIES, Workspace } from '#core/workspace/workspace.js';
import { CONFIG_FILE_NAMES } from '#core/model/app-config.js';
import type { ModuleEntry } from '#core/model/entries.js';
import { isHandlerModulePath } from '#core/model/handler-modules.js';
import type { CheckOptions } from '#core/model/options.js';
import { PageTypesWriter, type TypesWrite } from '#core/build/page-types.js';
import { readProjectConfig } from '#core/project/config.js';
import { readSourceFile, type SourceText } from '#core/project/read-source.js';
import { diskFiles } from '#core/project/disk-files.js';
import { featureContext, type FeatureContext } from './features/context.js';

export class KitProject {
  readonly ws: Workspace;
  readonly ctx: FeatureContext;
  /** True while its folder is being read: its diagnostics are published once indexing is done. */
  indexing = false;
  /** `.kit` files its first index took from loading threads (`KIT_WORKERS`), for `kit/stats`. */
  pooled = 0;
  /** The config module found for the folder when it was added (absolute), if any. */
  configFile: string | undefined;
  /** `ssr` of the project's kit.config (undefined: not set there, or no config). */
  configSsr: boolean | undefined;
  /** The config module entry the settings were last read from (null: none in the model yet). */
  private configEntry: ModuleEntry | null = null;
  /** Keeps `.kit-types/` current: folders on disk only. */
  types: PageTypesWriter | undefined;

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

  /**
   * Reads `ssr` again from the config module in the model when that entry changed (an edit, a save,
   * a config created or deleted); true when it did. A config outside the folder (above it, at the
   * project root) is not in the model: its value read at start stays.
   */
  refreshConfig(): boolean {
    if (this.root === undefined) return false;
    const inside = this.configFile !== undefined && this.contains(this.configFile);
    const keys = inside ? [this.keyOf(this.configFile!), ...CONFIG_FILE_NAMES] : CONFIG_FILE_NAMES;
    let entry: ModuleEntry | null = null;
    for (const k of keys) if ((entry = this.ws.module(k) ?? null)) break;
    if (entry === this.configEntry) return false;
    this.configEntry = entry;
    // Gone from the model: the config at start when it lies outside the folder, else none.
    const ssr = entry ? entry.config?.ssr : inside ? undefined : this.configSsr;
    if (ssr === this.configSsr) return false;
    this.configSsr = ssr;
    return true;
  }
}

export class ProjectSet {
  private folders: KitProject[] = [];
  readonly loose: KitProject;
  /** `ssr` for every folder whatever its config says: the editor's setting, else `kit lsp --ssr`. */
  private ssrOverride: boolean | undefined;

  constructor(
    private options: CheckOptions,
    private readonly uriOfFsPath: (fsPath: string) => string,
    /** Where a folder's page types that cannot be written are told of. */
    private readonly log: (message: string) => void = () => {},
  ) {
    this.ssrOverride = options.ssr ? true : undefined;
    this.loose = new KitProject(undefined, '', 'files outside the workspace folders', options, uriOfFsPath);
  }

  /** The `ssr` a project validates with: the override, else its config's, else off. */
  private ssrOf(p: { configSsr: boolean | undefined }): boolean {
    return this.ssrOverride ?? p.configSsr ?? false;
  }

  addFolder(fsPath: string, uri: string, name: string): KitProject {
    const existing = this.folders.find((f) => f.root === fsPath);
    if (existing) return existing;
    // Read before the model is made, so that the folder is indexed with its settings from the start.
    const config = readProjectConfig(fsPath, fsPath);
    const configSsr = config?.settings.ssr;
    const options = { ...this.options, ssr: this.ssrOf({ configSsr }) };
    const p = new KitProject(fsPath, uri, name, options, this.uriOfFsPath);
    p.configFile = config?.file;
    p.configSsr = configSsr;
    if (uri.startsWith('file:'))
      p.types = new PageTypesWriter(fsPath, (r: TypesWrite) => {
        for (const f of r.failed) this.log(`kit: cannot write the page types of ${fsPath} to ${f}`);
      });
    // Deepest folders first, so that a nested folder owns its files.
    this.folders = [...this.folders, p].sort((a, b) => b.root!.length - a.root!.length);
    return p;
  }

  removeFolder(fsPath: string): KitProject | undefined {
    const p = this.folders.find((f) => f.root === fsPath);
    if (p) this.folders = this.folders.filter((f) => f !== p);
    p?.types?.close();
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

  /**
   * The editor's `ssr` (undefined: each folder's kit.config decides); each model whose `ssr` changes
   * re-validates what depends on it. True when one did.
   */
  setSsrOverride(ssr: boolean | undefined): boolean {
    this.ssrOverride = ssr;
    this.options = { ...this.options, ssr: ssr ?? false };
    return this.applySsr(this.all());
  }

  /** Folders whose config module changed take its `ssr`; true when a model's changed. */
  refreshConfigs(): boolean {
    return this.applySsr(this.folders.filter((p) => p.refreshConfig()));
  }

  private applySsr(projects: KitProject[]): boolean {
    let changed = false;
    for (const p of projects) {
      const ssr = p.root === undefined ? (this.ssrOverride ?? false) : this.ssrOf(p);
      if (ssr === p.ws.options.ssr) continue;
      p.ws.setOptions({ ssr });
      changed = true;
    }
    return changed;
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
