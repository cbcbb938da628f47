// The thread of `write-thread.ts`: writes the batches of files it is sent, in order, with
// `FileWriter`, and answers each batch once written. After the first failure it writes nothing more
// and says which file failed and why.
import { parentPort, workerData } from 'node:worker_threads';
import { FileWriter } from './file-writer.js';

/** What the thread is started with. */
export interface WriteThreadData {
  root: string;
}

/** Files to write: `rels[i]` gets `contents[i]`. */
export interface WriteBatch {
  rels: string[];
  contents: (string | Uint8Array)[];
}

/** The answer to a batch: written, or the first file that failed and the system's error code. */
export interface WriteAnswer {
  failed?: { rel: string; code: string };
}

const port = parentPort!;
const writer = new FileWriter((workerData as WriteThreadData).root);
let failed = false;
port.on('message', (batch: WriteBatch) => {
  const answer: WriteAnswer = {};
  for (let i = 0; i < batch.rels.length && !failed; i++) {
    try {
      writer.write(batch.rels[i], batch.contents[i]);
    } catch (e) {
      failed = true;
      answer.failed = { rel: batch.rels[i], code: (e as NodeJS.ErrnoException).code ?? String(e) };
    }
  }
  port.postMessage(answer);
});
