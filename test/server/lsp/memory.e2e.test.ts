// What the language server lets go once a folder is indexed (the binder's parsed modules), and that
// nothing changes for it: edits afterwards publish what a server started on the edited folder does.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '../../helpers/repo.js';
import { fileUri } from './helpers/lsp-client.js';
import { boundServer, published, Scratch } from './helpers/indexed.js';

interface Stats {
  rss: number;
  heapUsed: number;
  parsedModules: number;
}

describe('kit lsp memory after indexing', function () {
  this.timeout(60000);
  const scratch = new Scratch('kit-lsp-mem-');
  let dir: string;

  beforeEach(() => {
    dir = scratch.dir(fixture('bind'));
  });

  afterEach(() => scratch.done());

  it('forgets the parsed handler modules once bound; later edits publish what a fresh server does', async () => {
    const client = await boundServer(dir);
    scratch.keep(client);
    const indexed = await client.request<Stats>('kit/stats', {});
    assert.equal(indexed.parsedModules, 0, 'binding state is released after the first binding');
    assert.match(await published(client), /unsupported_backend_signature/);

    // A module edit needing the type checker (the load's result loses its field) and one re-binding
    // by syntax alone (a handler gains a third parameter), then a .kit edit that adds an endpoint.
    const handlers = join(dir, 'signatures', 'handlers.ts');
    const loaded = fileUri(join(dir, 'signatures', 'loaded.kit'));
    writeFileSync(
      handlers,
      readFileSync(handlers, 'utf8')
        .replace('{ title: string }', '{ name: string }')
        .replace(
          'export function Plain(ctx: unknown): Response',
          'export function Plain(ctx: unknown, a: string, b: string): Response',
        ),
    );
    const missingField = client.waitForDiagnostics(loaded, (d) =>
      d.diagnostics.some((x) => x.code === 'load_missing_field'),
    );
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: fileUri(handlers), type: 2 }],
    });
    await missingField;
    const other = join(dir, 'other', 'other.kit');
    writeFileSync(other, readFileSync(other, 'utf8').replace(/\nview \{/, '\nact Later POST "/other/later"\n\nview {'));
    const later = client.waitForDiagnostics(fileUri(other), (d) =>
      d.diagnostics.some((x) => String(x.message).includes('Later')),
    );
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: fileUri(other), type: 2 }],
    });
    await later;
    const edited = await published(client);
    assert.ok((await client.request<Stats>('kit/stats', {})).parsedModules > 0, 'the modules are parsed again');

    const fresh = await boundServer(dir);
    scratch.keep(fresh);
    assert.equal(edited, await published(fresh));
    assert.match(edited, /Plain has an unsupported signature/);
    assert.match(edited, /load_missing_field/);
    assert.match(edited, /action handler Later is not implemented/);
  });
});
