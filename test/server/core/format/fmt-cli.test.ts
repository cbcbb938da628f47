import { strict as assert } from 'node:assert';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '#cli/run.js';
import { fixture } from '#test/helpers/repo.js';

function io(cwd: string) {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) }, env: {}, cwd },
    get out() {
      return out;
    },
    get err() {
      return err;
    },
  };
}

describe('kit fmt', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-fmt-'));
    copyFileSync(fixture('lsp', 'format', 'messy.kit'), join(dir, 'messy.kit'));
    copyFileSync(fixture('lsp', 'format', 'broken.kit'), join(dir, 'broken.kit'));
    copyFileSync(fixture('lsp', 'format', 'messy.formatted.kit'), join(dir, 'clean.kit'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the formatted text of one file', async () => {
    const t = io(dir);
    assert.equal(await runCli(['fmt', 'messy.kit'], t.io), 0);
    assert.equal(t.out, readFileSync(fixture('lsp', 'format', 'messy.formatted.kit'), 'utf8'));
  });

  it('--check lists unformatted files and reports files with syntax errors, exit 1', async () => {
    const t = io(dir);
    assert.equal(await runCli(['fmt', '--check', '.'], t.io), 1);
    assert.equal(t.out, 'messy.kit\n');
    assert.match(t.err, /^broken\.kit:3:7: error unterminated_string: .*\(file left unformatted\)$/m);
    assert.equal(
      readFileSync(join(dir, 'messy.kit'), 'utf8'),
      readFileSync(fixture('lsp', 'format', 'messy.kit'), 'utf8'),
      '--check writes nothing',
    );
  });

  it('--write rewrites unformatted files and leaves broken ones untouched', async () => {
    const t = io(dir);
    assert.equal(await runCli(['fmt', '--write', '.'], t.io), 1);
    assert.equal(t.out, 'formatted messy.kit\n');
    assert.equal(
      readFileSync(join(dir, 'messy.kit'), 'utf8'),
      readFileSync(fixture('lsp', 'format', 'messy.formatted.kit'), 'utf8'),
    );
    assert.equal(
      readFileSync(join(dir, 'broken.kit'), 'utf8'),
      readFileSync(fixture('lsp', 'format', 'broken.kit'), 'utf8'),
    );
    rmSync(join(dir, 'broken.kit'));
    const again = io(dir);
    assert.equal(await runCli(['fmt', '--check', '.'], again.io), 0);
    assert.equal(again.out, '');
  });

  it('rejects bad usage with exit 2 and one clear line', async () => {
    for (const argv of [
      ['fmt'],
      ['fmt', '--check', '--write', '.'],
      ['fmt', '.'],
      ['fmt', 'missing.kit'],
      ['fmt', '--bogus', '.'],
    ]) {
      const t = io(dir);
      assert.equal(await runCli(argv, t.io), 2, argv.join(' '));
      assert.match(t.err, /^kit fmt: .+\n$/);
    }
    writeFileSync(join(dir, 'notes.txt'), 'x');
    const t = io(dir);
    assert.equal(await runCli(['fmt', 'notes.txt'], t.io), 2);
    assert.match(t.err, /not a \.kit file: notes\.txt/);
  });
});
