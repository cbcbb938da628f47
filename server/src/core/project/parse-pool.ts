// Parsing a workspace's `.kit` files on several threads (`KIT_WORKERS`). The files are cut into
// batches, one ordered queue that the main thread and the loading threads (`parse-worker.ts`)
// claim from alike; each loading thread posts its batches back as plain data (trees without
// markup, summaries, local diagnostics: `parse-shared.ts`), while the main thread parses the
// batches it claims itself.
// The main thread installs every file in the queue's order, whoever analysed it, so the workspace,
// and all output, is the same as one thread's whatever the scheduling.
//
// The main thread never waits for a loading thread that has stopped: a batch held by a thread
// that ended, or that shows no progress for a while, is parsed by the main thread. Parsing is
// deterministic, so doing a batch twice changes nothing but the time.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { parseKit } from '#grammar/index.js';
import type { CheckOptions } from '../model/options.js';
import { analyseKit } from '../workspace/analyse-kit.js';
import {
  deadSlot,
  DONE,
  dropMarkup,
  NEXT,
  progressSlot,
  stateSlots,
  STOP,
  unpackAnalysis,
  type PooledKit,
} from './parse-shared.js';
import type { Fault, ParsedBatch, ParseJob, ParseWorkerData } from './parse-worker.js';
import { readSourceFile } from './read-source.js';
import { reviveSpans } from './revive-spans.js';

/** Files per batch: small enough to share the work out evenly, large enough that messages stay few. */
const BATCH = 32;
/** How long the main thread waits for a loading thread that shows no progress before doing its batch. */
const PATIENCE_MS = 250;
/** The same for a batch no thread holds yet (only when the main thread claims none: a test hook). */
const START_PATIENCE_MS = 10_000;

/** How a load uses threads. */
export interface PoolSettings {
  /** Threads that parse, the main thread included (1: no loading thread). */
  threads: number;
  /** Fewer `.kit` files than this are loaded by the main thread alone. */
  minFiles: number;
  /** Test hook (`KIT_TEST_PARSE_POOL`, `poolTestHook`). */
  test?: PoolTestHook;
}

/**
 * Below this many `.kit` files one thread loads them even when more may: a loading thread's start
 * and the main thread's share of its work (receiving the trees) cost about what it saves at 1,000
 * files (see docs/architecture.md).
 */
export const POOL_MIN_FILES = 1000;

function positiveInteger(value: string | undefined): number | undefined {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= 1 ? n : undefined;
}

/**
 * `KIT_WORKERS`: threads that parse, a number or `auto` (one per core); unset, one. Measured on
 * two shared cores, a loading thread made `kit check` slower up to 10,000 files and no faster at
 * 20,000 (it takes CPU time from the main thread, whose work it reduces by 0–15%), so threads are
 * asked for, not assumed.
 * `KIT_WORKERS_MIN_FILES`: the threshold (default `POOL_MIN_FILES`).
 */
export function poolSettings(env: Readonly<Record<string, string | undefined>>): PoolSettings {
  const threads = env.KIT_WORKERS === 'auto' ? availableParallelism() : (positiveInteger(env.KIT_WORKERS) ?? 1);
  const test = poolTestHook(env.KIT_TEST_PARSE_POOL);
  return { threads, minFiles: positiveInteger(env.KIT_WORKERS_MIN_FILES) ?? POOL_MIN_FILES, ...(test && { test }) };
}

/** What a load does when its front door says nothing: one thread. */
export const ONE_THREAD: PoolSettings = { threads: 1, minFiles: POOL_MIN_FILES };

/**
 * The files, and the options they are analysed under: `files` is the disk, relative to `cwd`.
 * `test`: the test hook of the settings the load runs under.
 */
export interface PoolJob {
  files: readonly { path: string; abs: string }[];
  options: CheckOptions;
  cwd: string;
  test?: PoolTestHook;
}

/**
 * Where the CLI bundle's own `parse-worker` entry is, relative to this module's unbundled output
 * (which its `import.meta.url` names there): a constant the bundle defines (`scripts/bundle.mjs`).
 */
