// What a workspace keeps of a file's earlier versions: nothing. An LRU of visible ranges keyed by
// entry (`model/cross-shape.ts`) once kept up to 64 versions of a file read again and again as a
// whole, each with its whole tree: about 4 MB each for this 2,100-line view, 1.8 GB for the language
// server benchmark's 10,000-line one.
import { strict as assert } from 'node:assert';
import { fileURLToPath } from 'node:url';
import { runProbe } from '#test/helpers/alloc.js';

describe('workspace: earlier versions of a file re-read whole', function () {
  this.timeout(60000);

  it('keeps none of them', () => {
    const { first, last } = runProbe(fileURLToPath(new URL('./retained-probe.js', import.meta.url))) as {
      first: number;
      last: number;
    };
    // Kept versions would add about 4 MB each (over 250 MB for 64 of them). What does grow, once, is
    // V8's space for large objects (hash tables of the per-element memos): about 17 MB.
    assert.ok(last - first < 64, `retained heap grew ${(last - first).toFixed(1)} MB over 68 reads`);
  });
});
