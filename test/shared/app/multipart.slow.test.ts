// The streaming multipart parser and the constraint checks, below the HTTP tests: a body split at
// every byte parses the same, text fields are capped, and constraints follow the browser's rules.
import { strict as assert } from 'node:assert';
import { checkConstraints, UnsafePatternError } from '#shared/app/constraints.js';
import { createApp, dirSource, type AppManifest } from '#shared/app/index.js';
import { FormValues } from '#shared/app/form.js';
import {
  DEFAULT_UPLOAD_LIMITS,
  MultipartError,
  parseMultipart,
  UploadLimitError,
  UploadScope,
  uploadLimits,
} from '#shared/app/multipart.js';
import { fakeRequest } from './fake-request.js';

const BOUNDARY = '----kitTestBoundary';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const BODY = Buffer.from(
  `preamble\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHéllo\r\nworld\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="doc"; filename="a \\"q\\".txt"\r\n` +
    `Content-Type: text/plain\r\n\r\n--${BOUNDARY.slice(0, 5)} not a boundary\r\n\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="empty"; filename=""\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n\r\n--${BOUNDARY}--\r\nepilogue`,
);

async function parse(chunks: Buffer[], limits = DEFAULT_UPLOAD_LIMITS, textLimit = 1024) {
  const scope = new UploadScope();
  try {
    const fd = await parseMultipart(fakeRequest(chunks), TYPE, { limits, textLimit, scope });
    const entries: [string, string | File][] = [];
    fd.forEach((v, k) => entries.push([k, v]));
    const out: [string, string][] = [];
    for (const [k, v] of entries)
      out.push([k, typeof v === 'string' ? v : `file ${v.name} ${v.type} ${await v.text()}`]);
    return out;
  } finally {
    await scope.cleanup();
  }
}

