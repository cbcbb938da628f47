// `writeText`: a Node stream is handed the text's UTF-8 bytes (a string it queues behind a full pipe
// is converted again as the pipe drains), anything else the text itself (the tests' own writers).
import { strict as assert } from 'node:assert';
import { Writable } from 'node:stream';
import { writeText } from '#cli/io.js';

describe('cli: writeText', () => {
  it('hands a Node stream the bytes of the text', () => {
    const chunks: unknown[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    writeText(stream, 'é → ok\n');
    assert.equal(chunks.length, 1);
    assert.ok(Buffer.isBuffer(chunks[0]));
    assert.equal((chunks[0] as Buffer).toString('utf8'), 'é → ok\n');
  });

  it('hands any other writer the string', () => {
    let out: unknown;
    writeText({ write: (s: string) => (out = s) }, 'plain');
    assert.equal(out, 'plain');
  });
});
