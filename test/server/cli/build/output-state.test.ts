// The output's fingerprint taken as the files are written (the writing thread's entries, completed
// with the root's after the move into place) is the one a later build computes by looking at the
// output: otherwise every rebuild would find the output changed and write it whole. Unit tier.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fingerprintOf, outputEntries, withRootEntry } from '#cli/build/output-state.js';
import { FileWriter } from '#core/build/file-writer.js';
import { startWriteThreadAhead, WriteThread } from '#core/build/write-thread.js';

const FILES: [string, string | Uint8Array][] = [
  ['index.html', '<p>home</p>'],
  ['p/1/index.html', 'é'.repeat(5000)],
  ['p/2/index.html', new TextEncoder().encode('two')],
  ['assets/css/a.0123.css', 'a{}'],
  ['assets/js/deep/er/x.js', ''],
];
const RELS = FILES.map(([rel]) => rel).sort();

describe('build cache: the output fingerprint taken while writing', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-output-state-'));
    // The writers write into a directory made for them, as the build's temporary one is.
    mkdirSync(join(dir, 'tmp'));
    mkdirSync(join(dir, 'tmp2'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The fingerprint from `written`'s entries after moving the tree, and the one computed afresh. */
  function both(written: Map<string, string> | undefined): [string, string] {
    assert.ok(written, 'the writer took no entries');
    assert.equal(written.has(''), false, "the root's entry is taken after the move");
    const out = join(dir, 'out');
    renameSync(join(dir, 'tmp'), out);
    const taken = withRootEntry(out, written)!;
    const fresh = outputEntries(out, RELS)!;
    return [fingerprintOf(taken, RELS), fingerprintOf(fresh, RELS)];
  }

  it('on this thread (FileWriter)', () => {
    const w = new FileWriter(join(dir, 'tmp'), true);
    for (const [rel, content] of FILES) w.write(rel, content);
    const [taken, fresh] = both(w.entries());
    assert.equal(taken, fresh);
  });

  it('on the writing thread (WriteThread)', async () => {
    const t = new WriteThread(join(dir, 'tmp'), true);
    for (const [rel, content] of FILES) await t.write(rel, content);
    const [taken, fresh] = both(await t.finish());
    assert.equal(taken, fresh);
  });

  it('differs once a file is replaced, as a later build must notice', () => {
    const w = new FileWriter(join(dir, 'tmp'), true);
    for (const [rel, content] of FILES) w.write(rel, content);
    const entries = w.entries();
    new FileWriter(join(dir, 'tmp')).write('p/1/index.html', 'changed');
    const [taken, fresh] = both(entries);
    assert.notEqual(taken, fresh);
  });

  it('on a writing thread started ahead, before its directory was known', async () => {
    startWriteThreadAhead();
    const t = new WriteThread(join(dir, 'tmp'), true);
    for (const [rel, content] of FILES) await t.write(rel, content);
    const [taken, fresh] = both(await t.finish());
    assert.equal(taken, fresh);
  });

  it('takes none unless asked', async () => {
    const w = new FileWriter(join(dir, 'tmp'));
    w.write('a.html', 'a');
    assert.equal(w.entries(), undefined);
    const t = new WriteThread(join(dir, 'tmp2'));
    await t.write('a.html', 'a');
    assert.equal(await t.finish(), undefined);
  });
});
