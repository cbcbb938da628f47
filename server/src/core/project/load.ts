// Loads a workspace from disk for the command line: discovery, reading, indexing.
import { resolve } from 'node:path';
import { ONE_SHOT, Workspace, type StageHooks, type StagePolicy } from '../workspace/workspace.js';
import type { CheckOptions } from '../model/options.js';
import {
  BindWorker,
  bindWorkerSettings,
  loadBindWorkerMinFiles,
  useBindWorker,
  type BindWorkerSettings,
} from '../bind/bind-host.js';
import { discoverSources, type DiscoveredSources } from './discover.js';
import { diskFiles } from './disk-files.js';
import { analyseInPool, ONE_THREAD, poolSettings, type PoolSettings } from './parse-pool.js';
import { ReadAhead } from './read-ahead.js';
import { readListedSource, readSourceFile, type SourceText } from './read-source.js';
import type { FileState } from './source-bytes.js';

export interface LoadedProject {
  workspace: Workspace;
  kitFiles: string[];
  modules: string[];
}

/**
 * `policy`: when the workspace computes and drops each file's stages (`workspace/stages.ts`;
 * `ONE_SHOT` by default: one-shot trees, everything at once, nothing dropped): `SUMMARIES` for
 * commands that read no markup after validation (`kit check`, the reports), `DEV_START` for
 * `kit dev`. `sources`: what discovery of the inputs already found. `pool`: how many threads may
 * parse, from how many files (`poolSettings`: `KIT_WORKERS`, `KIT_WORKERS_MIN_FILES`; one thread when
 * not given). `bindWorker`: whether binding may run on a worker (`bindWorkerSettings`:
 * `KIT_BIND_WORKER`; by size when not given). The front doors read those from the environment.
 */
export interface LoadOptions {
  policy?: StagePolicy;
  sources?: DiscoveredSources;
  pool?: PoolSettings;
  bindWorker?: BindWorkerSettings;
  /** Cross-file buckets the first flush leaves for later (`Workspace.flush`); `loadProject` only. */
  defer?: (key: string) => boolean;
  /** Files already read, by path (`kit build` hashed them for its cache): not read again. */
  texts?: ReadonlyMap<string, SourceText>;
  /**
   * Filled with what the file system said of each `.kit` file this load read itself, by path, as
   * it was read (`kit build` keeps it in its cache's records). Files a loading thread read are not
   * in it.
   */
  states?: Map<string, FileState>;
  /** Told as each file read reaches a stage (`kit build` compiles page bodies as files are checked). */
  hooks?: StageHooks;
}

/** How a load may use threads, as a front door reads it from its environment (`threadSettings`). */
export type ThreadSettings = Pick<LoadOptions, 'pool' | 'bindWorker'>;

/** `KIT_WORKERS`, `KIT_WORKERS_MIN_FILES`, `KIT_BIND_WORKER`, `KIT_BIND_WORKER_HEAP_MB` of `env`. */
export function threadSettings(env: Readonly<Record<string, string | undefined>>): Required<ThreadSettings> {
  return { pool: poolSettings(env), bindWorker: bindWorkerSettings(env) };
}

const CLEAN: SourceText['diagnostics'] = [];

/**
 * A listed file: as the read-ahead thread read it, else read here the quick way, else (anything
 * unusual) with every check, which reports it.
 */
function read(path: string, cwd: string, ahead: ReadAhead | undefined, index: number): SourceText {
  const early = ahead?.take(index);
  if (early !== undefined) return { text: early.text, diagnostics: CLEAN, state: early.state };
  const abs = resolve(cwd, path);
  return readListedSource(abs, path) ?? readSourceFile(abs, path);
}

/**
 * Loads the `.kit` files on several threads (`parse-pool.ts`); answers false, having loaded none,
 * when one thread should: too few files, no loading thread, or a load that keeps markup (a build
 * renders every view, so a loading thread's tree would be parsed again here for its markup).
 */
function loadKitInPool(workspace: Workspace, kitFiles: string[], cwd: string, pool: PoolSettings): boolean {
  if (pool.threads < 2 || kitFiles.length < pool.minFiles || workspace.policy.checked !== 'drop') return false;
  const files = kitFiles.map((path) => ({ path, abs: resolve(cwd, path) }));
  const job = { files, options: workspace.options, cwd, test: pool.test };
  const received = analyseInPool(job, pool.threads, (i, pooled) => {
    const path = kitFiles[i];
    if (pooled) workspace.setAnalysedKitFile(path, pooled.text, pooled.analysis);
    else {
      // Unreadable, or not clean UTF-8: read here, in order, so that it is reported as always.
      const { text, diagnostics } = read(path, cwd, undefined, i);
      workspace.setKitFile(path, text, undefined, diagnostics);
    }
  });
  return received !== undefined;
}

