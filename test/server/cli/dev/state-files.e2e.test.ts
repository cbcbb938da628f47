// The files `kit dev` keeps in the project's `.kit/` (the dev CSRF secret, `dev.json`, the folder's
// `.gitignore`) are written owner-only through a temporary file renamed into place: a symbolic link
// planted at one of those paths is replaced by a regular file, never written through; an existing
// 0644 secret becomes 0600; a `.kit` that is itself a link stops `kit dev` with a line naming it.
// Through the real CLI on temporary copies of test/fixtures/dev/site.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, copyFixture, startDev } from './dev-harness.js';

const mode = (p: string) => lstatSync(p).mode & 0o777;

describe('kit dev: the files it writes under .kit/', function () {
  this.timeout(60000);
  if (process.platform === 'win32') return;

  it('replaces a symbolic link at each of its paths by an owner-only file, and leaves the targets alone', async () => {
    const dir = copyFixture('dev', 'site');
    const state = join(dir, '.kit');
    mkdirSync(state);
    const victims = ['victim-secret', 'victim-dev', 'victim-ignore'].map((n) => join(dirname(dir), n));
    for (const v of victims) writeFileSync(v, 'precious\n', { mode: 0o644 });
    symlinkSync(victims[0], join(state, 'dev-csrf-secret'));
    symlinkSync(victims[1], join(state, 'dev.json'));
    symlinkSync(victims[2], join(state, '.gitignore'));
    const dev = await startDev(dir);
    try {
      for (const v of victims) {
        assert.equal(readFileSync(v, 'utf8'), 'precious\n', `${v} is not written through`);
        assert.equal(mode(v), 0o644);
      }
      for (const name of ['dev-csrf-secret', 'dev.json', '.gitignore']) {
        const p = join(state, name);
        assert.ok(lstatSync(p).isFile(), `${name} is a regular file now`);
        assert.equal(mode(p), 0o600, `${name} is owner-only`);
      }
      assert.match(readFileSync(join(state, 'dev-csrf-secret'), 'utf8'), /^[0-9a-f]{64}\n$/);
      assert.equal(JSON.parse(readFileSync(join(state, 'dev.json'), 'utf8')).url, dev.url);
      assert.deepEqual(
        readdirSync(state).filter((f) => f.endsWith('.tmp')),
        [],
        'no temporary file is left',
      );
      // An answer first: kit dev installs its SIGINT handler just after printing that it is ready.
      assert.equal((await fetch(dev.url + '/')).status, 200);
    } finally {
      await dev.stop();
    }
    assert.ok(!existsSync(join(state, 'dev.json')), 'dev.json goes when kit dev stops');
    assert.equal(readFileSync(victims[1], 'utf8'), 'precious\n');
  });

  it('keeps an existing secret and makes a 0644 one 0600', async () => {
    const dir = copyFixture('dev', 'site');
    const state = join(dir, '.kit');
    mkdirSync(state);
    const secret = 'ab'.repeat(32);
    writeFileSync(join(state, 'dev-csrf-secret'), secret + '\n');
    chmodSync(join(state, 'dev-csrf-secret'), 0o644);
    const dev = await startDev(dir);
    try {
      assert.equal(readFileSync(join(state, 'dev-csrf-secret'), 'utf8'), secret + '\n');
      assert.equal(mode(join(state, 'dev-csrf-secret')), 0o600);
      assert.equal(mode(join(state, 'dev.json')), 0o600);
    } finally {
      await dev.stop();
    }
  });

  it('refuses a .kit that is a symbolic link, naming it, and writes nothing where it points', () => {
    const dir = copyFixture('dev', 'site');
    const elsewhere = join(dirname(dir), 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(dir, '.kit'));
    const r = spawnSync(process.execPath, [CLI, 'dev', '--port', '0', '.'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', KIT_CSRF_SECRET: '' },
      timeout: 30000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(
      r.stderr,
      `kit dev: ${join(dir, '.kit')} is a symbolic link; kit keeps its files in a real directory there: ` +
        'remove the link\n',
    );
    assert.deepEqual(readdirSync(elsewhere), []);
    assert.ok(statSync(elsewhere).isDirectory());
  });
});
