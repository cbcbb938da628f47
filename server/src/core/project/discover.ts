// Finds the sources of a run: `.kit` files under the given files and directories (skipping
// node_modules and dot folders) and the handler modules of the directories that hold them.
import { existsSync, lstatSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isHandlerModulePath } from '../model/handler-modules.js';
import { CONFIG_FILE_NAMES, isAppConfigPath } from '../model/app-config.js';

export class SourceError extends Error {
  /** `reason`: why the file cannot be read, when the message is `cannot read <file>: <reason>`. */
  constructor(
    message: string,
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export interface DiscoveredSources {
  /** `.kit` files, sorted, as display paths (relative to cwd when inside it, `/` separators). */
  kitFiles: string[];
  /** Handler modules of the directories holding those files, and the project root's app config, sorted. */
  modules: string[];
  /** The `.kit` files among them that were not listed as regular files (reading refuses them by name). */
  irregular?: ReadonlySet<string>;
}

/** The project root of a directory: the nearest directory at or above it that holds a `package.json`. */
export function projectRootOf(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** The config module of a directory, if it holds one (`kit.config.ts`, then .mts, .js, .mjs). */
function configIn(dir: string): string | undefined {
  for (const name of CONFIG_FILE_NAMES) {
    const p = join(dir, name);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      /* absent */
    }
  }
  return undefined;
}

/** The config modules a directory sees: the nearest at or above it, and the project root's. */
interface ConfigsOf {
  nearest?: string;
  root?: string;
}

/**
 * Looks configs up directory by directory, remembering each answer, so that the directories of a
 * large tree share the walk up to their project root.
 */
function configLookup(): (dir: string) => ConfigsOf {
  const seen = new Map<string, ConfigsOf>();
  const lookUp = (dir: string): ConfigsOf => {
    let found = seen.get(dir);
    if (found !== undefined) return found;
    const here = configIn(dir);
    if (existsSync(join(dir, 'package.json'))) found = { nearest: here, root: here };
    else if (dirname(dir) === dir) found = { nearest: here };
    else {
      const above = lookUp(dirname(dir));
      found = { nearest: here ?? above.nearest, root: above.root };
    }
    seen.set(dir, found);
    return found;
  };
  return lookUp;
}

/**
 * The app config module of a directory (absolute): the nearest `kit.config.*` at or above it, up to
 * the project root (the nearest directory with a `package.json`), which is where users keep it, as
 * other tools' configs, or beside the pages.
 */
export function findConfigFile(dir: string): string | undefined {
  return configLookup()(resolve(dir)).nearest;
}

/** The last `cwd` asked about, and its form as a prefix of the paths inside it, when it is one. */
let lastCwd: { cwd: string; prefix: string | undefined } | undefined;

/** Path as shown to users: relative to cwd when inside it, with `/` separators. */
export function displayPath(abs: string, cwd: string): string {
  // A discovery shows thousands of paths under one cwd: those that plainly start with it are cut
  // (what `relative` answers for them), without resolving both paths each time.
  if (lastCwd?.cwd !== cwd) lastCwd = { cwd, prefix: resolve(cwd) === cwd && cwd !== sep ? cwd + sep : undefined };
  const prefix = lastCwd.prefix;
  if (prefix !== undefined && abs.startsWith(prefix) && isNormalTail(abs, prefix.length))
    return sep === '/' ? abs.slice(prefix.length) : abs.slice(prefix.length).split(sep).join('/');
  const rel = relative(cwd, abs);
  const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
  return sep === '/' ? shown : shown.split(sep).join('/');
}

/** True when `p` from `at` on is a plain relative path: no empty, `.` or `..` segment, no trailing separator. */
function isNormalTail(p: string, at: number): boolean {
  if (at >= p.length) return false;
  for (let i = at; i <= p.length; ) {
    let j = p.indexOf(sep, i);
    if (j < 0) j = p.length;
    const n = j - i;
    if (n === 0 || (n === 1 && p[i] === '.') || (n === 2 && p[i] === '.' && p[i + 1] === '.')) return false;
    i = j + 1;
  }
  return true;
}

/** Directory → its handler modules, for every directory a walk listed. */
type ModulesByDir = Map<string, string[]>;

/** Why a path that is a link cannot be followed: a dangling link or a loop. */
export function linkProblem(p: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return 'symbolic link loop';
  try {
    if (code === 'ENOENT' && lstatSync(p).isSymbolicLink()) return 'broken symbolic link';
  } catch {
    /* gone altogether */
  }
  return code ?? 'error';
}

/**
 * Real paths of the directories walked so far. A directory reached twice (through a link, or a
 * link that points back up the tree) is walked once: its files are one set of sources.
 */
type Walked = Set<string>;

// Entry types come from the directory listing; only links (and file systems that do not report a
// type) cost a stat. One listing per directory also yields its handler modules.
function walk(
  dir: string,
  out: string[],
  modulesByDir: ModulesByDir,
  walked: Walked,
  cwd: string,
  irregular: Set<string>,
): void {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (e) {
    throw new SourceError(`cannot read directory ${displayPath(dir, cwd)}: ${linkProblem(dir, e)}`);
  }
  if (walked.has(real)) return;
  walked.add(real);
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new SourceError(`cannot read directory ${displayPath(dir, cwd)}: ${code}`);
  }
  const modules: string[] = [];
  // A name from a listing has no separator and is not `.` or `..`: joined without normalising.
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  for (const entry of entries) {
    const name = entry.name;
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = prefix + name;
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (!isDir && !isFile) {
      try {
        const st = statSync(p);
        isDir = st.isDirectory();
        isFile = st.isFile();
      } catch {
        // A `.kit` name that leads nowhere is still listed: reading refuses it by name, with the reason.
        if (name.endsWith('.kit')) {
          out.push(p);
          irregular.add(p);
        }
        continue;
      }
    }
    if (isDir) walk(p, out, modulesByDir, walked, cwd, irregular);
    // A `.kit` name that is not a regular file (a FIFO, a device) is listed: reading refuses it by name.
    else if (name.endsWith('.kit')) {
      out.push(p);
      if (!isFile) irregular.add(p);
    } else if (isFile && isHandlerModulePath(name)) modules.push(p);
  }
  modulesByDir.set(dir, modules);
}

/** Handler modules of a directory no walk listed (it holds a `.kit` file named on the command line). */
function modulesOf(dir: string): string[] {
  const modules: string[] = [];
  for (const name of readdirSync(dir)) {
    if (!isHandlerModulePath(name)) continue;
    const p = join(dir, name);
    try {
      if (statSync(p).isFile()) modules.push(p);
    } catch {
      /* vanished between listing and stat */
    }
  }
  return modules;
}

export function discoverSources(inputs: string[], cwd: string): DiscoveredSources {
  const kit = new Set<string>();
  const irregular = new Set<string>();
  const modulesByDir: ModulesByDir = new Map();
  const walked: Walked = new Set();
  for (const input of inputs) {
    const abs = resolve(cwd, input);
    let st;
    try {
      st = statSync(abs);
    } catch (e) {
      const why = linkProblem(abs, e);
      throw new SourceError(why === 'ENOENT' ? `no such file or directory: ${input}` : `cannot read ${input}: ${why}`);
    }
    if (st.isDirectory()) {
      const found: string[] = [];
      walk(abs, found, modulesByDir, walked, cwd, irregular);
      for (const f of found) kit.add(f);
    } else if (abs.endsWith('.kit')) {
      kit.add(abs);
      if (!st.isFile()) irregular.add(abs);
    } else throw new SourceError(`not a .kit file: ${input}`);
  }
  const dirs = new Set<string>();
  for (const f of kit) dirs.add(dirname(f));
  const modules: string[] = [];
  for (const d of dirs) modules.push(...(modulesByDir.get(d) ?? modulesOf(d)));
  // Users keep `kit.config.ts` at the project root, as other tools' configs, or beside the pages. A
  // nearer one does not hide the root's: a build refuses two configs rather than leave one out unsaid.
  const configs = new Set(modules.filter(isAppConfigPath).map((m) => dirname(m)));
  const lookUp = configLookup();
  for (const d of dirs) {
    const { nearest, root } = lookUp(d);
    for (const config of [nearest, root]) {
      if (config && !configs.has(dirname(config)) && !modules.includes(config)) {
        modules.push(config);
        configs.add(dirname(config));
      }
    }
  }
  const sortShown = (xs: Iterable<string>) => [...xs].map((x) => displayPath(x, cwd)).sort();
  return {
    kitFiles: sortShown(kit),
    modules: sortShown(modules),
    ...(irregular.size ? { irregular: new Set(sortShown(irregular)) } : {}),
  };
}
