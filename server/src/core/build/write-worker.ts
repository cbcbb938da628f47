// The thread of `write-thread.ts`: writes the batches of files it is sent, in order, with
// `FileWriter`, and answers each batch once written. After the first failure it writes nothing more
// and says which file failed and why. Asked for the entries at the end, it answers what the file
// system says of every file and directory it wrote (`FileWriter.entries`).
import { parentPort, workerData } from 'node:worker_threads';
import { FileWriter, type OutputEntries } from './file-writer.js';

/** Where the thread writes: given when it is started, or as its first message (a thread started ahead). */
export interface WriteThreadData {
  root: string;
  /** Whether to keep each file's entry for `entries`. */
  entries: boolean;
}

/**
 * Files to write: `rels[i]` gets `contents[i]`; files written before to remove again; or, once all
 * are sent, a request for the entries.
 */
export type WriteMessage = WriteBatch | { remove: string[] } | { entries: true } | { start: WriteThreadData };

export interface WriteBatch {
  rels: string[];
  contents: (string | Uint8Array)[];
}

/** The answer to a batch: written, or the first file that failed and the system's error code; or the entries. */
export interface WriteAnswer {
  failed?: { rel: string; code: string };
  entries?: OutputEntries;
}

const port = parentPort!;
const started = (data: WriteThreadData) => new FileWriter(data.root, data.entries);
let writer = workerData ? started(workerData as WriteThreadData) : undefined;
let failed = false;
port.on('message', (m: WriteMessage) => {
  if ('start' in m) {
    writer = started(m.start);
    return;
  }
  if (writer === undefined) throw new Error('the writing thread was sent files before its output directory');
  const answer: WriteAnswer = {};
  if ('entries' in m) {
    if (!failed) {
      try {
        answer.entries = writer.entries();
      } catch {
        // A file gone meanwhile: the caller takes the entries itself.
      }
    }
    port.postMessage(answer);
    return;
  }
  if ('remove' in m) {
    for (const rel of m.remove) {
      if (failed) break;
      try {
        writer.remove(rel);
      } catch (e) {
        failed = true;
        answer.failed = { rel, code: (e as NodeJS.ErrnoException).code ?? String(e) };
      }
    }
    port.postMessage(answer);
    return;
  }
  for (let i = 0; i < m.rels.length && !failed; i++) {
    try {
      writer.write(m.rels[i], m.contents[i]);
    } catch (e) {
      failed = true;
      answer.failed = { rel: m.rels[i], code: (e as NodeJS.ErrnoException).code ?? String(e) };
    }
  }
  port.postMessage(answer);
});
