// A CommonJS module compiled through V8's code cache (the TypeScript compiler, the `kit` command's
// bundle: test/bin/code-cache.e2e.test.ts) must behave exactly as when required, and a missing, stale or
// damaged cache only costs time.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { codeCacheName, loadWithCodeCache } from '#core/bind/code-cache.js';
import { codeCacheFile, typescript } from '#core/bind/ts.js';

interface Probe {
  base: string;
  dir: string;
  self: boolean;
  twice(x: number): number;
}

describe('core/bind: modules through the code cache', () => {
  let dir: string;
  let file: string;
  let cache: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-code-cache-'));
    file = join(dir, 'lib', 'm.js');
    cache = join(dir, '.cache', 'm.v8');
    mkdirSync(join(dir, 'lib'));
    // Uses what the loader gives a CommonJS module: require, __filename, __dirname, module, this.
    writeFileSync(
      file,
      "const path = require('node:path');\nexports.base = path.basename(__filename);\nexports.dir = path.basename(__dirname);\nmodule.exports.self = this === module.exports;\nexports.twice = (x) => x * 2;\n",
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a CommonJS module as the loader would, writes the cache once and reuses it', () => {
    const first = loadWithCodeCache(file, cache) as Probe;
    assert.deepEqual(
      { base: first.base, dir: first.dir, self: first.self, six: first.twice(3) },
      { base: 'm.js', dir: 'lib', self: true, six: 6 },
    );
    const written = statSync(cache).mtimeMs;
    assert.ok(readFileSync(cache).length > 0);
    const second = loadWithCodeCache(file, cache) as Probe;
    assert.equal(second.twice(4), 8);
    assert.equal(statSync(cache).mtimeMs, written, 'a usable cache is not rewritten');
  });

  it('rejects a damaged cache, still loads the module and rewrites the cache', () => {
    // A module this process has not compiled yet: V8's in-memory cache would answer for the other.
    const other = join(dir, 'lib', 'other.js');
    const otherCache = join(dir, '.cache', 'other.v8');
    writeFileSync(other, 'exports.thrice = (x) => x * 3;\n');
    writeFileSync(otherCache, 'not a V8 code cache at all');
    const m = loadWithCodeCache(other, otherCache) as { thrice(x: number): number };
    assert.equal(m.thrice(5), 15);
    assert.notEqual(readFileSync(otherCache, 'latin1'), 'not a V8 code cache at all');
  });

  it('removes the caches of earlier versions when it writes a new one', () => {
    const v2 = join(dir, 'lib', 'v2.js');
    writeFileSync(v2, 'exports.v = 2;\n');
    const caches = join(dir, 'versions');
    mkdirSync(caches);
    writeFileSync(join(caches, 'lib-0000000000000001.v8'), 'an earlier version');
    writeFileSync(join(caches, 'lib-0000000000000002.v8'), 'this version, from before caches named flags');
    writeFileSync(join(caches, 'lib-0000000000000001.bbbbbbbb.v8'), 'an earlier version, other flags');
    writeFileSync(join(caches, 'lib-0000000000000002.bbbbbbbb.v8'), 'this version, other flags: kept');
    writeFileSync(join(caches, 'other-0000000000000001.aaaaaaaa.v8'), 'another module: kept');
    assert.equal((loadWithCodeCache(v2, join(caches, 'lib-0000000000000002.aaaaaaaa.v8')) as { v: number }).v, 2);
    assert.deepEqual(readdirSync(caches).sort(), [
      'lib-0000000000000002.aaaaaaaa.v8',
      'lib-0000000000000002.bbbbbbbb.v8',
      'other-0000000000000001.aaaaaaaa.v8',
    ]);
  });

  it('loads even where the cache cannot be written', () => {
    writeFileSync(join(dir, 'blocker'), 'a file where the cache directory would go');
    const m = loadWithCodeCache(file, join(dir, 'blocker', 'm.v8')) as Probe;
    assert.equal(m.twice(6), 12);
  });

  it('writes to the first of several places that can be written, and reads from there', () => {
    const late = join(dir, 'lib', 'late.js');
    writeFileSync(late, 'exports.late = () => 7;\n');
    // A file where the first place's directory would go (as the test before leaves it; run alone too).
    writeFileSync(join(dir, 'blocker'), 'a file where the cache directory would go');
    const places = [join(dir, 'blocker', 'late.v8'), join(dir, 'second', 'late.v8')];
    assert.equal((loadWithCodeCache(late, places) as { late(): number }).late(), 7);
    const written = statSync(places[1]).mtimeMs;
    assert.equal((loadWithCodeCache(late, places) as { late(): number }).late(), 7);
    assert.equal(statSync(places[1]).mtimeMs, written, 'read, not rewritten');
  });

  it('names a cache by its source and by the names of the Node options', () => {
    const name = codeCacheName('kit', ['v20', 'x64', '/a/kit.cjs', 100], ['--expose-gc']);
    assert.match(name, /^kit-[0-9a-f]{16}\.[0-9a-f]{8}\.v8$/);
    assert.equal(codeCacheName('kit', ['v20', 'x64', '/a/kit.cjs', 100], ['--expose-gc']), name);
    assert.notEqual(
      codeCacheName('kit', ['v20', 'x64', '/a/kit.cjs', 101], ['--expose-gc']).split('.')[0],
      name.split('.')[0],
    );
    const other = codeCacheName('kit', ['v20', 'x64', '/a/kit.cjs', 100], []);
    assert.equal(other.split('.')[0], name.split('.')[0]);
    assert.notEqual(other, name);
  });

  it('gives the same TypeScript as require, and keys its cache by the installed file', () => {
    const req = createRequire(import.meta.url);
    const ts = typescript();
    assert.equal(ts.version, (req('typescript') as typeof ts).version);
    const sf = ts.createSourceFile(
      'a.ts',
      'export async function Save(ctx: unknown, input: { q: string }) {}',
      ts.ScriptTarget.ES2022,
      true,
    );
    assert.equal(sf.statements.length, 1);
    assert.ok(ts.isFunctionDeclaration(sf.statements[0]));
    const installed = req.resolve('typescript');
    assert.match(
      codeCacheFile(installed),
      /[\\/]node_modules[\\/]\.cache[\\/]kit[\\/]typescript-[0-9a-f]{16}\.[0-9a-f]{8}\.v8$/,
    );
    // V8 rejects a cache made under other flags: each set of option names has its own file.
    const withGc = codeCacheFile(installed, ['--expose-gc']);
    assert.notEqual(withGc, codeCacheFile(installed, []));
    assert.equal(basename(withGc).split('.')[0], basename(codeCacheFile(installed, [])).split('.')[0]);
  });
});
