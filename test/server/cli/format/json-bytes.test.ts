// JSON written straight into bytes (`JsonBytes`): string values and numbers byte for byte as
// `JSON.stringify` and UTF-8 make them, over every kind of character JSON escapes or encodes.
import { strict as assert } from 'node:assert';
import { fixedBytes, JsonBytes } from '#cli/format/json-bytes.js';

function stringBytes(s: string): Buffer {
  const out = new JsonBytes(4);
  out.string(s);
  return out.take();
}

function numberBytes(n: number): Buffer {
  const out = new JsonBytes(1);
  out.number(n);
  return out.take();
}

/** A string of `n` characters from `alphabet`, chosen by a small seeded generator. */
function randomString(seed: number, n: number, alphabet: readonly number[]): string {
  let x = seed;
  let s = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += String.fromCharCode(alphabet[x % alphabet.length]);
  }
  return s;
}

describe('JsonBytes', () => {
  it('writes every control character as JSON.stringify escapes it', () => {
    for (let c = 0; c < 32; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      assert.deepEqual(stringBytes(s), Buffer.from(JSON.stringify(s)), `U+${c.toString(16)}`);
    }
  });

  it('escapes quotes and backslashes, and keeps DEL and the rest of ASCII', () => {
    let all = '';
    for (let c = 32; c < 128; c++) all += String.fromCharCode(c);
    assert.deepEqual(stringBytes(all), Buffer.from(JSON.stringify(all)));
  });

  it('encodes two- and three-byte characters, pairs as four bytes, lone surrogates as escapes', () => {
    for (const s of [
      '\u0080\u07ff\u0800\uffff é … → “”',
      '😀 \ud83d\ude00',
      '\ud800',
      '\udc00 first',
      'last \ud83d',
      '\ude00\ud83d',
      '\u2028\u2029',
      '',
    ])
      assert.deepEqual(stringBytes(s), Buffer.from(JSON.stringify(s)), JSON.stringify(s));
  });

  it('agrees with JSON.stringify on random strings of mixed characters', () => {
    const alphabet = [
      0, 9, 10, 31, 34, 47, 65, 92, 127, 128, 233, 0x7ff, 0x800, 0x2026, 0xd83d, 0xde00, 0xdbff, 0xdc00, 0xffff,
    ];
    for (let seed = 1; seed <= 300; seed++) {
      const s = randomString(seed, seed % 40, alphabet);
      assert.deepEqual(stringBytes(s), Buffer.from(JSON.stringify(s)), JSON.stringify(s));
    }
  });

  it('writes numbers as JSON.stringify does', () => {
    for (const n of [0, 1, 9, 10, 99, 100, 12345, 2 ** 31, 2 ** 40 + 7, 1e15, -1, 1.5, 2 ** 53])
      assert.deepEqual(numberBytes(n), Buffer.from(JSON.stringify(n)), String(n));
  });

  it('grows past its first capacity, and take() starts a new part', () => {
    const out = new JsonBytes(2);
    const long = 'x'.repeat(1000);
    out.fixed(fixedBytes('['));
    out.string(long);
    out.fixed(fixedBytes(','));
    out.number(42);
    const first = out.take();
    assert.equal(first.toString(), `[${JSON.stringify(long)},42`);
    assert.equal(out.length, 0);
    out.fixed(fixedBytes(']'));
    assert.equal(out.take().toString(), ']');
  });

  it('writes a repeated value as string() does, the first time, from its bytes after, across parts', () => {
    const values = ['site/a.kit', 'code_\u0001"q"', 'ünï €𝄞', '', 'site/a.kit'];
    const out = new JsonBytes(3);
    const parts: Buffer[] = [];
    let expected = '';
    for (let round = 0; round < 3; round++) {
      for (const v of values) {
        out.repeated(v);
        out.fixed(fixedBytes(','));
        expected += `${JSON.stringify(v)},`;
      }
      // Each round a part of its own, then overwritten: the kept bytes are the values' own, not
      // views of a part handed out.
      const part = out.take();
      parts.push(Buffer.from(part));
      part.fill(0);
    }
    assert.equal(Buffer.concat(parts).toString('utf8'), expected);
  });

  it('keeps a bounded number of repeated values, and writes each right past the bound', () => {
    const out = new JsonBytes();
    let expected = '';
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 20_000; i++) {
        out.repeated(`pages/p${i}.kit`);
        expected += JSON.stringify(`pages/p${i}.kit`);
      }
    assert.equal(out.take().toString('utf8'), expected);
  });
});
