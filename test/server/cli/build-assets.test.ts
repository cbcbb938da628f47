// Declared files (`asset`, `wasm`, a component's `asset`) are copied into the output under
// content-hashed names, listed in kit-assets.json, and the view's references to them rewritten.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildFixture, listFiles, removeDir, tempDir } from '../core/build/helpers.js';
import { repoRoot } from '../../helpers/repo.js';
import { runInProcess } from './cli-harness.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

function hashedName(dir: string, base: string, ext: string, bytes: Buffer): string {
  return `assets/${dir}/${base}.${createHash('sha256').update(bytes).digest('hex').slice(0, 10)}.${ext}`;
}

describe('kit build: declared files', function () {
  this.timeout(60000);
  let tmp: string;
  beforeEach(() => {
    tmp = tempDir('assets');
  });
  afterEach(() => removeDir(tmp));

  it('copies asset and wasm files with content hashes, rewrites references and lists them', async () => {
    const src = join(repoRoot, buildFixture('assets'));
    const out = join(tmp, 'dist');
    const r = await runInProcess(['build', '--out', out, buildFixture('assets')], { cwd: repoRoot });
    assert.equal(r.code, 0, r.stderr);
    const logo = hashedName('files', 'logo', 'svg', readFileSync(join(src, 'img', 'logo.svg')));
    const badge = hashedName('files', 'badge', 'png', readFileSync(join(src, 'badge.png')));
    const wasm = hashedName('wasm', 'engine', 'wasm', readFileSync(join(src, 'engine.wasm')));
    const files = listFiles(out);
    for (const f of [logo, badge, wasm]) assert.ok(files.includes(f), `${f} in ${files.join(', ')}`);
    assert.deepEqual(readFileSync(join(out, badge)), readFileSync(join(src, 'badge.png')), 'binary bytes kept');
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    assert.match(html, new RegExp(`<img src="/${logo}" alt="Logo">`));
    assert.match(html, new RegExp(`<a href="/${logo}">`), 'both spellings of the path are rewritten');
    assert.match(html, new RegExp(`<img src="/${badge}" alt="Badge">`), "a component's own file");
    const manifest = JSON.parse(readFileSync(join(out, 'kit-assets.json'), 'utf8')) as {
      files: string[];
      cache: Record<string, string>;
      hashes: Record<string, string>;
    };
    for (const f of [logo, badge, wasm]) {
      assert.ok(manifest.files.includes(f));
      assert.equal(manifest.cache[f], IMMUTABLE);
      assert.match(manifest.hashes[f], /^sha256-[0-9a-f]{64}$/);
    }
  });

  it('reports a declared file that is missing at its declaration, in check and build', async () => {
    const src = join(tmp, 'src');
    cpSync(join(repoRoot, buildFixture('assets')), src, { recursive: true });
    rmSync(join(src, 'badge.png'));
    const check = await runInProcess(['check', 'src'], { cwd: tmp });
    assert.equal(check.code, 1);
    assert.match(
      check.stdout,
      /src\/badge\.cmp\.kit:4:7: error missing_asset: Badge: asset "\.\/badge\.png" cannot be used: no such file: src\/badge\.png/,
    );
    const build = await runInProcess(['build', '--out', 'dist', 'src'], { cwd: tmp });
    assert.equal(build.code, 1);
    assert.match(build.stderr, /missing_asset/);
    assert.ok(!existsSync(join(tmp, 'dist')));
  });
});
