// `kit --help`, `kit <command> --help`, `kit help <command>` and `kit --version`.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAllCommands } from '#cli/commands/index.js';
import { repoRoot } from '../../helpers/repo.js';
import { runInProcess, runProcess } from './cli-harness.js';

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

describe('kit help and version', () => {
  it('kit --help lists every command with its summary and exits 0', async () => {
    const r = await runInProcess(['--help'], { cwd: repoRoot });
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^kit \S+ — /);
    assert.match(r.stdout, /Usage: kit <command> \[options\] <files or directories>/);
    const COMMANDS = await loadAllCommands();
    for (const c of COMMANDS)
      assert.match(r.stdout, new RegExp(`^  ${c.name} +${c.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    assert.ok(COMMANDS.some((c) => c.name === 'check'));
    const short = await runInProcess(['-h'], { cwd: repoRoot });
    assert.equal(short.code, 0);
    assert.equal(short.stdout, r.stdout);
  });

  it('kit without arguments prints the help and exits 2', async () => {
    const r = await runInProcess([], { cwd: repoRoot });
    assert.equal(r.code, 2);
    assert.match(r.stdout, /Commands:\n {2}check /);
  });

  it('kit check --help prints the command usage and exits 0; kit help check says the same', async () => {
    const r = await runInProcess(['check', '--help'], { cwd: repoRoot });
    assert.equal(r.code, 0);
    assert.match(
      r.stdout,
      /^Usage: kit check \[--ssr\] \[--json \| --format human\|json\|github\|sarif\] \[<files or directories>\.\.\.\]/,
    );
    assert.match(r.stdout, /--ssr/);
    assert.match(r.stdout, /--json/);
    assert.match(r.stdout, /Exit status: 0 without errors, 1 with errors, 2 for usage or I\/O errors\./);
    assert.equal((await runInProcess(['help', 'check'], { cwd: repoRoot })).stdout, r.stdout);
    assert.equal((await runInProcess(['check', '-h'], { cwd: repoRoot })).stdout, r.stdout);
    // --help wins over inputs that would fail.
    const withBadInput = await runInProcess(['check', '--help', 'does-not-exist.kit'], { cwd: repoRoot });
    assert.equal(withBadInput.code, 0);
  });

  it('kit --version prints the package version and exits 0', async () => {
    const r = await runProcess(['--version'], repoRoot);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `kit ${version}\n`);
    assert.equal(r.stderr, '');
    assert.equal((await runInProcess(['-v'], { cwd: repoRoot })).stdout, `kit ${version}\n`);
  });
});