declare const KIT_BUNDLED_PARSE_WORKER: string | undefined;

/**
 * The loading thread's module: beside this one's output, or in the CLI bundle, its `parse-worker`
 * entry. None in the editor extension's bundle: its language server loads on one thread.
 */
function workerFile(): string | undefined {
  const bundled = typeof KIT_BUNDLED_PARSE_WORKER === 'string' ? KIT_BUNDLED_PARSE_WORKER : undefined;
  const file = fileURLToPath(new URL(bundled ?? './parse-worker.js', import.meta.url));
  return existsSync(file) ? file : undefined;
}

/** Test hook: the main thread claims no batch; `fault` makes the first loading thread fail. */
export interface PoolTestHook {
  threadsOnly: boolean;
  fault?: Fault;
}

/**
 * Test hook, `KIT_TEST_PARSE_POOL`: `threads` has the main thread claim no batch, so that the
 * loading threads hold them all; `exit:<n>` and `hang:<n>` do the same, and the first loading
 * thread then exits, or hangs, while holding batch n (having analysed part of it).
 */
export function poolTestHook(value: string | undefined): PoolTestHook | undefined {
  const m = /^(exit|hang):(\d+)$/.exec(value ?? '');
  if (m) return { threadsOnly: true, fault: { kind: m[1] as Fault['kind'], batch: Number(m[2]) } };
  return value === 'threads' ? { threadsOnly: true } : undefined;
}

const NO_HOOK: PoolTestHook = { threadsOnly: false };

interface Loader {
  worker: Worker;
  port: MessagePort;
}

/** Receives a file in order: its analysis, or undefined when it must be read by the caller. */
export type InstallPooled = (index: number, file: PooledKit | undefined) => void;

/**
 * A load in progress: `step` hands the next batch over, so that a caller with requests to answer
 * meanwhile (the language server) can take turns; `analyseInPool` runs it to the end.
 */
export class ParsePool {
  private readonly batches: number;
  private readonly at: Int32Array;
  private readonly owner: Int32Array;
  private readonly hook: PoolTestHook;
  private readonly loaders: Loader[] = [];
  /** Batches analysed and not yet handed over, by index. */
  private readonly done = new Map<number, (PooledKit | null)[]>();
  private next = 0;
  /** Once a loading thread has let it down, the main thread waits for none: the pool stops. */
  private stopped = false;
  private closed = false;
  /** Files analysed by the loading threads so far. */
  received = 0;

  /** Starts the loading threads; undefined when none can be started (no worker module, 1 thread). */
  static start(job: PoolJob, threads: number): ParsePool | undefined {
    const file = workerFile();
    if (!file || threads < 2) return undefined;
    const pool = new ParsePool(job, file, threads - 1);
    if (pool.loaders.length) return pool;
    pool.close();
    return undefined;
  }

  private constructor(
    private readonly job: PoolJob,
    file: string,
    count: number,
  ) {
    this.hook = job.test ?? NO_HOOK;
    this.batches = Math.ceil(job.files.length / BATCH);
    const state = new SharedArrayBuffer(4 * stateSlots(count));
    const owners = new SharedArrayBuffer(4 * this.batches);
    this.at = new Int32Array(state);
    this.owner = new Int32Array(owners);
    // The probe of the disk is made again on the other side (a function does not cross threads).
    const options = { ...job.options, files: undefined };
    const parseJob: ParseJob = { files: job.files, options, cwd: job.cwd, batch: BATCH };
    for (let id = 0; id < count; id++) {
      const { port1, port2 } = new MessageChannel();
      const fault = id ? undefined : this.hook.fault;
      const data: ParseWorkerData = { id, port: port2, state, owners, job: parseJob, fault };
      try {
        const worker = new Worker(file, { workerData: data, transferList: [port2] });
        worker.unref();
        // A failing thread only means the main thread parses its batches.
        worker.on('error', () => undefined);
        this.loaders.push({ worker, port: port1 });
      } catch {
        port1.close();
        break;
      }
    }
  }

