// The static build's files written on a thread of their own, while the main thread compiles and
// renders the next pages: the system calls of creating directories and files (a third of a large
// build's main thread before) run on the machine's other core. One thread writes them one at a
// time, as `writeStaticSite` does: measured on ext4, the same 4,000 files written through libuv's
// pool, several at once, took 1.3-1.8x the wall time and twice the system CPU of one-at-a-time
// writes (creating entries in one directory serialises on it, and the threads contend). Files go
// in batches (one message each); at most a few batches are on their way at once, so rendered pages
// never pile up. Without a thread (one cannot be started), the files are written here.
import { Worker } from 'node:worker_threads';
import { FileWriter, type OutputEntries } from './file-writer.js';
import type { WriteAnswer, WriteBatch, WriteMessage, WriteThreadData } from './write-worker.js';

/** Files per message. */
const BATCH = 32;
/** Batches sent and not yet written: how far rendering may run ahead of writing. */
const IN_FLIGHT = 4;

export interface WriteFailure {
  rel: string;
  code: string;
}

/** A thread started ahead (`startWriteThreadAhead`), waiting for its output directory. */
let ahead: Worker | undefined;

/**
 * Starts the writing thread now, while the build still reads and checks the sources: starting one
 * (a Node.js thread, its modules loaded) takes some 70 ms, which otherwise delayed the first write.
 * The next `WriteThread` takes it; one never taken does not keep the process alive.
 */
export function startWriteThreadAhead(): void {
  if (ahead) return;
  try {
    const worker = new Worker(new URL('./write-worker.js', import.meta.url), { workerData: null });
    worker.unref();
    // A thread that fails or stops before it is taken (none is expected to) is not taken.
    const lost = () => {
      if (ahead === worker) ahead = undefined;
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    ahead = worker;
  } catch {
    ahead = undefined;
  }
}

function startedWorker(data: WriteThreadData): Worker {
  const worker = ahead;
  ahead = undefined;
  if (worker === undefined) return new Worker(new URL('./write-worker.js', import.meta.url), { workerData: data });
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  worker.ref();
  worker.postMessage({ start: data } satisfies WriteMessage);
  return worker;
}

export class WriteThread {
  private readonly worker: Worker | undefined;
  private readonly here: FileWriter | undefined;
  private batch: WriteBatch = { rels: [], contents: [] };
  private inFlight = 0;
  private wake: (() => void) | undefined;
  private failure: WriteFailure | undefined;
  private exited: Error | undefined;
  private entries: OutputEntries | undefined;

  /**
   * `withEntries`: `finish` answers what the file system says of what was written
   * (`FileWriter.entries`). `idle`: work for this thread while it waits for the writing one (a
   * slice per call; false once none is left): the last pages render faster than they are written.
   */
  constructor(
    root: string,
    private readonly withEntries = false,
    private idle?: () => boolean,
  ) {
    try {
      this.worker = startedWorker({ root, entries: withEntries });
    } catch {
      this.here = new FileWriter(root, withEntries);
      return;
    }
    this.worker.on('message', (a: WriteAnswer) => {
      this.inFlight--;
      if (a.failed && !this.failure) this.failure = a.failed;
      if (a.entries) this.entries = a.entries;
      this.notify();
    });
    const lost = (e: Error) => {
      this.exited ??= e;
      this.notify();
    };
    this.worker.on('error', lost);
    this.worker.on('exit', () => lost(new Error('the writing thread stopped')));
  }

  /** Queues a file; waits while enough are on their way. Throws an earlier file's failure. */
  async write(rel: string, content: string | Uint8Array): Promise<void> {
    this.check();
    if (this.here) {
      this.onHere(rel, () => this.here!.write(rel, content));
      this.check();
      return;
    }
    if (this.queue(rel, content)) await this.send();
  }

  /**
   * Queues a file without waiting, however many are on their way: for files written while the
   * sources still load (`EarlyOutput`), when this thread has nothing else to do. A failure is
   * not thrown here but by the next `write` or `finish`.
   */
  post(rel: string, content: string): void {
    if (this.failure || this.exited) return;
    if (this.here) this.onHere(rel, () => this.here!.write(rel, content));
    else if (this.queue(rel, content)) this.dispatch();
  }

  /** Removes files written before (and the directories they leave empty), after those queued. */
  async remove(rels: string[]): Promise<void> {
    this.check();
    if (this.here) {
      for (const rel of rels) {
        this.onHere(rel, () => this.here!.remove(rel));
        this.check();
      }
      return;
    }
    if (this.batch.rels.length > 0) await this.send();
    await this.send({ remove: rels });
  }

  /** Sets the work done while waiting for the thread (see the constructor). */
  set whileWaiting(idle: (() => boolean) | undefined) {
    this.idle = idle;
  }

  /** Does `act` for the file `rel` on this thread (no thread could be started); its failure is kept, the first one. */
  private onHere(rel: string, act: () => void): void {
    try {
      act();
    } catch (e) {
      this.failure ??= { rel, code: (e as NodeJS.ErrnoException).code ?? String(e) };
    }
  }

  /** Adds a file to the batch being filled; true once the batch is full. */
  private queue(rel: string, content: string | Uint8Array): boolean {
    this.batch.rels.push(rel);
    this.batch.contents.push(content);
    return this.batch.rels.length >= BATCH;
  }

  /** Sends `message` (by default the batch being filled) without waiting. */
  private dispatch(message?: WriteMessage): void {
    if (message === undefined) {
      message = this.batch;
      this.batch = { rels: [], contents: [] };
    }
    this.inFlight++;
    this.worker!.postMessage(message);
  }

  /**
   * Waits until every file is written; throws the first failure. Stops the thread. Answers the
   * entries when asked for at the start and the thread could take them (undefined otherwise: the
   * caller takes them itself).
   */
  async finish(): Promise<OutputEntries | undefined> {
    try {
      if (this.here) return this.hereEntries();
      if (this.batch.rels.length > 0) await this.send();
      if (this.withEntries) await this.send({ entries: true });
      while (this.inFlight > 0 && !this.exited) await this.wait();
      this.check();
      return this.entries;
    } finally {
      await this.worker?.terminate();
    }
  }

  private hereEntries(): OutputEntries | undefined {
    try {
      return this.here!.entries();
    } catch {
      return undefined;
    }
  }

  private async send(message?: WriteMessage): Promise<void> {
    while (this.inFlight >= IN_FLIGHT && !this.exited) await this.wait();
    this.check();
    this.dispatch(message);
  }

  /** Until the writing thread answers; meanwhile a slice of idle work, if any is left. */
  private wait(): Promise<void> {
    if (this.idle?.()) return new Promise((ok) => setImmediate(ok));
    this.idle = undefined;
    return this.next();
  }

  private next(): Promise<void> {
    return new Promise((ok) => (this.wake = ok));
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private check(): void {
    if (this.failure) throw new WriteFailed(this.failure);
    if (this.exited && this.inFlight > 0) throw this.exited;
  }
}

/** A file the thread (or this one) could not write, with the system's error code. */
export class WriteFailed extends Error {
  constructor(readonly failure: WriteFailure) {
    super(`cannot write ${failure.rel}: ${failure.code}`);
  }
}
