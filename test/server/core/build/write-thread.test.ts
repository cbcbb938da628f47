// The writing thread's idle work: while `kit build` waits for the thread to catch up, the main
// thread does slices of work that can wait (the build cache's source records), each answer
// telling whether more is left; once none is, it is not asked again. Unit tier.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WriteThread } from '#core/build/write-thread.js';

describe('build: the writing thread', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-write-thread-'));
    mkdirSync(join(dir, 'out'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs idle work while it waits, until the work says none is left, and writes every file', async () => {
    let slices = 0;
    let asked = 0;
    const idle = () => {
      asked++;
      slices++;
      return slices < 5;
    };
    const t = new WriteThread(join(dir, 'out'), false, idle);
    // Far more files than the batches allowed on their way: the thread falls behind.
    const files = Array.from({ length: 2000 }, (_, i) => [`p/${i}/index.html`, `page ${i}`] as const);
    for (const [rel, text] of files) await t.write(rel, text);
    await t.finish();
    assert.equal(slices, 5, 'every slice of idle work was done');
    assert.equal(asked, 5, 'not asked again once it said none was left');
    for (const [rel, text] of files) assert.equal(readFileSync(join(dir, 'out', rel), 'utf8'), text);
  });
});
