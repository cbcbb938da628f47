// The reading side of `read-ahead.ts`, run in a worker thread: reads the listed files in order, a
// batch at a time, skipping whatever the main thread has already reached and never running more
// than `window` files ahead of it. A file it cannot read, or one with a decoding problem, is marked
// so: the main thread reads it again itself and reports the problem with its own wording.
import { readSourceFile } from './read-source.js';
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
 * file k is the next `lengths[k]` characters, or unreadable when `lengths[k]` is -1.
 */
export interface ReadAheadBatch {
  from: number;
  lengths: number[];
  text: string;
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
  for (; i < paths.length && lengths.length < batch; i++) {
    try {
      const { text, diagnostics } = readSourceFile(paths[i], paths[i]);
      if (diagnostics.length) lengths.push(-1);
      else {
        texts.push(text);
        lengths.push(text.length);
      }
    } catch {
      lengths.push(-1);
    }
  }
  if (lengths.length) port.postMessage({ from, lengths, text: texts.join('') } satisfies ReadAheadBatch);
}
port.close();
