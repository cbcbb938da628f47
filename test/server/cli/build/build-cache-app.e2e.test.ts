// `kit build --app` with the cache: after edits, the static output and the generated app are the
// bytes a clean build writes (the app is built by esbuild, a child process: e2e tier). The clean
// build runs in a copy of the project, so that both apps have the same names.
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type CliResult, runInProcess } from '../cli-harness.js';
import { readTree, removeDir, tempDir } from '../../core/build/helpers.js';
import { addPage, initialModel, writeSite, type PageModel } from './cache-site.js';

/** `kit <argv>` run in this process, from `cwd`. */
const kit = (cwd: string, ...argv: string[]): Promise<CliResult> => runInProcess(argv, { cwd });

/** The files of a tree, without the app's installed runtime (a copy of kit's own, the same in both). */
function files(dir: string): Map<string, string> {
  if (!existsSync(dir)) return new Map();
  return new Map([...readTree(dir)].filter(([f]) => !f.startsWith('node_modules/')));
}

describe('kit build --app: the cache', function () {
  this.timeout(300000);
  let tmp: string;
  beforeEach(() => {
    tmp = tempDir('cache-app');
  });
  afterEach(() => removeDir(tmp));

  it('the static output and the app are those of a clean build after each edit', async () => {
    const root = join(tmp, 'project');
    const copy = join(tmp, 'copy');
    const m = initialModel();
    const edits: [string, () => void][] = [
      ['first build', () => {}],
      ['a page body', () => ((m.pages.get(1) as PageModel).body = 'Edited body')],
      ['nothing', () => {}],
      ['the outer layout', () => (m.outer = 'Edited header')],
      ['a page added', () => addPage(m, 'inner')],
      ['a fragment', () => ((m.pages.get(2) as PageModel).fragment = true)],
      ['the component', () => (m.note = 'Edited note')],
      ['a page removed', () => m.pages.delete(0)],
      ['the output removed', () => rmSync(join(root, 'dist'), { recursive: true, force: true })],
    ];
    for (const [what, edit] of edits) {
      edit();
      writeSite(root, m);
      const cached = await kit(root, 'build', '--out', 'dist', '--app', 'app', 'site');
      assert.equal(cached.code, 0, `${what}: ${cached.stderr}`);
      rmSync(copy, { recursive: true, force: true });
      cpSync(join(root, 'site'), join(copy, 'site'), { recursive: true });
      for (const f of ['package.json', 'tsconfig.json', 'kit.config.ts']) cpSync(join(root, f), join(copy, f));
      const clean = await kit(copy, 'build', '--no-cache', '--out', 'dist', '--app', 'app', 'site');
      assert.equal(clean.code, 0, clean.stderr);
      assert.equal(cached.stderr, clean.stderr, what);
      assert.deepEqual(files(join(root, 'dist')), files(join(copy, 'dist')), `${what}: static output`);
      assert.deepEqual(files(join(root, 'app')), files(join(copy, 'app')), `${what}: app`);
    }
  });
});
