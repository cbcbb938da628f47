// The language server's cold index with binding on a worker thread (`bind-host.ts`): it publishes
// what a server binding in its own thread publishes, and edits afterwards re-bind in the server's
// thread exactly as a fresh server on the edited folder binds. (A module the editor holds with other
// text than the disk's: open-at-start.e2e.test.ts.)
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '../../helpers/repo.js';
import { fileUri } from './helpers/lsp-client.js';
import { boundServer, published, Scratch } from './helpers/indexed.js';

describe('kit lsp: binding on a worker thread while indexing', function () {
  this.timeout(60000);
  const scratch = new Scratch('kit-lsp-bindworker-');
  let dir: string;

  beforeEach(() => {
    dir = scratch.dir(fixture('bind'));
  });

  afterEach(() => scratch.done());

  it('publishes what an own-thread server publishes, and edits re-bind as a fresh server binds', async () => {
    const client = await boundServer(dir, { KIT_BIND_WORKER: '1' });
    const own = await boundServer(dir, { KIT_BIND_WORKER: '0' });
    scratch.keep(client, own);
    const stats = await client.request<{ prebound: number }>('kit/stats', {});
    assert.ok(stats.prebound > 0, 'the worker bound');
    assert.equal((await own.request<{ prebound: number }>('kit/stats', {})).prebound, 0);
    const first = await published(client);
    assert.match(first, /unsupported_backend_signature/);
    assert.equal(first, await published(own));

    const handlers = join(dir, 'signatures', 'handlers.ts');
    const loaded = fileUri(join(dir, 'signatures', 'loaded.kit'));
    writeFileSync(handlers, readFileSync(handlers, 'utf8').replace('{ title: string }', '{ name: string }'));
    const missingField = client.waitForDiagnostics(loaded, (d) =>
      d.diagnostics.some((x) => x.code === 'load_missing_field'),
    );
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: fileUri(handlers), type: 2 }],
    });
    await missingField;
    const fresh = await boundServer(dir, { KIT_BIND_WORKER: '0' });
    scratch.keep(fresh);
    assert.equal(await published(client), await published(fresh));
  });
});
