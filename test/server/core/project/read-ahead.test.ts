// The read-ahead worker hands out exactly the bytes a plain read gives, in order, never blocks
// the caller, and leaves an unreadable file to the caller (who reports it in its own words).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { ReadAhead } from '#core/project/read-ahead.js';
import { stateOf } from '#core/project/source-bytes.js';

/**
 * Until the worker has read every file and stopped (it closes its port and exits then), so that the
 * delivery path is what the takes exercise. The worker is private: reached here for this wait only.
 */
async function readThrough(ahead: ReadAhead): Promise<void> {
  const worker = (ahead as unknown as { worker?: Worker }).worker;
  assert.ok(worker, 'a worker was started');
  await once(worker, 'exit');
}

describe('core/project: read-ahead', () => {
  let dir: string;
  let paths: string[];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-read-ahead-'));
    paths = [];
    for (let i = 0; i < 200; i++) {
      const p = join(dir, `f${i}.kit`);
      // Different lengths, non-ASCII text and an empty file: batches are split by length.
      writeFileSync(p, i === 7 ? '' : `page p${i}\nroute "/p/${i}"\n// ünïcødé ${'x'.repeat(i)} 🚀\n`);
      paths.push(p);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Takes every file in order, reading what the worker has not delivered; counts the deliveries. */
  async function takeAll(ahead: ReadAhead, list: string[]): Promise<{ texts: string[]; delivered: number }> {
    const texts: string[] = [];
    let delivered = 0;
    await readThrough(ahead);
    for (let i = 0; i < list.length; i++) {
      const t = ahead.take(i);
      if (t !== undefined) {
        delivered++;
        // What the file system says of the file, as the worker read it.
        assert.equal(t.state?.id, stateOf(statSync(list[i])).id);
      }
      texts.push(t?.text ?? readFileSync(list[i], 'utf8'));
    }
    ahead.close();
    return { texts, delivered };
  }

  it('hands out each file exactly as a plain read gives it', async () => {
    const { texts, delivered } = await takeAll(new ReadAhead(paths, 1), paths);
    assert.deepEqual(
      texts,
      paths.map((p) => readFileSync(p, 'utf8')),
    );
    assert.ok(delivered > paths.length / 2, `the worker delivered ${delivered} of ${paths.length}`);
  });

  it('leaves a file it cannot read to the caller, and the files after it are still delivered', async () => {
    const list = [...paths.slice(0, 50), join(dir, 'missing.kit'), ...paths.slice(50, 100)];
    const ahead = new ReadAhead(list, 1);
    await readThrough(ahead);
    let delivered = 0;
    for (let i = 0; i < list.length; i++) {
      const t = ahead.take(i);
      if (i === 50) assert.equal(t, undefined);
      else if (t !== undefined) {
        delivered++;
        assert.equal(t.text, readFileSync(list[i], 'utf8'));
      }
    }
    ahead.close();
    assert.ok(delivered > 50, `delivered ${delivered}`);
  });

  it('below the threshold starts no worker: every take answers undefined', () => {
    const ahead = new ReadAhead(paths.slice(0, 3));
    for (let i = 0; i < 3; i++) assert.equal(ahead.take(i), undefined);
    ahead.close();
  });
});
