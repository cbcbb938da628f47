// Binding on the machine's other core. The TypeScript part of a cold load (loading the compiler,
// parsing every handler module, building the type checker, checking each handler's signature)
// runs in a worker thread (`bind-worker.ts`) while the main thread parses the `.kit` files and runs
// the other cross-file rules; the main thread then takes the bindings as if it had made them.
// The worker runs the very `Binder` the main thread would, on the same module texts, so its
// answers are the same (ranges come back as plain objects, which is what every reader expects of
// a `Range`). A worker that cannot start, throws or dies answers nothing: the caller binds in its
// own thread, as it does without a worker.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BindModule, BindScope, DirectoryBinding } from './binder.js';
import type { BindTarget } from './targets.js';

/** Fewer `.kit` files than this bind in the main thread: a thread starts in about 50 ms. */
export const BIND_WORKER_MIN_FILES = 200;

/**
 * A one-shot load (`kit check`, `build`, the reports) on two cores or fewer binds on a worker from
 * this many `.kit` files. There the worker's own compiler and collector compete with the main
 * thread's, and it costs 15–30% more CPU: measured with a handler module per ten files, it made
 * `kit check` 5–12% slower from 200 to 2,000 files, within ±5% from 3,000 to 7,500, and 2–24%
 * faster at 10,000 (`bench/core/check.bench.ts`).
 */
export const BIND_WORKER_MIN_FILES_TWO_CORES = 7500;

/** The size from which a one-shot load binds on a worker, on a machine with `cores` cores. */
export function loadBindWorkerMinFiles(cores: number = availableParallelism()): number {
  return cores <= 2 ? BIND_WORKER_MIN_FILES_TWO_CORES : BIND_WORKER_MIN_FILES;
}

export interface BindWorkerData {
  cwd: string;
  strictBindings?: boolean;
  modules: { path: string; text: string }[];
}

/** A `BindScope` as data: targets listed, the other packages it reads looked up ahead. */
export interface PlainScope {
  dir: string;
  packageName: string;
  kits: { path: string; targets: BindTarget[] }[];
  modules: BindModule[];
  packages: Record<string, { dirs: string[]; modules: BindModule[] }>;
}

/** How binding may use a worker thread, as the front doors read it from the environment. */
export interface BindWorkerSettings {
  /** `KIT_BIND_WORKER`: `1` always binds on a worker, `0` never; unset, the size decides. */
  force?: boolean;
  /** `KIT_BIND_WORKER_HEAP_MB`: caps the worker's heap; a worker that runs out of it answers nothing. */
  heapMb?: number;
}

export function bindWorkerSettings(env: Readonly<Record<string, string | undefined>>): BindWorkerSettings {
  const force = env.KIT_BIND_WORKER === '1' ? true : env.KIT_BIND_WORKER === '0' ? false : undefined;
  const heapMb = Number(env.KIT_BIND_WORKER_HEAP_MB) || undefined;
  return { ...(force !== undefined && { force }), ...(heapMb && { heapMb }) };
}

/** Whether a load should bind on a worker: as `settings.force` says, else from `minFiles` `.kit` files on. */
export function useBindWorker(
  kitFiles: number,
  modules: number,
  settings: BindWorkerSettings = {},
  minFiles = BIND_WORKER_MIN_FILES,
): boolean {
  if (modules === 0 || settings.force === false) return false;
  return settings.force === true || kitFiles >= minFiles;
}

function plainPackage(p: { dirs: string[]; modules: readonly BindModule[] }): PlainScope['packages'][string] {
  return { dirs: p.dirs, modules: p.modules.map(plainModule) };
}

/** A module as data: its path and comment endpoints only (a workspace entry holds its whole text too). */
function plainModule(m: BindModule): BindModule {
  return { path: m.path, summary: { endpoints: m.summary.endpoints } };
}

function plainScope<K extends { path: string }>(s: BindScope<K>): PlainScope {
  const kits = s.kits.map((k) => ({ path: k.path, targets: [...s.targetsOf(k)] }));
  const packages: PlainScope['packages'] = {};
  for (const k of kits)
    for (const t of k.targets)
      if (t.otherPackage !== undefined && !(t.otherPackage in packages))
        packages[t.otherPackage] = plainPackage(s.packageModules(t.otherPackage));
  return { dir: s.dir, packageName: s.packageName, kits, modules: s.modules.map(plainModule), packages };
}

export class BindWorker {
  private readonly failed: Promise<undefined>;

  private constructor(private readonly worker: Worker) {
    // Settles only when the worker fails, whichever moment that is.
    this.failed = new Promise((resolve) => {
      worker.once('error', () => resolve(undefined));
      worker.once('exit', () => resolve(undefined));
    });
  }

  /**
   * Starts a worker on the modules' texts (undefined when no thread can start). `heapMb` caps its
   * heap (`BindWorkerSettings`); a worker that runs out of it dies and answers nothing.
   */
  static start(data: BindWorkerData & { heapMb?: number }): BindWorker | undefined {
    const { heapMb, ...workerData } = data;
    try {
      const url = new URL('./bind-worker.js', import.meta.url);
      const resourceLimits = heapMb ? { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 1 } : undefined;
      return new BindWorker(new Worker(url, { workerData, resourceLimits }));
    } catch {
      return undefined;
    }
  }

  /**
   * Binds `scopes` on the worker. Answers the bindings by directory, or undefined when the worker
   * failed (the caller binds in its own thread).
   */
  bind<K extends { path: string }>(
    scopes: readonly BindScope<K>[],
  ): Promise<Map<string, DirectoryBinding> | undefined> {
    const answer = new Promise<Map<string, DirectoryBinding>>((resolve) => {
      this.worker.once('message', (json: string) => {
        const list = JSON.parse(json) as DirectoryBinding[];
        resolve(new Map(list.map((b) => [b.dir, b])));
      });
    });
    // JSON: `Span` ranges become plain `{ start, end }` (structured clone would drop their getters).
    this.worker.postMessage(JSON.stringify(scopes.map(plainScope)));
    return Promise.race([answer, this.failed]);
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
