// The multipart parser against busboy (a well-kept parser, a development dependency only): random
// bodies of text and file parts, random boundaries, names and file names full of separators,
// quotes, backslashes and non-ASCII, `filename*`, folded and reordered headers, fed in random
// chunkings, must read the same as busboy reads them. Then the cases a probe found: parameters
// searched for as text, a CRLF inside a quoted file name, a header block over 16 KiB in one chunk,
// and empty files that did not count toward `maxFiles`.
import { strict as assert } from 'node:assert';
import busboy from 'busboy';
import fc from 'fast-check';
import {
  DEFAULT_UPLOAD_LIMITS,
  MultipartError,
  parseMultipart,
  UploadLimitError,
  UploadScope,
  type UploadLimits,
} from '#shared/app/multipart.js';
import { fakeRequest } from './fake-request.js';

/** What one part reads as, for both parsers. */
type Entry = ['field', string, string] | ['file', string, string, string, string];

const contentType = (boundary: string) => `multipart/form-data; boundary="${boundary}"`;

async function ours(
  chunks: Buffer[],
  boundary: string,
  limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
): Promise<Entry[] | Error> {
  const scope = new UploadScope();
  try {
    const fd = await parseMultipart(fakeRequest(chunks), contentType(boundary), {
      limits,
      textLimit: 1 << 20,
      scope,
    });
    const out: Entry[] = [];
    for (const [name, v] of fd as unknown as Iterable<[string, string | File]>) {
      if (typeof v === 'string') out.push(['field', name, v]);
      else out.push(['file', name, v.name, v.type, Buffer.from(await v.arrayBuffer()).toString('base64')]);
    }
    return out;
  } catch (e) {
    return e as Error;
  } finally {
    await scope.cleanup();
  }
}

function theirs(chunks: Buffer[], boundary: string): Promise<Entry[] | Error> {
  return new Promise((resolve) => {
    const bb = busboy({
      headers: { 'content-type': contentType(boundary) },
      preservePath: true,
      defParamCharset: 'utf8',
      limits: { fieldSize: 1 << 20 },
    });
    const out: (Entry | undefined)[] = [];
    const files: Promise<void>[] = [];
    bb.on('field', (name, value) => out.push(['field', name, value]));
    bb.on('file', (name, stream, info) => {
      const at = out.push(undefined) - 1;
      const bufs: Buffer[] = [];
      files.push(
        new Promise<void>((done) => {
          stream.on('data', (d: Buffer) => bufs.push(d));
          stream.on('end', () => {
            out[at] = ['file', name, info.filename ?? '', info.mimeType, Buffer.concat(bufs).toString('base64')];
            done();
          });
        }),
      );
    });
    bb.on('error', (e: Error) => resolve(e));
    bb.on('close', () => void Promise.all(files).then(() => resolve(out as Entry[])));
    for (const c of chunks) bb.write(c);
    bb.end();
  });
}

/** `body` cut at `cuts` (positions, in any order). */
function chunked(body: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of at) {
    if (c > from) out.push(body.subarray(from, c));
    from = Math.max(from, c);
  }
  out.push(body.subarray(from));
  return out;
}

/** A quoted-string: `"` and `\` escaped, and now and then an ordinary character too. */
function quote(s: string, escapeAll: boolean): string {
  return `"${[...s].map((c) => (c === '"' || c === '\\' || (escapeAll && c === 'a') ? '\\' + c : c)).join('')}"`;
}

