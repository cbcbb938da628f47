// The loading thread of `parse-pool.ts`: claims batches of `.kit` files from the queue it shares
// with the main thread and the other loading threads, reads, parses and analyses each file
// (`analyseKit`) and posts the results back, without the view and fragment markup (the main thread
// re-parses that from the text if anything reads it). A file it cannot read, or one with a decoding
// problem, is left to the main thread, which reports it in its own words.
import { workerData, type MessagePort } from 'node:worker_threads';
import { parseKit } from '#grammar/index.js';
import { analyseKit } from '../workspace/analyse-kit.js';
import type { CheckOptions } from '../model/options.js';
import { diskFiles } from './disk-files.js';
import { readSourceFile } from './read-source.js';
import { deadSlot, DONE, dropMarkup, NEXT, packAnalysis, progressSlot, STOP, type PooledKit } from './parse-shared.js';

export interface ParseJob {
  /** Workspace paths (as diagnostics name them) and absolute paths, in load order. */
  files: readonly { path: string; abs: string }[];
  batch: number;
  /** The check options but `files`: the disk is asked, relative to `cwd`. */
  options: CheckOptions;
  cwd: string;
}

export interface ParseWorkerData {
  id: number;
  port: MessagePort;
  /** Int32 slots, see `parse-shared.ts`. */
  state: SharedArrayBuffer;
  /** Int32 per batch: 1 + the id of the loading thread that claimed it, 0 when the main thread did. */
  owners: SharedArrayBuffer;
  job: ParseJob;
  /** Test hook (`testHook` in parse-pool.ts). */
  fault?: Fault;
}

/** Exit, or hang, after analysing part of batch `batch` (a test hook). */
export interface Fault {
  kind: 'exit' | 'hang';
  batch: number;
}

export interface ParsedBatch {
  batch: number;
  /** Per file of the batch: its analysis, or null when the main thread must read it itself. */
  files: (PooledKit | null)[];
}

const { id, port, state, owners, job, fault } = workerData as ParseWorkerData;
const at = new Int32Array(state);
const owner = new Int32Array(owners);
const options: CheckOptions = { ...job.options, files: diskFiles(job.cwd) };

// However the thread ends (an exit mid-batch included), the main thread stops waiting for it.
process.on('exit', () => {
  Atomics.store(at, deadSlot(id), 1);
  Atomics.add(at, DONE, 1);
  Atomics.notify(at, DONE);
});

function analyse(file: { path: string; abs: string }): PooledKit | null {
  let text: string;
  try {
    const read = readSourceFile(file.abs, file.path);
    if (read.diagnostics.length) return null;
    text = read.text;
  } catch {
    return null;
  }
  const analysis = analyseKit(parseKit(text, file.path, { incremental: false }), options);
  // Sending markup back would cost more than parsing it again where it is read.
  dropMarkup(analysis.ast);
  return { text, analysis: packAnalysis(analysis) };
}

const batches = Math.ceil(job.files.length / job.batch);
for (;;) {
  if (Atomics.load(at, STOP)) break;
  const b = Atomics.add(at, NEXT, 1);
  if (b >= batches) break;
  Atomics.store(owner, b, id + 1);
  const out: (PooledKit | null)[] = [];
  for (let i = b * job.batch; i < Math.min(job.files.length, (b + 1) * job.batch); i++) {
    if (fault?.batch === b && i === b * job.batch + 2) {
      if (fault.kind === 'exit') process.exit(70);
      const never = new Int32Array(new SharedArrayBuffer(4));
      for (;;) Atomics.wait(never, 0, 0);
    }
    out.push(analyse(job.files[i]));
    Atomics.add(at, progressSlot(id), 1);
  }
  port.postMessage({ batch: b, files: out } satisfies ParsedBatch);
  Atomics.add(at, DONE, 1);
  Atomics.notify(at, DONE);
}
port.close();
