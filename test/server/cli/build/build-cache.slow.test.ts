// `kit build` with its cache against `kit build --no-cache`: after any sequence of edits (a page,
// a layout, a component, a css or script file, an image, the error document, the config; pages
// added and removed; the output deleted or tampered with; the page types deleted) the cached build
// writes the same bytes, manifests included, the same page types and the same diagnostics as a
// clean build. A cache that is garbage, cut short or of another format is ignored with one line of
// warning. A build after editing one page renders that page alone and rewrites only its file.
// In process (the CLI's own entry, no child process).
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import {
  appendFileSync,
  existsSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  type PathLike,
} from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { BUILD_CACHE_FORMAT } from '#core/build/cache-records.js';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { type CliResult, runInProcess } from '../cli-harness.js';
import { listFiles, readTree, removeDir, tempDir } from '../../core/build/helpers.js';
import { addPage, initialModel, writeSite, type PageModel, type SiteModel } from './cache-site.js';

type Run = CliResult;

/** `kit <argv>` run in this process, from `cwd`. */
const kit = (cwd: string, ...argv: string[]): Promise<CliResult> => runInProcess(argv, { cwd });

/** Every file under `dir` with its bytes (a missing directory is empty). */
function tree(dir: string): Map<string, string> {
  return existsSync(dir) ? readTree(dir) : new Map();
}

const EDITS = [
  'body',
  'title',
  'layout',
  'css',
  'style',
  'link',
  'slugs',
  'fragment',
  'broken',
  'add',
  'remove',
  'outer',
  'inner',
  'note',
  'noteStyle',
  'cssFile',
  'js',
  'logo',
  'error',
  'config',
  'ssr',
  'badgeFile',
  'useBadge',
  'noop',
  'rmOutput',
  'stale',
  'rmTypes',
] as const;
type Edit = { op: (typeof EDITS)[number]; pick: number; n: number };

/** Applies an edit to the model (or to the files the builds leave); answers what it did. */
function apply(root: string, m: SiteModel, e: Edit): string {
  const ids = [...m.pages.keys()];
  const id = ids[e.pick % ids.length];
  const page = m.pages.get(id) as PageModel;
  const v = `v${e.n}`;
  switch (e.op) {
    case 'body':
      page.body = `Body ${v} of ${id}`;
      break;
    case 'title':
      page.title = `Title ${v}`;
      break;
    case 'layout':
      page.layout = (['outer', 'inner', 'none'] as const)[e.n % 3];
      break;
    case 'css':
      page.css = (['default', 'page', 'none', 'extra'] as const)[e.n % 4];
      break;
    case 'style':
      page.style = e.n % 3 === 0 ? '' : `color: #${(e.n % 4096).toString(16).padStart(3, '0')};`;
      break;
    case 'link':
      page.link = e.n % 5 === 0 ? -1 : ids[e.n % ids.length];
      break;
    case 'slugs':
      page.slugs = e.n % 3 === 0 ? [] : ['a', `s${e.n % 4}`];
      break;
    case 'fragment':
      page.fragment = !page.fragment;
      break;
    case 'broken':
      page.broken = !page.broken;
      break;
    case 'add':
      addPage(m, (['outer', 'inner', 'none'] as const)[e.n % 3]);
      break;
    case 'remove':
      if (m.pages.size > 1) m.pages.delete(id);
      break;
    case 'outer':
      m.outer = `Outer ${v}`;
      break;
    case 'inner':
      m.inner = `Inner ${v}`;
      break;
    case 'note':
      m.note = `Note ${v}`;
      break;
    case 'noteStyle':
      m.noteStyle = `padding: ${e.n % 9}px;`;
      break;
    case 'cssFile':
      m.css = `.extra { color: #${(e.n % 4096).toString(16)}; }`;
      break;
    case 'js':
      m.js = `const greeting: string = '${v}';\nconsole.log(greeting);`;
      break;
    case 'logo':
      m.logo = `<svg xmlns="http://www.w3.org/2000/svg"><circle r="${e.n % 7}"/></svg>`;
      break;
    case 'error':
      m.error = `<main class="error"><h1>${v} {status}</h1><p>{message}</p></main>`;
      break;
    case 'config':
      m.config = `// ${v}`;
      break;
    case 'ssr':
      m.ssr = !m.ssr;
      break;
    case 'badgeFile':
      m.badge = !m.badge;
      break;
    case 'useBadge':
      page.badge = !page.badge;
      break;
    case 'noop':
      break;
    case 'rmOutput':
      rmSync(join(root, 'dist'), { recursive: true, force: true });
      break;
    case 'stale':
      if (existsSync(join(root, 'dist', 'p0'))) writeFileSync(join(root, 'dist', 'p0', 'stale.html'), 'stale');
      break;
    case 'rmTypes':
      rmSync(join(root, '.kit-types'), { recursive: true, force: true });
      break;
  }
  return `${e.op} ${id} ${v}`;
}