  /** Hands the next batch's files to `install`, in order; false once every file has been handed over. */
  step(install: InstallPooled): boolean {
    const b = this.next;
    if (b >= this.batches) return false;
    while (!this.done.has(b)) {
      this.drain();
      if (this.done.has(b)) break;
      const claimed = this.hook.threadsOnly ? this.batches : Atomics.add(this.at, NEXT, 1);
      if (claimed < this.batches) this.own(claimed);
      else if (this.stopped || !this.wait(b)) {
        this.stopped = true;
        Atomics.store(this.at, STOP, 1);
        this.own(b);
      }
    }
    const files = this.done.get(b)!;
    this.done.delete(b);
    this.next++;
    for (let k = 0; k < files.length; k++) install(b * BATCH + k, files[k] ?? undefined);
    return this.next < this.batches;
  }

  /** Stops the loading threads (the files not handed over are dropped). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    Atomics.store(this.at, STOP, 1);
    for (const l of this.loaders) {
      l.port.close();
      void l.worker.terminate();
    }
  }

  private drain(): void {
    for (const l of this.loaders)
      for (let m = receiveMessageOnPort(l.port); m; m = receiveMessageOnPort(l.port)) {
        const { batch, files } = m.message as ParsedBatch;
        if (this.done.has(batch) || batch < this.next) continue;
        this.received += files.length;
        reviveSpans(files);
        for (const f of files) if (f) unpackAnalysis(f.analysis);
        this.done.set(batch, files);
      }
  }

  private own(b: number): void {
    const out: (PooledKit | null)[] = [];
    for (let i = b * BATCH; i < Math.min(this.job.files.length, (b + 1) * BATCH); i++)
      out.push(analyseHere(this.job, i));
    this.done.set(b, out);
  }

  /** Waits for batch `b`, held by a loading thread; false when the main thread should do it. */
  private wait(b: number): boolean {
    const at = this.at;
    let idle = 0;
    let progress = -1;
    for (;;) {
      const seen = Atomics.load(at, DONE);
      this.drain();
      if (this.done.has(b)) return true;
      // No holder yet: a thread claiming it this instant, or (test hook) none started so far.
      const id = Atomics.load(this.owner, b) - 1;
      const gone =
        id < 0 ? this.loaders.every((_, k) => Atomics.load(at, deadSlot(k))) : Atomics.load(at, deadSlot(id));
      if (gone) return false;
      const p = id < 0 ? -1 : Atomics.load(at, progressSlot(id));
      if (p !== progress) {
        progress = p;
        idle = 0;
      }
      if (idle >= (id < 0 ? START_PATIENCE_MS : PATIENCE_MS)) return false;
      const t = performance.now();
      Atomics.wait(at, DONE, seen, 20);
      idle += performance.now() - t;
    }
  }
}

/**
 * Analyses `job.files` on `threads` threads and hands each file to `install` in order, synchronously:
 * its analysis, or undefined when it could not be read or decoded cleanly (the caller reads it
 * itself, and reports what it finds in its own words, in order). Answers how many files the
 * loading threads analysed, or undefined, having installed nothing, when none could be started.
 */
export function analyseInPool(job: PoolJob, threads: number, install: InstallPooled): number | undefined {
  const pool = ParsePool.start(job, threads);
  if (!pool) return undefined;
  try {
    while (pool.step(install));
  } finally {
    pool.close();
  }
  return pool.received;
}

/**
 * The main thread's own analysis of file `i`, its markup dropped at once as the loading threads'
 * is (not when it is installed, a few batches later); null when it reads with problems.
 */
function analyseHere(job: PoolJob, i: number): PooledKit | null {
  const { path, abs } = job.files[i];
  let text: string;
  try {
    const read = readSourceFile(abs, path);
    if (read.diagnostics.length) return null;
    text = read.text;
  } catch {
    return null;
  }
  const analysis = analyseKit(parseKit(text, path, { incremental: false }), job.options);
  dropMarkup(analysis.ast);
  return { text, analysis };
}
