// With tracing off, a request allocates nothing for tracing: a static GET through the whole app
// (`KitApp.handle`, the prebuilt answer) allocates nothing at all per request, so neither does
// anything the tracing code does on that path.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runProbe } from '../../helpers/alloc.js';
import { outDir } from '../../helpers/repo.js';

describe('app: allocation per request with tracing off', () => {
  it('a static GET allocates nothing per request over half a million requests', function () {
    this.timeout(60_000);
    const probe = join(outDir, 'test', 'shared', 'app', 'alloc-probe-app.js');
    const { bytesPerRequest, collections, sent } = runProbe(probe) as {
      bytesPerRequest: number;
      collections: number;
      sent: number;
    };
    assert.ok(sent > 500_000, `every request was answered (${sent})`);
    assert.equal(collections, 0, 'no garbage collection ran during the measured requests');
    assert.ok(bytesPerRequest < 0.1, `${bytesPerRequest} bytes per request`);
  });
});