describe('multipart parser', () => {
  const expected = [
    ['title', 'Héllo\r\nworld'],
    ['doc', `file a "q".txt text/plain --${BOUNDARY.slice(0, 5)} not a boundary\r\n`],
  ];

  it('parses a body in one chunk; an empty file input is no file', async () => {
    assert.deepEqual(await parse([BODY]), expected);
  });

  it('parses the same body split at every byte offset', async () => {
    for (let at = 1; at < BODY.length; at++) {
      assert.deepEqual(await parse([BODY.subarray(0, at), BODY.subarray(at)]), expected, `split at ${at}`);
    }
  });

  it('parses a body fed one byte at a time', async () => {
    assert.deepEqual(await parse([...BODY].map((b) => Buffer.from([b]))), expected);
  });

  it('caps text fields, file bytes and the file count', async () => {
    await assert.rejects(parse([BODY], DEFAULT_UPLOAD_LIMITS, 5), (e: Error) => e instanceof UploadLimitError);
    await assert.rejects(
      parse([BODY], { ...DEFAULT_UPLOAD_LIMITS, maxFileBytes: 10 }),
      (e: Error) => e instanceof UploadLimitError && e.limit === 'maxFileBytes',
    );
    await assert.rejects(
      parse([BODY], { ...DEFAULT_UPLOAD_LIMITS, maxFiles: 0 }),
      (e: Error) => e instanceof UploadLimitError && e.limit === 'maxFiles',
    );
    await assert.rejects(
      parse([BODY], { ...DEFAULT_UPLOAD_LIMITS, maxTotalBytes: 100 }),
      (e: Error) => e instanceof UploadLimitError && e.message.includes('maxTotalBytes (100 bytes)'),
    );
  });

  it('rejects truncated bodies and parts without a name', async () => {
    await assert.rejects(parse([BODY.subarray(0, 80)]), MultipartError);
    const nameless = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${BOUNDARY}--\r\n`);
    await assert.rejects(parse([nameless]), /a part has no name/);
  });

  it('reads the limits of the app config and names a wrong one', () => {
    assert.deepEqual(uploadLimits({ uploads: { maxFiles: 2 } }), { ...DEFAULT_UPLOAD_LIMITS, maxFiles: 2 });
    assert.throws(() => uploadLimits({ uploads: { maxFile: 2 } }), /uploads\.maxFile is not a limit/);
    assert.throws(() => uploadLimits({ uploads: { maxFiles: -1 } }), /uploads\.maxFiles must be a whole number/);
  });
});

describe('constraints', () => {
  const check = (values: [string, string][], c: Parameters<typeof checkConstraints>[1]) =>
    ({ ...checkConstraints(new FormValues(values), c) }) as Record<string, string>;

  it('follows the browser: empty values break only required; lengths in UTF-16 units', () => {
    const c = [{ name: 'n', type: 'text', minlength: 2, maxlength: 3 }];
    assert.deepEqual(check([['n', '']], c), {});
    assert.deepEqual(check([['n', 'a']], c), { n: 'Please use at least 2 characters.' });
    assert.deepEqual(check([['n', '😀']], c), {}, 'an emoji is two code units');
    assert.deepEqual(check([['n', 'abcd']], c), { n: 'Please use at most 3 characters.' });
    assert.deepEqual(check([], [{ name: 'r', type: 'text', required: true, messages: { required: 'Needed.' } }]), {
      r: 'Needed.',
    });
  });

  it('checks email, url, number with min/max, and whole-value patterns', () => {
    assert.deepEqual(check([['e', 'a@b']], [{ name: 'e', type: 'email' }]), {});
    assert.deepEqual(check([['e', 'a@']], [{ name: 'e', type: 'email' }]), { e: 'Please enter an email address.' });
    assert.deepEqual(check([['u', 'nope']], [{ name: 'u', type: 'url' }]), { u: 'Please enter a URL.' });
    const num = [{ name: 'x', type: 'number', min: '1', max: '10' }];
    assert.deepEqual(check([['x', '0x10']], num), { x: 'Please enter a number.' });
    assert.deepEqual(check([['x', '11']], num), { x: 'Please enter 10 or less.' });
    assert.deepEqual(check([['x', '5']], num), {});
    const pat = [{ name: 'p', type: 'text', pattern: '[a-z]+' }];
    assert.deepEqual(check([['p', 'abc1']], pat), { p: 'Please match the requested format.' });
    assert.deepEqual(check([['p', 'abc']], pat), {});
    assert.deepEqual(
      check([['p', 'x']], [{ name: 'p', type: 'text', pattern: '([' }]),
      {},
      'an invalid pattern never fails',
    );
  });

  it('checks a pattern in time linear in the value; an app given one it cannot run does not start', () => {
    const hostile = [{ name: 'p', type: 'text', pattern: '(a+)+b' }];
    assert.deepEqual(check([['p', 'a'.repeat(100_000) + '!']], hostile), { p: 'Please match the requested format.' });
    assert.deepEqual(check([['p', 'aab']], hostile), {});
    const manifest: AppManifest = {
      version: 1,
      app: 'patterns',
      pages: [],
      endpoints: [
        {
          kind: 'action',
          endpointSource: 'kit',
          method: 'POST',
          route: '/join',
          pageId: 'join',
          package: 't',
          symbol: 'Join',
          guards: ['public'],
          csrf: true,
          handler: { status: 'missing', export: 'Join' },
          constraints: [{ name: 'twice', type: 'text', pattern: '(ab)\\1' }],
        },
      ],
      static: {},
      templates: {},
    };
    assert.throws(
      () => createApp({ manifest, static: dirSource('/nonexistent'), csrfSecret: 'x'.repeat(32) }),
      (e: Error) =>
        e instanceof UnsafePatternError &&
        e.message.startsWith('action join.Join: field "twice" has pattern "(ab)\\\\1", which cannot be matched') &&
        e.message.includes('backreference'),
    );
  });
});
