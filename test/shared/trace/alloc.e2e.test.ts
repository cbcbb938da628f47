import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runProbe } from '../../helpers/alloc.js';
import { outDir } from '../../helpers/repo.js';

describe('trace: allocation of disabled spans', () => {
  it('alwaysOff start/end allocates nothing over a million calls', function () {
    this.timeout(60_000);
    const probe = join(outDir, 'test', 'shared', 'trace', 'alloc-probe.js');
    const results = runProbe(probe) as Record<string, { bytesPerCall: number; collections: number }>;
    for (const [ctx, { bytesPerCall, collections }] of Object.entries(results)) {
      assert.equal(collections, 0, `${ctx}: no garbage collection ran during a million disabled spans`);
      // The smallest allocation per call would show as 16 bytes per call; the bound leaves room for the few
      // kilobytes a (re)compilation of the loop can add to a million-call window on a busy machine.
      assert.ok(bytesPerCall < 0.1, `${ctx}: ${bytesPerCall} bytes per disabled start/end`);
    }
  });
});