/** RFC 8187 encoding of `s` in UTF-8: attr-chars as they are, every other byte as %XX. */
function extValue(s: string): string {
  let out = "UTF-8''";
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[!#$&+\-.^_`|~0-9A-Za-z]/.test(c) ? c : '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

const bchar = fc.constantFrom(..."abcXYZ0189'()+_,-./:=?".split(''));
const boundary = fc.string({ unit: bchar, minLength: 12, maxLength: 70 });
const nameText = fc.string({
  unit: fc.constantFrom('a', 'b', 'n', ' ', ';', '=', '"', '\\', 'é', '😀', "'", ',', '%', '*', 'name=', 'filename='),
  minLength: 1,
  maxLength: 12,
});
const text = fc.string({
  unit: fc.constantFrom('a', 'b', ' ', '\r', '\n', '\r\n', '-', '--', 'é', '😀', '\0'),
  maxLength: 40,
});
const bytes = fc.uint8Array({ maxLength: 300 });
const part = fc.record({
  name: nameText,
  file: fc.option(
    fc.record({
      filename: nameText,
      star: fc.boolean(),
      type: fc.constantFrom('text/plain', 'image/png', 'application/octet-stream'),
      data: bytes,
    }),
  ),
  value: text,
  escapeAll: fc.boolean(),
  filenameFirst: fc.boolean(),
  typeFirst: fc.boolean(),
  extra: fc.boolean(),
  lowerCase: fc.boolean(),
  fold: fc.boolean(),
});

type PartSpec = typeof part extends fc.Arbitrary<infer T> ? T : never;

function partBytes(p: PartSpec): Buffer {
  const params = [`name=${quote(p.name, p.escapeAll)}`];
  if (p.file) {
    const fileParams = [`filename=${quote(p.file.star ? 'fallback.txt' : p.file.filename, p.escapeAll)}`];
    if (p.file.star) fileParams.push(`filename*=${extValue(p.file.filename)}`);
    if (p.filenameFirst) params.unshift(...fileParams);
    else params.push(...fileParams);
  }
  const cd = (p.lowerCase ? 'content-disposition' : 'Content-Disposition') + ': form-data;' + (p.fold ? '\r\n\t' : ' ');
  const headers = [cd + params.join('; ')];
  if (p.file) headers[p.typeFirst ? 'unshift' : 'push'](`Content-Type: ${p.file.type}`);
  if (p.extra) headers.push('X-Extra: 1');
  const body = p.file ? Buffer.from(p.file.data) : Buffer.from(p.value, 'utf8');
  return Buffer.concat([Buffer.from(headers.join('\r\n') + '\r\n\r\n', 'utf8'), body]);
}

function multipartBody(b: string, parts: Buffer[], preamble: string, epilogue: string): Buffer {
  const out: Buffer[] = [Buffer.from(preamble ? preamble + '\r\n' : '')];
  for (const p of parts) out.push(Buffer.from(`--${b}\r\n`), p, Buffer.from('\r\n'));
  out.push(Buffer.from(`--${b}--${epilogue}`));
  return Buffer.concat(out);
}

function occurrences(buf: Buffer, needle: string): number {
  let n = 0;
  for (let at = buf.indexOf(needle); at >= 0; at = buf.indexOf(needle, at + 1)) n++;
  return n;
}

const simple = (b: string, parts: string[]) =>
  Buffer.from(parts.map((p) => `--${b}\r\n${p}\r\n`).join('') + `--${b}--\r\n`, 'utf8');

describe('multipart parser against busboy (property)', function () {
  this.timeout(120000);

  it('reads random bodies, boundaries and chunkings as busboy does', async () => {
    await fc.assert(
      fc.asyncProperty(
        boundary,
        fc.array(part, { maxLength: 5 }),
        fc.string({ unit: fc.constantFrom('x', ' ', '-', '\r\n'), maxLength: 10 }),
        fc.string({ unit: fc.constantFrom('x', ' ', '-', '\r\n'), maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (b, parts, preamble, epilogue, cuts) => {
          const body = multipartBody(b, parts.map(partBytes), preamble, epilogue);
          // A part may not hold its own delimiter (RFC 2046): exactly the delimiters written occur.
          fc.pre(occurrences(body, `\r\n--${b}`) === parts.length + (preamble ? 1 : 0));
          const chunks = chunked(body, cuts);
          const [a, e] = await Promise.all([ours(chunks, b), theirs(chunks, b)]);
          assert.ok(!(a instanceof Error), `ours failed: ${String(a)}`);
          assert.ok(!(e instanceof Error), `busboy failed: ${String(e)}`);
          assert.deepEqual(a, e);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads parameters by the grammar: a file name holding "; name=" is a file name', async () => {
    const b = 'kitBoundary0123';
    const body = simple(b, [
      'Content-Disposition: form-data; filename="x; name=title"; name="avatar"\r\nContent-Type: text/plain\r\n\r\nhi',
      'Content-Disposition: form-data; name="a \\"q\\" \\\\ b"\r\n\r\nv',
      `Content-Disposition: form-data; name=doc; filename="plain.txt"; filename*=${extValue('résumé 😀.txt')}\r\n` +
        'Content-Type: text/plain\r\n\r\nd',
      "Content-Disposition: form-data; name=latin; filename*=ISO-8859-1''caf%E9.txt\r\nContent-Type: text/plain\r\n\r\nl",
    ]);
    const expected: Entry[] = [
      ['file', 'avatar', 'x; name=title', 'text/plain', Buffer.from('hi').toString('base64')],
      ['field', 'a "q" \\ b', 'v'],
      ['file', 'doc', 'résumé 😀.txt', 'text/plain', Buffer.from('d').toString('base64')],
      ['file', 'latin', 'café.txt', 'text/plain', Buffer.from('l').toString('base64')],
    ];
    assert.deepEqual(await ours([body], b), expected);
    assert.deepEqual(await theirs([body], b), expected);
  });

  it('refuses a quoted file name that a CRLF cuts in two, as busboy does', async () => {
    const b = 'kitBoundary0123';
    const body = simple(b, ['Content-Disposition: form-data; name="f"; filename="a\r\nb.txt"\r\n\r\nx']);
    const r = await ours([body], b);
    assert.ok(r instanceof MultipartError, `refused: ${JSON.stringify(r)}`);
    assert.match(r.message, /^invalid form: a part (header line|has a) .*malformed/);
    assert.ok((await theirs([body], b)) instanceof Error);
    // The shape a probe found: the rest of the header must not become a name `"a`.
    const probe = simple(b, ['Content-Disposition: form-data; name="x"; filename="\r\nname="a"\r\n\r\nx']);
    assert.ok((await ours([probe], b)) instanceof MultipartError);
  });

  it('applies the 16 KiB header limit however the header arrives', async () => {
    const b = 'kitBoundary0123';
    const header = (total: number) => {
      const head = 'Content-Disposition: form-data; name="t"\r\nX-Pad: ';
      return head + 'p'.repeat(total - head.length - 4) + '\r\n\r\n';
    };
    for (const [size, ok] of [
      [8 * 1024, true],
      [16 * 1024, true],
      [16 * 1024 + 1, false],
      [20 * 1024, false],
    ] as const) {
      const body = Buffer.from(`--${b}\r\n${header(size)}v\r\n--${b}--\r\n`);
      for (const chunks of [[body], chunked(body, [100, 5000, 16000]), chunked(body, [60])]) {
        const r = await ours(chunks, b);
        if (ok) assert.deepEqual(r, [['field', 't', 'v']], `${size} bytes in ${chunks.length} chunks`);
        else assert.ok(r instanceof MultipartError && /too long/.test(r.message), `${size} bytes refused`);
        // busboy counts the first byte of each header value twice: it agrees away from the edge.
        if (size !== 16 * 1024) assert.equal(!((await theirs(chunks, b)) instanceof Error), ok, `busboy at ${size}`);
      }
    }
  });

  it('counts every part with a file name toward maxFiles, empty or not', async () => {
    const b = 'kitBoundary0123';
    const limits = { ...DEFAULT_UPLOAD_LIMITS, maxFiles: 3 };
    const empties = Array.from(
      { length: 600 },
      (_, i) => `Content-Disposition: form-data; name="extras"; filename="f${i}"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const r = await ours([simple(b, empties)], b, limits);
    assert.ok(r instanceof UploadLimitError && r.limit === 'maxFiles', String(r));
    const three = await ours([simple(b, empties.slice(0, 3))], b, limits);
    assert.deepEqual(
      three,
      [0, 1, 2].map((i) => ['file', 'extras', `f${i}`, 'text/plain', '']),
    );
    // What a browser sends for a file input left empty (no name, no bytes) is no file.
    const blank =
      'Content-Disposition: form-data; name="avatar"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n';
    assert.deepEqual(await ours([simple(b, [blank, blank, blank, blank])], b, { ...limits, maxFiles: 0 }), []);
  });
});