/**
 * Reads and sets every file: the `.kit` files on loading threads when `pool` says so, then the
 * modules (`moduleTexts`: those already read, by path).
 */
function fill(
  workspace: Workspace,
  { kitFiles, modules }: DiscoveredSources,
  cwd: string,
  pool: PoolSettings,
  texts?: ReadonlyMap<string, SourceText>,
  states?: Map<string, FileState>,
): void {
  const pooled = loadKitInPool(workspace, kitFiles, cwd, pool);
  // Modules after kit files so that their package names come from `package` declarations.
  const kits = pooled ? [] : kitFiles;
  const unread = [...kits, ...modules].filter((f) => !texts?.has(f));
  const ahead = new ReadAhead(unread.map((f) => resolve(cwd, f)));
  try {
    let i = 0;
    const text = (f: string) => texts?.get(f) ?? read(f, cwd, ahead, i++);
    for (const f of kits) {
      const { text: t, diagnostics, state } = text(f);
      if (states !== undefined && state !== undefined) states.set(f, state);
      workspace.setKitFile(f, t, undefined, diagnostics);
    }
    for (const m of modules) {
      const { text: t, diagnostics } = text(m);
      workspace.setModule(m, t, diagnostics);
    }
  } finally {
    ahead.close();
  }
}

/** The loading threads `load` asks for; none when the caller probes files itself (a function cannot be sent). */
function poolOf(options: CheckOptions, load: LoadOptions): PoolSettings {
  const pool = load.pool ?? ONE_THREAD;
  return options.files ? { ...pool, threads: 1 } : pool;
}

function newWorkspace(options: CheckOptions, cwd: string, load: LoadOptions): Workspace {
  return new Workspace({ files: diskFiles(cwd), ...options }, cwd, load.policy ?? ONE_SHOT, load.hooks);
}

export function loadProject(
  inputs: string[],
  options: CheckOptions,
  cwd: string,
  load: LoadOptions = {},
): LoadedProject {
  const found = load.sources ?? discoverSources(inputs, cwd);
  const workspace = newWorkspace(options, cwd, load);
  fill(workspace, found, cwd, poolOf(options, load), load.texts, load.states);
  workspace.flush({ defer: load.defer });
  return { workspace, kitFiles: found.kitFiles, modules: found.modules };
}

/** The modules' texts, or undefined when one cannot be read (the load reports it in its own order). */
function readModules(
  modules: readonly string[],
  cwd: string,
  known?: ReadonlyMap<string, SourceText>,
): Map<string, SourceText> | undefined {
  const out = new Map<string, SourceText>(known);
  try {
    for (const m of modules) if (!out.has(m)) out.set(m, readSourceFile(resolve(cwd, m), m));
  } catch {
    return undefined;
  }
  return out;
}

/**
 * `loadProject` with handler binding on the machine's other core when the workspace is large enough
 * (`bind-host.ts`): a worker loads the TypeScript compiler and the handler modules while this thread
 * parses the `.kit` files, then binds while this thread runs the other cross-file rules. The result
 * is the same workspace, whoever bound.
 */
export async function loadProjectAsync(
  inputs: string[],
  options: CheckOptions,
  cwd: string,
  load: LoadOptions = {},
): Promise<LoadedProject> {
  const found = load.sources ?? discoverSources(inputs, cwd);
  const settings = load.bindWorker;
  const onWorker = useBindWorker(found.kitFiles.length, found.modules.length, settings, loadBindWorkerMinFiles());
  const texts = onWorker ? readModules(found.modules, cwd, load.texts) : undefined;
  const worker =
    texts &&
    BindWorker.start({
      cwd,
      heapMb: settings?.heapMb,
      strictBindings: options.strictBindings,
      modules: [...texts].map(([path, t]) => ({ path, text: t.text })),
    });
  if (!worker) return loadProject(inputs, options, cwd, { ...load, sources: found });
  const workspace = newWorkspace(options, cwd, load);
  try {
    fill(workspace, found, cwd, poolOf(options, load), texts, load.states);
    const job = workspace.prebindJob();
    const bound = worker.bind(job.scopes);
    workspace.flush({ defer: (k) => k.startsWith('bind:') });
    const results = await bound;
    if (results) job.accept(results);
  } finally {
    void worker.close();
  }
  workspace.flush();
  return { workspace, kitFiles: found.kitFiles, modules: found.modules };
}
