// The build cache's index format: what is written reads back the same, whatever the names hold (tabs,
// newlines, backslashes, the list separators), and a record that would send a write outside the
// output (an absolute or `..` path) or does not parse is refused with a reason. Unit tier.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blobsOf, decodeIndex, encodeIndex, pagesOf, type BuildIndex } from '#cli/build/cache-index.js';
import { CacheProblem } from '#cli/build/cache-lines.js';
import { BuildCache } from '#cli/build/cache-store.js';
import type { PageRecord } from '#core/build/cache-records.js';

const KIT = '9.9.9+test';
const h = (s: string) => createHash('sha256').update(s).digest('hex');

function sample(odd: string): BuildIndex {
  // Output files are named by percent-encoded URL segments, as the build names them.
  const file = `a/${encodeURIComponent(odd)}/index.html`;
  const page: PageRecord = {
    source: `site/${odd}.kit`,
    key: h('key'),
    deps: [`site/${odd}.kit`, 'site/main.layout.kit'],
    pageId: `p${odd}`,
    route: '/a/{slug}',
    render: 'hybrid',
    cache: `max-age=60${odd}`,
    errorPage: 'error:layout:site.main',
    prerender: [
      ['/a/x', 'a/x/index.html'],
      [`/a/${encodeURIComponent(odd)}`, file],
    ],
    files: new Map([[file, [h('f'), 42]]]),
    kitJs: true,
    assets: ['/assets/css/a.0123456789.css'],
    notFound: [h('404'), 7],
  };
  return {
    global: h('g'),
    config: h('c'),
    parts: h('p'),
    fast: true,
    output: {
      dir: `dist${odd}`,
      manifest: h('m'),
      pages: 2,
      files: [file],
      fingerprint: h('fp'),
      notFound: `site/${odd}.kit`,
    },
    shared: new Set(['site/main.layout.kit', `site/${odd}.css`]),
    dead: 3,
    sources: [
      {
        path: `site/${odd}.kit`,
        hash: h('s'),
        kind: 'page',
        pkg: 'site',
        id: `p${odd}`,
        shape: h('sh'),
        probes: [],
        state: '',
      },
      {
        path: 'site/main.layout.kit',
        hash: h('l'),
        kind: 'layout',
        pkg: 'site',
        id: 'main',
        shape: h('lsh'),
        probes: [[`site/${odd}.png`, true]],
        state: '2049:1835021:412:1765093541123.4567:1765093541123.4567',
      },
    ],
    modules: new Map([['kit.config.ts', h('cfg')]]),
    inputs: new Map([[`site/${odd}.css`, 'missing']]),
    types: new Map([['site', `// ${odd}\n`]]),
    diagnostics: [
      {
        code: 'broken_internal_link',
        severity: 'warning',
        message: `link ${odd}`,
        file: `site/${odd}.kit`,
        range: { start: { offset: 1, line: 0, column: 1 }, end: { offset: 3, line: 0, column: 3 } },
      },
    ],
    cross: new Set([`site/${odd}.kit`]),
    assets: new Map([
      ['assets/css/a.0123456789.css', { path: 'assets/css/a.0123456789.css', hash: h('a'), size: 9, immutable: true }],
    ]),
    blobs: new Map([[h('f'), { pack: '0123456789abcdef', offset: 10, size: 42 }]]),
    pages: new Map([[page.source, page]]),
  };
}

function plain(x: BuildIndex): unknown {
  return { ...x, pages: [...pagesOf(x)], blobs: [...blobsOf(x)], rest: undefined };
}

describe('build cache: the index format', () => {
  for (const odd of ['plain', 'tab\there', 'new\nline', 'back\\slash\\t', 'sep\u001funit\u001erecord', 'é ü 日本'])
    it(`reads back what it wrote, names with ${JSON.stringify(odd)}`, () => {
      const x = sample(odd);
      const back = decodeIndex(KIT, encodeIndex(KIT, x));
      assert.deepEqual(plain(back), plain(sample(odd)));
    });

  it('an index read back and written again is the same bytes, its pages read or not', () => {
    const bytes = encodeIndex(KIT, sample('é x'));
    assert.deepEqual(encodeIndex(KIT, decodeIndex(KIT, bytes)), bytes);
    const read = decodeIndex(KIT, bytes);
    pagesOf(read);
    assert.deepEqual(encodeIndex(KIT, read), bytes);
  });

  const refused = (mutate: (x: BuildIndex) => void, why: RegExp) => {
    const x = sample('x');
    mutate(x);
    const back = decodeIndex(KIT, encodeIndex(KIT, x));
    assert.throws(
      () => pagesOf(back),
      (e: Error) => e instanceof CacheProblem && why.test(e.message),
    );
  };

  it('refuses a page file outside the output', () => {
    for (const bad of ['../escape.html', '/etc/passwd', 'a/../../b', 'a//b', 'a\\b', '.', 'a/./b'])
      refused((x) => {
        const page = [...x.pages.values()][0];
        page.files = new Map([[bad, [h('f'), 1]]]);
      }, /an output path/);
  });

  it('refuses a pack name that is not one', () => {
    refused((x) => x.blobs.set(h('z'), { pack: '../../x', offset: 0, size: 1 }), /a pack name/);
  });

  it('refuses an asset outside the output at once', () => {
    const x = sample('x');
    x.assets.set('../up.css', { path: '../up.css', hash: h('u'), size: 1, immutable: true });
    assert.throws(() => decodeIndex(KIT, encodeIndex(KIT, x)), /an output path/);
  });
});

describe('build cache: the kept bytes', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kit-cache-store-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('copies what it keeps: the caller may fill its buffer again (small files and one over a chunk)', () => {
    const files = [
      { name: 'small', text: 'é'.repeat(3000) },
      { name: 'big', text: 'x'.repeat(3 << 20) },
      { name: 'after', text: 'after the big one' },
    ];
    const cache = new BuildCache(root, KIT);
    const shared = new Uint8Array(4 << 20);
    const hashes: string[] = [];
    for (const f of files) {
      const bytes = shared.subarray(0, new TextEncoder().encodeInto(f.text, shared).written);
      const hash = createHash('sha256').update(bytes).digest('hex');
      hashes.push(hash);
      cache.keep(hash, bytes);
      shared.fill(0);
    }
    const x = sample('x');
    const page = [...x.pages.values()][0];
    page.files = new Map(files.map((f, i) => [`${f.name}/index.html`, [hashes[i], Buffer.byteLength(f.text)]]));
    x.blobs = new Map();
    x.assets = new Map();
    page.notFound = undefined;
    cache.commit(x);
    const again = new BuildCache(root, KIT);
    files.forEach((f, i) => assert.equal(Buffer.from(again.bytes(hashes[i])).toString(), f.text, f.name));
  });
});