/**
 * Runs `f` with the clock `SETTLED` ahead: a build then takes the sources just written as settled
 * and keeps their states (`core/project/source-bytes.ts`), as it does for files older than that.
 */
async function clockAhead<T>(f: () => Promise<T>): Promise<T> {
  const now = Date.now;
  Date.now = () => now() + 10_000;
  try {
    return await f();
  } finally {
    Date.now = now;
  }
}

/**
 * The cached build's result, and what a clean build of the same sources says and writes: the same.
 * `settled`: the cached build runs with the clock ahead (`clockAhead`).
 */
async function checkAgainstClean(root: string, done: string[], settled = false): Promise<Run> {
  const build = () => kit(root, 'build', '--out', 'dist', 'site');
  const cached = await (settled ? clockAhead(build) : build());
  const out = tree(join(root, 'dist'));
  const types = tree(join(root, '.kit-types'));
  rmSync(join(root, '.kit-types'), { recursive: true, force: true });
  const clean = await kit(root, 'build', '--no-cache', '--out', 'clean', 'site');
  const why = `after ${done.join(', ')}`;
  assert.doesNotMatch(cached.stderr, /cache/, why);
  assert.equal(cached.code, clean.code, `${why}: ${cached.stderr}\n---\n${clean.stderr}`);
  assert.equal(cached.stderr, clean.stderr, why);
  assert.deepEqual(tree(join(root, '.kit-types')), types, `${why}: page types`);
  if (clean.code === 0) {
    const expected = tree(join(root, 'clean'));
    assert.deepEqual([...out.keys()], [...expected.keys()], `${why}: files`);
    for (const [f, text] of expected) assert.equal(out.get(f), text, `${why}: ${f}`);
  }
  rmSync(join(root, 'clean'), { recursive: true, force: true });
  return cached;
}

