// `kit fmt` reports the syntax errors of files it leaves unformatted in file and line order, as
// `kit check` does, whatever order the parser found them in (markup errors come after the view).
import { strict as assert } from 'node:assert';
import { runInProcess, TempTree } from './cli-harness.js';

describe('kit fmt: error order', () => {
  let tree: TempTree;
  before(() => {
    tree = new TempTree({
      // Files are given in reverse order; a.kit's markup errors precede its later declaration errors.
      'b.kit': 'rout "/z"\n',
      'a.kit': 'route "/x"\nguard public\n\nview {\n  <p>\n  <div\n}\n\nrout "/y"\ntitle "open\n',
    });
  });
  after(() => tree.dispose());

  it('lists the errors by file, then line and column', async () => {
    const r = await runInProcess(['fmt', '--check', 'b.kit', 'a.kit'], { cwd: tree.root });
    assert.equal(r.code, 1);
    const places = r.stderr
      .trim()
      .split('\n')
      .map((l) => /^([^:]+:\d+:\d+):/.exec(l)?.[1]);
    assert.deepEqual(places, ['a.kit:5:4', 'a.kit:6:4', 'a.kit:9:1', 'a.kit:10:7', 'b.kit:1:1']);
  });
});
