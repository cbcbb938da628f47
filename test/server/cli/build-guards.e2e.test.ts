// A page behind a protective guard never reaches the static output: `--out` is meant for hosts that
// serve every file to anyone. Built ahead of time (render spa) such a page is a check error; a
// hybrid or SSR page is rendered per request by the app, whatever flags the build is given.
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFixture, listFiles, removeDir, tempDir } from '../core/build/helpers.js';
import { repoRoot } from '../../helpers/repo.js';
import { runInProcess } from './cli-harness.js';

const SECRETS = /SECRET-[A-Z-]+/;

describe('kit build: guarded pages and the static output', function () {
  this.timeout(60000);
  let tmp: string;
  beforeEach(() => {
    tmp = tempDir('guards');
  });
  afterEach(() => removeDir(tmp));

  for (const flags of [['--ssr'], ['--ssr', '--strict-bindings'], ['--ssr', '--app', 'app']]) {
    it(`writes no guarded page's content anywhere under --out (${flags.join(' ')})`, async () => {
      const out = join(tmp, 'dist');
      const argv = ['build', ...flags.map((f) => (f === 'app' ? join(tmp, 'app') : f)), '--out', out];
      const r = await runInProcess([...argv, buildFixture('guarded')], { cwd: repoRoot });
      assert.equal(r.code, 0, r.stderr);
      const files = listFiles(out);
      assert.ok(files.includes('index.html'), files.join(', '));
      for (const f of files) {
        const text = readFileSync(join(out, f), 'latin1');
        assert.doesNotMatch(text, SECRETS, `${f} holds a guarded page's content`);
      }
      for (const f of ['admin/index.html', 'reports/2024/index.html', 'ledger/index.html'])
        assert.ok(!files.includes(f), `${f} was written`);
      const manifest = JSON.parse(readFileSync(join(out, 'kit-routes.json'), 'utf8')) as {
        routes: { page: string }[];
      };
      assert.deepEqual(
        manifest.routes.map((x) => x.page),
        ['home'],
      );
      if (flags.includes('--app')) {
        // The app's copy of the static files holds none of it either.
        for (const f of listFiles(join(tmp, 'app', 'static')))
          assert.doesNotMatch(readFileSync(join(tmp, 'app', 'static', f), 'latin1'), SECRETS, f);
      }
    });
  }

  it('refuses a guarded page built ahead of time, writes nothing and names the place', async () => {
    const src = join(tmp, 'src');
    cpSync(join(repoRoot, buildFixture('guarded')), src, { recursive: true });
    writeFileSync(join(src, 'admin.kit'), readFileSync(join(src, 'admin.kit'), 'utf8').replace('render hybrid\n', ''));
    const out = join(tmp, 'dist');
    const r = await runInProcess(['build', '--ssr', '--out', out, src], { cwd: tmp });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /src\/admin\.kit:4:7: error guard_requires_request_render: admin: guard "auth\.required"/);
    assert.ok(!existsSync(out), 'nothing is written');
  });
});