describe('kit build: the cache', function () {
  this.timeout(300000);
  let root: string;
  beforeEach(() => {
    root = tempDir('cache');
  });
  afterEach(() => removeDir(root));

  it('after random edits, a cached build writes what a clean build writes, byte for byte', async () => {
    // A page's text edited inside its view is the commonest edit, and has a way of its own.
    const op = fc.oneof(
      { arbitrary: fc.constantFrom(...EDITS), weight: 3 },
      { arbitrary: fc.constant('body' as const), weight: 1 },
    );
    const edit = fc.record({ op, pick: fc.nat(20), n: fc.nat(1000) });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 4, maxLength: 10 }), async (edits) => {
        // Every other sequence with the clock ahead: its builds trust the states of the files an
        // edit left alone, and read the others.
        const settled = run % 2 === 1;
        const dir = join(root, `run${run++}`);
        const m = initialModel();
        writeSite(dir, m);
        const done: string[] = [settled ? 'first build (settled)' : 'first build'];
        await checkAgainstClean(dir, done, settled);
        for (const e of edits) {
          done.push(apply(dir, m, e));
          writeSite(dir, m);
          await checkAgainstClean(dir, done, settled);
        }
        removeDir(dir);
      }),
      { numRuns: 8 },
    );
  });

  it('layout and component edits render their pages again from the cache, as a clean build writes them', async () => {
    // The cache's way for such an edit reads the parts, then each page to render, and compiles each
    // page as it is read (its tree let go of then): the output is still the clean build's.
    const m = initialModel();
    writeSite(root, m);
    const done = ['first build'];
    await checkAgainstClean(root, done);
    for (const op of ['outer', 'inner', 'note', 'outer'] as const) {
      done.push(apply(root, m, { op, pick: 0, n: done.length }));
      writeSite(root, m);
      const r = await checkAgainstClean(root, done);
      const counts = /\((\d+) rendered, (\d+) from the cache\)\n$/.exec(r.stdout);
      assert.ok(counts, r.stdout);
      assert.ok(Number(counts[1]) > 0, `${done.join(', ')}: pages rendered again`);
    }
  });

  it('a second build after editing one page renders that page and rewrites its file alone', async () => {
    const m = initialModel();
    writeSite(root, m);
    const first = await kit(root, 'build', '--out', 'dist', 'site');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /\(6 rendered, 0 from the cache\)\n$/);
    const inode = (rel: string) => statSync(join(root, 'dist', rel)).ino;
    const before = new Map(listFiles(join(root, 'dist')).map((f) => [f, inode(f)]));

    const again = await kit(root, 'build', '--out', 'dist', 'site');
    assert.match(again.stdout, /\(0 rendered, 6 from the cache\)\n$/);
    for (const [f, ino] of before) assert.equal(inode(f), ino, `${f} untouched by a build that changed nothing`);

    (m.pages.get(1) as PageModel).body = 'A new body';
    writeSite(root, m);
    const edited = await kit(root, 'build', '--out', 'dist', 'site');
    assert.equal(edited.code, 0, edited.stderr);
    assert.match(edited.stdout, /^built 6 pages in .* \(1 rendered, 5 from the cache\)\n$/);
    assert.match(readFileSync(join(root, 'dist', 'p1', 'index.html'), 'utf8'), /A new body/);
    const rewritten = [...before].filter(([f, ino]) => inode(f) !== ino).map(([f]) => f);
    // The page's file, and the assets manifest that lists its hash.
    assert.deepEqual(rewritten.sort(), ['kit-assets.json', 'p1/index.html']);
  });

  it('reads again only the sources whose file system state changed, and those of the last seconds', async () => {
    const m = initialModel();
    // No warnings: a build reads the text of a file it shows diagnostics of.
    (m.pages.get(2) as PageModel).link = 0;
    writeSite(root, m);
    const site = join(root, 'site');
    // Which of the site's sources a build opens (Node's own `fs` functions, as kit's modules see them).
    const opened = async (settled: boolean): Promise<{ r: Run; files: string[] }> => {
      const files = new Set<string>();
      const open = fs.openSync;
      fs.openSync = ((path: PathLike, ...rest: unknown[]) => {
        if (typeof path === 'string' && path.startsWith(site) && path.endsWith('.kit')) files.add(relative(site, path));
        return (open as (...a: unknown[]) => number)(path, ...rest);
      }) as typeof fs.openSync;
      syncBuiltinESMExports();
      try {
        const build = () => kit(root, 'build', '--out', 'dist', 'site');
        const r = await (settled ? clockAhead(build) : build());
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stderr, '');
        return { r, files: [...files].sort() };
      } finally {
        fs.openSync = open;
        syncBuiltinESMExports();
      }
    };
    const all = [
      'inner.layout.kit',
      'note.cmp.kit',
      'outer.layout.kit',
      'p0.kit',
      'p1.kit',
      'p2.kit',
      'p3.kit',
      'p4.kit',
    ];
    assert.deepEqual((await opened(false)).files, all);
    // Written moments ago: their states prove nothing, and the next build reads every one again.
    const recent = await opened(false);
    assert.match(recent.r.stdout, /\(0 rendered, 6 from the cache\)\n$/);
    assert.deepEqual(recent.files, all);
    // A build that writes its records while the files are settled (the clock ahead) keeps their
    // states: the next build reads none of them.
    (m.pages.get(1) as PageModel).body = 'Body of page one';
    writeSite(root, m);
    assert.deepEqual((await opened(true)).files, all);
    const quiet = await opened(true);
    assert.deepEqual(quiet.files, []);
    assert.match(quiet.r.stdout, /\(0 rendered, 6 from the cache\)\n$/);
    // Touched, the same bytes: read again, nothing rendered.
    const p2 = join(site, 'p2.kit');
    const later = new Date(Date.now() + 60_000);
    utimesSync(p2, later, later);
    const touched = await opened(true);
    assert.deepEqual(touched.files, ['p2.kit']);
    assert.match(touched.r.stdout, /\(0 rendered, 6 from the cache\)\n$/);
    // New bytes of the same length under the old modification time: the change time still tells.
    const { mtime, atime, size } = statSync(p2);
    const text = readFileSync(p2, 'utf8').replace('Body of page 2', 'Body of PAGE 2');
    assert.equal(Buffer.byteLength(text), size);
    writeFileSync(p2, text);
    utimesSync(p2, atime, mtime);
    const edited = await opened(true);
    // The page, and the layouts and the component it is compiled with.
    assert.deepEqual(edited.files, ['inner.layout.kit', 'note.cmp.kit', 'outer.layout.kit', 'p2.kit']);
    assert.match(edited.r.stdout, /\(1 rendered, 5 from the cache\)\n$/);
    assert.match(readFileSync(join(root, 'dist', 'p2', 'index.html'), 'utf8'), /Body of PAGE 2/);
  });

  describe('a cache that cannot be trusted is ignored with one line of warning', () => {
    const index = () => join(root, '.kit', 'cache', 'build', 'index');
    const cases: [string, () => void, RegExp][] = [
      ['garbage', () => writeFileSync(index(), Buffer.from([0, 159, 146, 150, 10, 255])), /is not a kit build cache/],
      [
        'an index cut short',
        () => writeFileSync(index(), readFileSync(index()).subarray(0, 5000)),
        /truncated or corrupt/,
      ],
      [
        'a changed byte in its records of the sources',
        () => {
          const b = readFileSync(index());
          b[b.indexOf('source\t') + 12] ^= 1;
          writeFileSync(index(), b);
        },
        /truncated or corrupt/,
      ],
      [
        'a changed byte in its records of the pages (read once a page changed)',
        () => {
          const b = readFileSync(index());
          b[b.length - 10] ^= 1;
          writeFileSync(index(), b);
          appendFileSync(join(root, 'site', 'p1.kit'), '\n');
        },
        /truncated or corrupt/,
      ],
      [
        'another format',
        () =>
          writeFileSync(
            index(),
            readFileSync(index(), 'utf8').replace(`kit-build-cache\t${BUILD_CACHE_FORMAT}\t`, 'kit-build-cache\t99\t'),
          ),
        new RegExp(`has format 99, and this kit reads format ${BUILD_CACHE_FORMAT}`),
      ],
      [
        'another kit',
        () =>
          writeFileSync(
            index(),
            readFileSync(index(), 'utf8').replace(/^(kit-build-cache\t\d+\t)[^\t\n]+/, '$10.0.1+x'),
          ),
        /was written by kit 0\.0\.1, not /,
      ],
      [
        'a pack whose bytes changed (the output gone, so they are read)',
        () => {
          rmSync(join(root, 'dist'), { recursive: true, force: true });
          const dir = join(root, '.kit', 'cache', 'build');
          for (const f of listFiles(dir).filter((x) => x.endsWith('.pack'))) {
            const b = readFileSync(join(dir, f));
            b[Math.floor(b.length / 2)] ^= 0xff;
            writeFileSync(join(dir, f), b);
          }
        },
        /pack [0-9a-f]{16} is truncated or corrupt/,
      ],
      [
        'a pack cut short',
        () => {
          rmSync(join(root, 'dist'), { recursive: true, force: true });
          const dir = join(root, '.kit', 'cache', 'build');
          for (const f of listFiles(dir).filter((x) => x.endsWith('.pack')))
            writeFileSync(join(dir, f), readFileSync(join(dir, f)).subarray(0, 100));
        },
        /pack [0-9a-f]{16} is truncated or corrupt/,
      ],
    ];
    for (const [name, spoil, why] of cases)
      it(name, async () => {
        const m = initialModel();
        writeSite(root, m);
        assert.equal((await kit(root, 'build', '--out', 'dist', 'site')).code, 0);
        spoil();
        const r = await checkWarned(root, why);
        assert.equal(r.code, 0, r.stderr);
        // The cache was built again: the next build takes every page from it, quietly.
        const next = await kit(root, 'build', '--out', 'dist', 'site');
        assert.doesNotMatch(next.stderr, /cache/);
        assert.match(next.stdout, /\(0 rendered, 6 from the cache\)/);
      });
  });

  it('a cache that cannot be written is one line of warning, and the build is whole', async () => {
    writeSite(root, initialModel());
    writeFileSync(join(root, '.kit'), 'not a folder');
    for (const edit of ['first', 'again']) {
      const r = await kit(root, 'build', '--out', 'dist', 'site');
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stderr.split('\n').filter((l) => /cache/.test(l));
      assert.equal(lines.length, 1, `${edit}: ${r.stderr}`);
      assert.match(lines[0], /^kit build: warning: cannot write the cache in \.kit\/cache: .*\.kit is not a directory/);
      assert.match(r.stdout, /\(6 rendered, 0 from the cache\)/);
    }
    const clean = await kit(root, 'build', '--no-cache', '--out', 'clean', 'site');
    assert.equal(clean.code, 0);
    assert.deepEqual(tree(join(root, 'dist')), tree(join(root, 'clean')));
  });

  it('a build with --no-cache neither reads nor writes the cache', async () => {
    writeSite(root, initialModel());
    const r = await kit(root, 'build', '--no-cache', '--out', 'dist', 'site');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /→ dist\/\n$/);
    assert.ok(!existsSync(join(root, '.kit')), 'no .kit folder');
    appendFileSync(join(root, 'site', 'p0.kit'), '\n');
    assert.equal((await kit(root, 'build', '--out', 'dist', 'site')).code, 0);
    assert.ok(existsSync(join(root, '.kit', 'cache', 'build', 'index')));
  });
});

/** A build after the cache was spoilt: exactly one line of warning naming the cache and why, and the bytes of a clean build. */
async function checkWarned(root: string, why: RegExp): Promise<Run> {
  const r = await kit(root, 'build', '--out', 'dist', 'site');
  const lines = r.stderr.split('\n').filter((l) => /cache/.test(l));
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /^kit build: warning: ignoring the cache in \.kit\/cache: .*; building it again$/);
  assert.match(lines[0], why);
  const clean = await kit(root, 'build', '--no-cache', '--out', 'clean', 'site');
  assert.equal(clean.code, 0, clean.stderr);
  assert.deepEqual(tree(join(root, 'dist')), tree(join(root, 'clean')));
  return r;
}
