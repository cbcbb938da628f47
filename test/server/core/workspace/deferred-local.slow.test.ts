// Local rules on demand (`StagePolicy.checks`, what `kit dev` loads with, to answer its first page
// before any rule has run): the files' own rules run later, a few files at a time or when a file's
// diagnostics are asked for, and the diagnostics are then exactly those of a workspace that ran
// them as the files came.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProject } from '#core/project/load.js';
import { ONE_SHOT } from '#core/workspace/workspace.js';
import { fixturesDir } from '#test/helpers/repo.js';

const dir = join(fixturesDir, 'conformance', 'reject');
const json = (x: unknown) => JSON.stringify(x);

/** `checksOnDemand`: the files' own rules wait until asked for (`StagePolicy.checks`). */
function load(checksOnDemand: boolean) {
  return loadProject([dir], { ssr: false }, dir, {
    policy: { ...ONE_SHOT, checks: checksOnDemand ? 'demand' : 'markup' },
  }).workspace;
}

describe('workspace: deferred local rules', () => {
  it('gives the same diagnostics as running them at once, whenever they run', () => {
    const now = load(false);
    const later = load(true);
    const files = later.kitPaths();
    assert.ok(files.length > 100, 'the rejected conformance cases: many files with errors of their own');
    assert.equal(now.pendingLocalCount, 0);
    assert.equal(later.pendingLocalCount, files.length, 'no file checked at load');
    // One file asked for: its rules run, the others wait.
    assert.equal(json(later.diagnosticsFor(files[3])), json(now.diagnosticsFor(files[3])));
    assert.equal(later.pendingLocalCount, files.length - 1);
    // A few at a time.
    assert.equal(later.runDeferredLocalRules(10), files.length - 11);
    assert.equal(json(later.allDiagnostics()), json(now.allDiagnostics()));
    assert.equal(later.pendingLocalCount, 0);
    assert.ok(
      now.allDiagnostics().some((d) => d.severity === 'error' && d.file === files[0]),
      'the first file has an error of its own',
    );
  });

  it('reports a file whose rules ran later as affected, and checks edits at once', () => {
    const ws = load(true);
    const [first, second] = ws.kitPaths();
    ws.takeAffected();
    ws.runDeferredLocalRules(1);
    assert.ok(ws.takeAffected().has(first), 'the file checked late is published again');
    const text = readFileSync(join(dir, second), 'utf8');
    ws.editKitFile(second, `${text}\n`);
    assert.equal(ws.pendingLocalCount, ws.kitPaths().length - 2, 'the edited file was checked as it came');
    const fresh = load(false);
    fresh.editKitFile(second, `${text}\n`);
    assert.equal(json(ws.diagnosticsFor(second)), json(fresh.diagnosticsFor(second)));
  });

  it('stops deferring once every waiting file was checked', () => {
    const ws = load(true);
    assert.equal(ws.runDeferredLocalRules(), 0);
    const [first] = ws.kitPaths();
    ws.setKitFile(first, readFileSync(join(dir, first), 'utf8'));
    assert.equal(ws.pendingLocalCount, 0, 'a file read again after the start is checked at once');
  });
});
