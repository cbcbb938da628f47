// Documents the editor has open when the language server starts (VS Code reopens the last session's
// tabs before the folder is indexed): their text is what the model holds, handler modules included.
// A module opened before its directory's `.kit` files were read belongs nowhere yet when it opens;
// it used to be left out of the model altogether, and every handler of its directory reported
// missing.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fixture } from '../../helpers/repo.js';
import { fileUri } from './helpers/lsp-client.js';
import { boundServer, published, Scratch } from './helpers/indexed.js';

describe('kit lsp: documents open when the server starts', function () {
  this.timeout(60000);
  const scratch = new Scratch('kit-lsp-open-');
  const copy = () => scratch.dir(fixture('bind'));

  afterEach(() => scratch.done());

  for (const worker of ['0', '1'])
    it(`binds an open handler module's unsaved text (binding worker ${worker === '1' ? 'on' : 'off'})`, async () => {
      const dir = copy();
      const handlers = join(dir, 'signatures', 'handlers.ts');
      const edited = readFileSync(handlers, 'utf8').replace('{ title: string }', '{ name: string }');
      assert.notEqual(edited, readFileSync(handlers, 'utf8'));
      const client = await boundServer(dir, { KIT_BIND_WORKER: worker }, (c) =>
        c.open(fileUri(handlers), edited, 1, 'typescript'),
      );
      scratch.keep(client);
      const got = await published(client);
      const loaded = client.diagnostics.get(fileUri(join(dir, 'signatures', 'loaded.kit')))?.diagnostics ?? [];
      assert.deepEqual(loaded.map((d) => d.code).sort(), ['load_missing_field', 'missing_ssr_addon']);
      // The same as a server that finds that text on the disk.
      const saved = copy();
      writeFileSync(join(saved, 'signatures', 'handlers.ts'), edited);
      const fresh = await boundServer(saved, { KIT_BIND_WORKER: worker });
      scratch.keep(fresh);
      // Paths and the folder's name aside.
      const shown = (text: string, d: string) => text.split(d).join('<dir>').split(basename(d)).join('<dir>');
      assert.equal(shown(got, dir), shown(await published(fresh), saved));
      // The binding worker is given the model's texts: the buffer's.
      const prebound = (await client.request<{ prebound: number }>('kit/stats', {})).prebound;
      assert.equal(prebound > 0, worker === '1');
    });
});
