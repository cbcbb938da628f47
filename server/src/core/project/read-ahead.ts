// Reading many source files while the main thread parses. Each file read costs a handful of system
// calls; for a large workspace that is a tenth of a check spent waiting in the kernel. A worker
// thread reads the files ahead of the main thread and posts them in batches; the main thread picks
// them up without ever blocking, and reads any file that has not arrived yet itself. So the worker
// can only save time: the order of the files, their contents and every error stay exactly those of
// reading them one by one on the main thread.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { ReadAheadBatch, ReadAheadData } from './read-ahead-worker.js';
import type { FileState } from './source-bytes.js';

/** Below this many files, starting a thread costs more than it saves. */
export const READ_AHEAD_MIN_FILES = 256;
const BATCH = 64;
/** How far (in files) the worker may run ahead: bounds the texts waiting in the queue. */
const WINDOW = 4096;
/** The main thread wakes a waiting worker after this many files (waking costs a system call). */
const WAKE_EVERY = 1024;

/** A file the worker read: its text, and what the file system said of it then. */
export interface ReadAheadFile {
  text: string;
  state: FileState | undefined;
}

export class ReadAhead {
  private readonly texts: (string | undefined)[];
  private readonly states: (FileState | null | undefined)[];
  private woke = 0;
  private readonly at: Int32Array | undefined;
  private readonly port: MessagePort | undefined;
  private readonly worker: Worker | undefined;

  /** `paths`: absolute paths, in the order `take` will ask for them. */
  constructor(paths: readonly string[], minFiles = READ_AHEAD_MIN_FILES) {
    this.texts = new Array(paths.length);
    this.states = new Array(paths.length);
    if (paths.length < minFiles) return;
    const position = new SharedArrayBuffer(4);
    const { port1, port2 } = new MessageChannel();
    const data: ReadAheadData = { paths, position, port: port2, batch: BATCH, window: WINDOW };
    try {
      this.worker = new Worker(new URL('./read-ahead-worker.js', import.meta.url), {
        workerData: data,
        transferList: [port2],
      });
    } catch {
      port1.close();
      return; // no thread: every file is read on the main thread
    }
    this.worker.unref();
    // A failing worker only means the main thread reads the rest itself.
    this.worker.on('error', () => undefined);
    this.at = new Int32Array(position);
    this.port = port1;
  }

  /**
   * File `index` if the worker has read it, else undefined (read it yourself). Files must be taken
   * in increasing order; each is handed out once.
   */
  take(index: number): ReadAheadFile | undefined {
    if (!this.port || !this.at) return undefined;
    Atomics.store(this.at, 0, index + 1);
    if (index - this.woke >= WAKE_EVERY) {
      this.woke = index;
      Atomics.notify(this.at, 0);
    }
    if (this.texts[index] === undefined) {
      for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) {
        const { from, lengths, text, states } = m.message as ReadAheadBatch;
        let at = 0;
        for (let k = 0; k < lengths.length; k++) {
          if (lengths[k] < 0) continue;
          this.texts[from + k] = text.slice(at, at + lengths[k]);
          this.states[from + k] = states[k];
          at += lengths[k];
        }
      }
    }
    const text = this.texts[index];
    if (text === undefined) return undefined;
    const state = this.states[index] ?? undefined;
    this.texts[index] = undefined;
    this.states[index] = undefined;
    return { text, state };
  }

  /** Stops the worker (the files not taken are dropped). */
  close(): void {
    this.port?.close();
    void this.worker?.terminate();
  }
}
