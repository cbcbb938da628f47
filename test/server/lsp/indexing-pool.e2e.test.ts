// The language server's first index of a folder on loading threads (`KIT_WORKERS`) publishes what
// one thread does, and a document open in the editor before the index keeps its own text and tree.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeGeneratedSite } from '../core/project/generated-site.js';
import { fileUri, LspClient } from './helpers/lsp-client.js';
import { published, Scratch } from './helpers/indexed.js';

const POOL_ENV = ['KIT_WORKERS', 'KIT_WORKERS_MIN_FILES', 'KIT_TEST_PARSE_POOL'] as const;

describe('kit lsp indexing on loading threads', function () {
  this.timeout(120_000);
  const scratch = new Scratch('kit-lsp-pool-');
  let dir: string;

  before(() => {
    dir = scratch.dir();
    writeGeneratedSite(dir, 6, 40);
  });

  after(() => scratch.done());

  /**
   * A server started with `env` (the child takes the environment at its start) on `dir`, with
   * `open` opened (its text edited) before indexing starts; answers everything it published.
   */
  async function indexed(env: Record<string, string>, open: string): Promise<string> {
    const saved = POOL_ENV.map((k) => process.env[k]);
    Object.assign(process.env, env);
    const client = LspClient.start();
    POOL_ENV.forEach((k, i) => {
      if (saved[i] === undefined) delete process.env[k];
      else process.env[k] = saved[i];
    });
    scratch.keep(client);
    await client.initialize([dir], { sendInitialized: false });
    const edited = readFileSync(join(dir, open), 'utf8').replace('<p>Text</p>', '<p id="top">Twice</p>');
    await client.open(fileUri(join(dir, open)), edited);
    const ready = client.waitForStatuses(1, 60_000);
    await client.conn.sendNotification('initialized', {});
    await ready;
    const answers = await published(client);
    await client.shutdown();
    return answers;
  }

  it('publishes the same diagnostics and routes on 1 and 2 threads; the open buffer wins', async () => {
    const open = 'd2/p0.kit';
    const one = await indexed({ KIT_WORKERS: '1' }, open);
    const two = await indexed({ KIT_WORKERS: '2', KIT_WORKERS_MIN_FILES: '50', KIT_TEST_PARSE_POOL: 'threads' }, open);
    assert.equal(two, one);
    const files = (JSON.parse(one) as { files: [string, { code: string }[]][] }).files;
    const mine = files.find(([uri]) => uri === fileUri(join(dir, open)));
    assert.deepEqual(
      mine?.[1].map((d) => d.code),
      ['duplicate_id'],
      'the open document is checked as the editor has it',
    );
    assert.ok(files.length > 10);
  });
});
