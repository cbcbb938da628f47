// Form decoding into a handler's input type, and the listen-address options of the server.
import { strict as assert } from 'node:assert';
import { decodeForm, FormDecodeError, FormValues, formFromData, formFromQuery } from '#shared/app/form.js';
import { listenAddress, parseAddr, ConfigError } from '#shared/app/server.js';
import type { InputField } from '#shared/app/manifest.js';

const FIELDS: InputField[] = [
  { name: 'name', type: 'string', optional: false },
  { name: 'note', type: 'string', optional: true },
  { name: 'age', type: 'number', optional: true },
  { name: 'count', type: 'number', optional: false },
  { name: 'agree', type: 'boolean', optional: false },
  { name: 'news', type: 'boolean', optional: true },
  { name: 'tags', type: 'string[]', optional: true },
  { name: 'ids', type: 'string[]', optional: false },
];

function decode(pairs: [string, string][]): Record<string, unknown> {
  return decodeForm(new FormValues(pairs), FIELDS);
}

describe('form decoding', () => {
  it('decodes every supported type', () => {
    assert.deepEqual(
      decode([
        ['name', 'Ann'],
        ['count', '2.5e1'],
        ['agree', 'on'],
        ['news', 'false'],
        ['tags', 'a'],
        ['tags', 'b'],
        ['ids', '1'],
      ]),
      {
        name: 'Ann',
        count: 25,
        agree: true,
        news: false,
        tags: ['a', 'b'],
        ids: ['1'],
      },
    );
  });

  it('absent optional fields stay absent; an absent checkbox is false; absent string[] is empty', () => {
    assert.deepEqual(
      decode([
        ['name', ''],
        ['count', '0'],
      ]),
      { name: '', count: 0, agree: false, ids: [] },
    );
  });

  const errors: [string, [string, string][], string][] = [
    [
      'unknown field',
      [
        ['name', 'a'],
        ['count', '1'],
        ['evil', 'x'],
      ],
      'invalid form: field "evil" is not a field of the input',
    ],
    ['missing required string', [['count', '1']], 'invalid form: field "name" is required'],
    ['missing required number', [['name', 'a']], 'invalid form: field "count" is required'],
    [
      'empty required number',
      [
        ['name', 'a'],
        ['count', ' '],
      ],
      'invalid form: field "count" is required',
    ],
    [
      'not a number',
      [
        ['name', 'a'],
        ['count', '12abc'],
      ],
      'invalid form: field "count" must be a number',
    ],
    [
      'hex is not a number here',
      [
        ['name', 'a'],
        ['count', '0x10'],
      ],
      'invalid form: field "count" must be a number',
    ],
    [
      'Infinity is not a number here',
      [
        ['name', 'a'],
        ['count', 'Infinity'],
      ],
      'invalid form: field "count" must be a number',
    ],
    [
      'repeated scalar',
      [
        ['name', 'a'],
        ['name', 'b'],
        ['count', '1'],
      ],
      'invalid form: field "name" must have one value',
    ],
    [
      'bad boolean',
      [
        ['name', 'a'],
        ['count', '1'],
        ['agree', 'perhaps'],
      ],
      'invalid form: field "agree" must be a boolean',
    ],
    [
      'prototype keys are just unknown fields',
      [
        ['name', 'a'],
        ['count', '1'],
        ['__proto__', 'x'],
      ],
      'invalid form: field "__proto__" is not a field of the input',
    ],
  ];
  for (const [name, pairs, message] of errors) {
    it(`400: ${name}`, () => {
      assert.throws(
        () => decode(pairs),
        (e: Error) => e instanceof FormDecodeError && e.message === message,
      );
    });
  }

  it('never echoes the value', () => {
    assert.throws(
      () =>
        decode([
          ['name', 'a'],
          ['count', '<script>'],
        ]),
      (e: Error) => !e.message.includes('script'),
    );
  });

  it('FormValues keeps every value and strips the CSRF field', () => {
    const fd = new FormData();
    fd.append('x', '1');
    fd.append('_kit_csrf', 'token');
    fd.append('x', '2');
    fd.append('file', new Blob(['b']), 'f.txt');
    const { form, files } = formFromData(fd);
    assert.deepEqual(form.entries(), [
      ['x', '1'],
      ['x', '2'],
    ]);
    assert.equal(form.get('x'), '1');
    assert.deepEqual(form.getAll('x'), ['1', '2']);
    assert.ok(!form.has('_kit_csrf'));
    assert.deepEqual([...files.keys()], ['file']);
    assert.equal(files.get('file')![0].name, 'f.txt');
    assert.deepEqual({ ...formFromQuery('?a=1&a=2&b=').toObject() }, { a: '1', b: '' });
  });
});

describe('listen address', () => {
  it('--addr beats PORT beats the default', () => {
    assert.deepEqual(listenAddress([], {}), { host: '127.0.0.1', port: 8080 });
    assert.deepEqual(listenAddress([], { PORT: '9000' }), { host: '127.0.0.1', port: 9000 });
    assert.deepEqual(listenAddress(['--addr', '0.0.0.0:81'], { PORT: '9000' }), { host: '0.0.0.0', port: 81 });
    assert.deepEqual(listenAddress(['--addr=[::1]:0'], {}), { host: '::1', port: 0 });
    assert.deepEqual(parseAddr(':7'), { host: '127.0.0.1', port: 7 });
  });

  it('mistakes name the option', () => {
    assert.throws(
      () => parseAddr('localhost'),
      (e: Error) => e instanceof ConfigError && /--addr: expected host:port/.test(e.message),
    );
    assert.throws(() => parseAddr('h:99999'), /--addr: port must be a number from 0 to 65535/);
    assert.throws(() => listenAddress([], { PORT: 'http' }), /PORT: port must be/);
    assert.throws(() => listenAddress(['--verbose'], {}), /unknown argument "--verbose"/);
    assert.throws(() => listenAddress(['--addr'], {}), /--addr needs a value/);
  });
});
