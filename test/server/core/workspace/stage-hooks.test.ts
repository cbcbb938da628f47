// The hooks a load passes to the workspace (`StageHooks`, what `kit build` compiles page bodies
// with): told once as each file the workspace read itself is checked, never for an editor's
// document, and a file whose markup they are done with drops it (`Summary`) without changing a
// diagnostic or what its tree reads.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { parseKit } from '#grammar/index.js';
import { KitStage, type KitEntry } from '#core/model/entries.js';
import { loadProject } from '#core/project/load.js';
import { ONE_SHOT, Workspace } from '#core/workspace/workspace.js';
import { fixturesDir } from '#test/helpers/repo.js';

const dir = join(fixturesDir, 'conformance', 'reject');
const json = (x: unknown) => JSON.stringify(x);

/** Hooks that note every entry they are told of and answer `release`. */
function noting(release: boolean) {
  const seen: KitEntry[] = [];
  return {
    seen,
    hooks: {
      checked(e: KitEntry) {
        assert.equal(e.stage, KitStage.Checked, 'told once checked, markup still there');
        seen.push(e);
        return release;
      },
    },
  };
}

const PAGE = 'page p\nroute "/p"\nguard public\n\nview {\n  <p>Hi</p>\n}\n';

describe('workspace: stage hooks', () => {
  it('tells every file read once, and drops the markup of those the hooks are done with', () => {
    const { seen, hooks } = noting(true);
    const ws = loadProject([dir], { ssr: false }, dir, { hooks }).workspace;
    const plain = loadProject([dir], { ssr: false }, dir).workspace;
    assert.deepEqual(
      seen.map((e) => e.path),
      ws.kitPaths(),
    );
    assert.ok(ws.allKit().every((e) => e.stage === KitStage.Summary));
    assert.equal(json(ws.allDiagnostics()), json(plain.allDiagnostics()));
    // A dropped view reads as it was parsed.
    const page = ws.allKit().find((e) => e.summary.view)!;
    assert.equal(json(page.summary.view!.body), json(plain.kit(page.path)!.summary.view!.body));
  });

  it('keeps the markup of a file the hooks still need', () => {
    const { seen, hooks } = noting(false);
    const ws = new Workspace({ ssr: false }, '/', ONE_SHOT, hooks);
    ws.setKitFile('a/p.kit', PAGE);
    assert.equal(seen.length, 1);
    assert.equal(ws.kit('a/p.kit')!.stage, KitStage.Checked);
  });

  it("is not told of an editor's document", () => {
    const { seen, hooks } = noting(true);
    const ws = new Workspace({ ssr: false }, '/', ONE_SHOT, hooks);
    ws.setKitFile('a/p.kit', PAGE, parseKit(PAGE, 'a/p.kit'));
    ws.editKitFile('a/p.kit', PAGE + '\n');
    assert.equal(seen.length, 0);
    assert.equal(ws.kit('a/p.kit')!.stage, KitStage.Checked);
  });

  it('tells a file whose rules wait when they run', () => {
    const { seen, hooks } = noting(true);
    const ws = new Workspace({ ssr: false }, '/', { ...ONE_SHOT, checks: 'demand' }, hooks);
    ws.setKitFile('a/p.kit', PAGE);
    assert.equal(seen.length, 0);
    ws.runDeferredLocalRules();
    assert.equal(seen.length, 1);
    assert.equal(ws.kit('a/p.kit')!.stage, KitStage.Summary);
  });
});
