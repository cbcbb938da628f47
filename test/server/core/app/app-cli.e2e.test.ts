// `kit build --app/--bin/--trace` mistakes: one clear line, the right exit status, nothing half-written.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runKit, tempDir } from './built-app.js';

const PAGE = `package site

page home
route "/"
guard public

act Save POST "/save"

view {
  <main><form g:post={Save}><button type="submit">Save</button></form></main>
}
`;

describe('kit build --app: usage and source errors', function () {
  this.timeout(60000);

  it('--trace needs --app or --bin', () => {
    const dir = tempDir('kit-app-cli-');
    const r = runKit(['build', '--out', join(dir, 'dist'), '--trace', 'examples/site']);
    assert.equal(r.status, 2);
    assert.equal(r.stderr, 'kit build: --trace needs --app <dir> or --bin <file>\n');
  });

  it('refuses a non-empty --app directory that is not an earlier app, before building anything', () => {
    const dir = tempDir('kit-app-cli-');
    mkdirSync(join(dir, 'mine'));
    writeFileSync(join(dir, 'mine', 'notes.txt'), 'keep me');
    const r = runKit(['build', '--ssr', '--out', join(dir, 'dist'), '--app', join(dir, 'mine'), 'examples/site']);
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /^kit build: --app .*mine is not empty and holds no kit-app\.json from an earlier kit build; remove it or choose another directory\n$/,
    );
    assert.ok(!existsSync(join(dir, 'dist')), 'the static build did not run');
  });

  it('refuses --bin into a missing directory', () => {
    const dir = tempDir('kit-app-cli-');
    const r = runKit([
      'build',
      '--ssr',
      '--out',
      join(dir, 'dist'),
      '--bin',
      join(dir, 'no', 'such', 'site'),
      'examples/site',
    ]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^kit build: --bin .* directory .* does not exist\n$/);
  });

  it('a handler module that does not compile is reported at file:line:col, exit 1, previous app intact', () => {
    const dir = tempDir('kit-app-cli-');
    const src = join(dir, 'src');
    mkdirSync(src);
    writeFileSync(join(src, 'home.kit'), PAGE);
    writeFileSync(join(src, 'handlers.ts'), 'export function Save(ctx: unknown) {\n  return { ok: true };\n}\n');
    const ok = runKit(['build', '--out', join(dir, 'dist'), '--app', join(dir, 'app'), src], dir);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /app \(1 page, 1 endpoint\) → /);
    writeFileSync(join(src, 'handlers.ts'), 'export function Save(ctx: unknown) {\n  return { ok: true ;\n}\n');
    const bad = runKit(['build', '--out', join(dir, 'dist'), '--app', join(dir, 'app'), src], dir);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /kit build: cannot compile the handler modules:\n.*handlers\.ts:2:\d+: error: /);
    assert.ok(existsSync(join(dir, 'app', 'server.js')), 'the previous app is still there');
  });
});
