// The reading side of `read-ahead.ts`, run in a worker thread: reads the listed files in order, a
// batch at a time, skipping whatever the main thread has already reached and never running more
// than `window` files ahead of it, each the quick way (`readListedSource`: no `stat` before the
// open). A file it cannot read that way, or one with a decoding problem, is marked so: the main
// thread reads it again itself, with every check, and reports the problem with its own wording.
import { readListedSource } from './read-source.js';
import type { FileState } from './source-bytes.js';
import { workerData, type MessagePort } from 'node:worker_threads';

export interface ReadAheadData {
  paths: readonly string[];
  /** Int32 [0]: the index of the file the main thread needs next. */
  position: SharedArrayBuffer;
  port: MessagePort;
  batch: number;
  window: number;
}

/**
 * Files `from`, `from + 1`, ... as one string (one message to decode instead of one per file):
 * file k is the next `lengths[k]` characters, or unreadable when `lengths[k]` is -1; `states[k]`
 * is what the file system said of it as it was read (`FileState`; null when unreadable).
 */
export interface ReadAheadBatch {
  from: number;
  lengths: number[];
  text: string;
  states: (FileState | null)[];
}

const { paths, position, port, batch, window } = workerData as ReadAheadData;
const at = new Int32Array(position);
let i = 0;
while (i < paths.length) {
  const main = Atomics.load(at, 0);
  if (i < main) i = main;
  // Far enough ahead: sleep until the main thread moves (or a moment passes).
  if (i - main >= window) {
    Atomics.wait(at, 0, main, 50);
    continue;
  }
  const from = i;
  const texts: string[] = [];
  const lengths: number[] = [];
  const states: (FileState | null)[] = [];
  for (; i < paths.length && lengths.length < batch; i++) {
    const read = readListedSource(paths[i], paths[i]);
    if (read === undefined || read.diagnostics.length) {
      lengths.push(-1);
      states.push(null);
    } else {
      texts.push(read.text);
      lengths.push(read.text.length);
      states.push(read.state ?? null);
    }
  }
  if (lengths.length) port.postMessage({ from, lengths, text: texts.join(''), states } satisfies ReadAheadBatch);
}
port.close();
