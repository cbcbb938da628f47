// Human output of `kit check`: a code frame under each diagnostic, held to golden files (tabs, wide
// characters, a related location with a fix hint, a multi-line range), colour only on a TTY.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeFrame } from '#cli/format/code-frame.js';
import { Workspace } from '#core/workspace/workspace.js';
import { fixture } from '../../helpers/repo.js';
import { runInProcess } from './cli-harness.js';

const DIR = fixture('code-frames');
const UPDATE = process.env.KIT_UPDATE_GOLDENS === '1';

/** Compares with `<case>/expected.txt`; `KIT_UPDATE_GOLDENS=1 npm test` rewrites it (review the diff). */
function golden(name: string, actual: string): void {
  const path = join(DIR, name, 'expected.txt');
  if (UPDATE) {
    writeFileSync(path, actual);
    return;
  }
  assert.ok(existsSync(path), `test/fixtures/code-frames/${name}/expected.txt is missing (KIT_UPDATE_GOLDENS=1)`);
  assert.equal(
    actual,
    readFileSync(path, 'utf8'),
    `output differs from test/fixtures/code-frames/${name}/expected.txt`,
  );
}

const ESC = '\u001b[';
const strip = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('kit check: code frames', () => {
  for (const name of ['tabs', 'wide', 'related']) {
    it(`${name}: the golden human output`, async () => {
      const r = await runInProcess(['check', name], { cwd: DIR });
      assert.equal(r.code, 1);
      assert.ok(!r.stdout.includes(ESC), 'no colour without a TTY');
      golden(name, r.stdout);
      // On a TTY the same text, coloured.
      const tty = await runInProcess(['check', name], { cwd: DIR, tty: true });
      assert.ok(tty.stdout.includes(ESC));
      assert.equal(strip(tty.stdout), r.stdout);
      const noColor = await runInProcess(['check', name], { cwd: DIR, tty: true, env: { NO_COLOR: '' } });
      assert.equal(noColor.stdout, r.stdout);
    });
  }

  it('tabs are 4 columns and wide characters 2: the underline sits under the name', async () => {
    const tabs = (await runInProcess(['check', 'tabs'], { cwd: DIR })).stdout.split('\n');
    const at = tabs.findIndex((l) => l.startsWith('6 |'));
    assert.equal(tabs[at + 1].indexOf('^'), tabs[at].indexOf('titel'));
    const wide = (await runInProcess(['check', 'wide'], { cwd: DIR })).stdout.split('\n');
    const line = wide.findIndex((l) => l.startsWith('9 |'));
    // 世 and 界 take two columns each on a terminal but one UTF-16 unit; 👋 two columns and two units.
    assert.equal(wide[line + 1].indexOf('^'), wide[line].indexOf('nmae') + 2);
  });

  it('a multi-line range shows its first and last line, with the lines between elided', () => {
    const text = readFileSync(join(DIR, 'multi-line', 'multi-line.kit'), 'utf8');
    const w = new Workspace({ ssr: false });
    w.setKitFile('multi-line.kit', text);
    const view = w.kit('multi-line.kit')!.summary.view!;
    golden('multi-line', codeFrame(text, view.range, { color: false, mark: '31;1' }));
  });

  it('an empty range gets one caret; an unknown source no frame', () => {
    const text = 'route "/x"\n';
    const at = { offset: 6, line: 0, column: 6 };
    assert.equal(
      codeFrame(text, { start: at, end: at }, { color: false, mark: '0' }),
      '  |\n1 | route "/x"\n  |       ^\n',
    );
    assert.equal(codeFrame(undefined, { start: at, end: at }, { color: false, mark: '0' }), '');
  });
});
