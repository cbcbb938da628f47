// The two test tiers (docs/contributing.md, "Test tiers"): a test file's tier follows from its name
// (test/tiers.cjs), and a unit test that starts a child process, a browser or a pack, or opens a
// network socket, fails the unit run. The guard (test/helpers/tier-guard.ts) refuses each of those
// where it happens; the hook at the end of this file fails the run for any the code under test swallowed.
import { strict as assert } from 'node:assert';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { join, relative, sep } from 'node:path';
import { repoRoot } from '../helpers/repo.js';
import {
  guardInstalled,
  installGuard,
  recordedViolations,
  takeViolations,
  TierViolation,
  type Violation,
} from '../helpers/tier-guard.js';

const tiers = createRequire(import.meta.url)(join(repoRoot, 'test', 'tiers.cjs')) as {
  tierOf(file: string): 'unit' | 'e2e';
  compiledTests(): string[];
};

function testSources(dir = join(repoRoot, 'test')): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'fixtures') found.push(...testSources(path));
    else if (entry.isFile() && /test\.ts$|\.spec\.ts$|[.-]e2e\.ts$/.test(entry.name))
      found.push(relative(repoRoot, path).split(sep).join('/'));
  }
  return found.sort();
}

describe('test tiers', () => {
  it('every test file is named for its tier, and every one is compiled into the run', () => {
    const sources = testSources();
    const misnamed = sources.filter((f) => !/\/[a-z0-9][a-z0-9-]*(\.(e2e|browser|slow))?\.test\.ts$/.test(f));
    assert.deepEqual(misnamed, [], 'test files are <name>.test.ts (unit) or <name>.e2e/.browser/.slow.test.ts');
    const compiled = tiers.compiledTests().map((f) => f.replace(/^out\//, '').replace(/\.js$/, '.ts'));
    assert.deepEqual(compiled, sources, 'the build compiles every test file and the tiers find them');
    assert.equal(tiers.tierOf('test/x/y.e2e.test.ts'), 'e2e');
    assert.equal(tiers.tierOf('out/test/x/y.browser.test.js'), 'e2e');
    assert.equal(tiers.tierOf('test/x/y.slow.test.ts'), 'e2e');
    assert.equal(tiers.tierOf('out/test/x/e2e.test.js'), 'unit');
    assert.ok(sources.some((f) => tiers.tierOf(f) === 'unit') && sources.some((f) => tiers.tierOf(f) === 'e2e'));
  });

  it('the unit run refuses a child process, a browser, a pack and a network socket, naming the test file', async () => {
    const mine = 'out/test/architecture/tiers.test.js';
    const off = guardInstalled() ? null : installGuard();
    const from = recordedViolations().length;
    let seen: Violation[];
    try {
      const refused = (what: string, run: () => unknown) =>
        assert.throws(run, (e: unknown) => e instanceof TierViolation && e.message.includes(mine), what);
      refused('spawnSync', () => spawnSync(process.execPath, ['-e', '']));
      refused('spawn', () => spawn(process.execPath, ['-e', '']));
      refused('a browser', () => execFile('/usr/bin/chromium', ['--headless']));
      refused('a pack', () => execFile(process.execPath, [join(repoRoot, 'scripts', 'pack.mjs')]));
      refused('listen', () => createServer().listen(0, '127.0.0.1'));
      refused('connect', () => connect(9, '127.0.0.1'));
      // fetch connects inside undici: the guard's error is the cause of its rejection.
      await assert.rejects(fetch('http://127.0.0.1:65535/'), (e: Error) => e.cause instanceof TierViolation);
    } finally {
      seen = takeViolations(from);
      off?.();
    }
    assert.deepEqual(
      seen.map((v) => v.kind),
      ['child process', 'child process', 'browser', 'pack', 'network socket', 'network socket', 'network socket'],
    );
    assert.ok(seen.slice(0, 6).every((v) => v.file === mine));
    assert.match(seen[4]!.what, /^listen 127\.0\.0\.1:0$/);
    assert.match(seen[5]!.what, /^connect 127\.0\.0\.1:9$/);
  });
});

// A root hook: after every file of the run. The guard threw where each violation happened, but the
// code under test may have caught that error; this lists them all, so a misfiled test cannot pass.
after(function () {
  const found = recordedViolations();
  if (found.length === 0) return;
  const lines = [...new Set(found.map((v) => `  ${v.file}: ${v.kind} (${v.what})`))];
  throw new Error(
    `unit tests that need the end-to-end tier (name them *.e2e.test.ts):\n${lines.slice(0, 40).join('\n')}`,
  );
});
