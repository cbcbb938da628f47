// Reads zip archives (the .vsix) from their central directory: the names of the entries, and an
// entry's bytes (stored or deflated, the two methods vsce writes). Enough for the tests, no package.
import { strict as assert } from 'node:assert';
import { inflateRawSync } from 'node:zlib';

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localHeader: number;
}

function centralDirectory(buf: Buffer): ZipEntry[] {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  assert.ok(eocd >= 0, 'not a zip file');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(at), 0x02014b50);
    const nameLen = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    entries.push({
      name: buf.toString('utf8', at + 46, at + 46 + nameLen),
      method: buf.readUInt16LE(at + 10),
      compressedSize: buf.readUInt32LE(at + 20),
      localHeader: buf.readUInt32LE(at + 42),
    });
    at += 46 + nameLen + extra + comment;
  }
  return entries;
}

/** Names of the entries of a zip archive, sorted. */
export function zipEntries(buf: Buffer): string[] {
  return centralDirectory(buf)
    .map((e) => e.name)
    .sort();
}

/** The bytes of the entry `name`. */
export function zipRead(buf: Buffer, name: string): Buffer {
  const entry = centralDirectory(buf).find((e) => e.name === name);
  assert.ok(entry, `${name} is in the archive`);
  const at = entry.localHeader;
  assert.equal(buf.readUInt32LE(at), 0x04034b50);
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  const data = buf.subarray(start, start + entry.compressedSize);
  assert.ok(entry.method === 0 || entry.method === 8, `${name}: compression method ${entry.method}`);
  return entry.method === 8 ? inflateRawSync(data) : Buffer.from(data);
}
