// The `kit` command as installed: bin/kit.js runs the bundle (out/bundle/kit.cjs, scripts/bundle.mjs)
// through V8's code cache (code-cache.e2e.test.ts). It answers as the compiled modules do (the rest of
// the suite drives those), finds the files it reads relative to its modules (templates, the app
// runtime), names the TypeScript sources in stack traces under KIT_DEBUG, and serves the language
// server over stdio.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fixture, repoRoot } from '../helpers/repo.js';
import { CLI_MAIN } from '../server/cli/cli-harness.js';
import { LspClient } from '../server/lsp/helpers/lsp-client.js';

const bin = join(repoRoot, 'bin', 'kit.js');
const bundleDir = join(repoRoot, 'out', 'bundle');

function kit(entry: string, args: string[], cwd = repoRoot): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env, NO_COLOR: '1' };
  const r = spawnSync(process.execPath, [entry, ...args], { cwd, encoding: 'utf8', env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Files under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();
}

describe('bin/kit.js (the bundled CLI)', function () {
  this.timeout(60_000);
  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'kit-bin-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('runs the bundle, which has a linked source map of the TypeScript sources and is ASCII text', () => {
    assert.match(readFileSync(bin, 'utf8'), /require\('\.\.\/out\/bundle\/start\.cjs'\)\.start\(/);
    for (const file of ['kit.cjs', 'start.cjs']) {
      const text = readFileSync(join(bundleDir, file), 'latin1');
      assert.match(text, new RegExp(`//# sourceMappingURL=${file.replace('.', '\\.')}\\.map\\s*$`));
      // V8 holds a file with one character outside ASCII as two bytes a character, and reads it slower.
      const outside = /[^\x00-\x7f]/.exec(text);
      assert.equal(
        outside,
        null,
        `${file}: non-ASCII text at ${outside?.index}: ${text.slice(outside?.index ?? 0, 80)}`,
      );
    }
    assert.match(readFileSync(join(bundleDir, 'kit.cjs'), 'utf8'), /^"use strict";/, 'strict mode, as the sources');
    const map = JSON.parse(readFileSync(join(bundleDir, 'kit.cjs.map'), 'utf8')) as { sources: string[] };
    assert.ok(
      map.sources.some((s) => s.endsWith('server/src/cli/run.ts')),
      'the map names the sources',
    );
  });

  it('kit --version prints the package version', () => {
    const r = kit(bin, ['--version']);
    assert.equal(r.status, 0, r.stderr);
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    assert.equal(r.stdout, `kit ${version}\n`);
  });

  it('KIT_DEBUG: an internal error prints a stack trace naming the TypeScript sources', () => {
    // A stdout that throws on write: an internal error inside the check command.
    const refuse = join(work, 'refuse-stdout.cjs');
    writeFileSync(refuse, "process.stdout.write = () => { throw new Error('stdout refused'); };\n");
    const args = ['--require', refuse, bin, 'check', fixture('build', 'errors')];
    const debug = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, KIT_DEBUG: '1' } });
    assert.equal(debug.status, 70, debug.stderr);
    assert.match(debug.stderr, /^kit check: internal error: stdout refused\n/);
    assert.match(debug.stderr, /server[\\/]src[\\/]cli[\\/]commands[\\/]check\.ts:\d+:\d+/);
    const plain = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, KIT_DEBUG: '' } });
    assert.equal(plain.status, 70);
    assert.equal(plain.stderr, 'kit check: internal error: stdout refused\n', 'no stack without KIT_DEBUG');
  });

  it('kit check reports what the compiled CLI reports, exit status included', () => {
    for (const [dir, args, status] of [
      [join(repoRoot, 'examples', 'site'), ['--ssr'], 0],
      [fixture('build', 'errors'), [], 1],
    ] as const) {
      const bundled = kit(bin, ['check', '--json', ...args, dir]);
      const compiled = kit(CLI_MAIN, ['check', '--json', ...args, dir]);
      assert.equal(bundled.status, status, bundled.stderr);
      assert.equal(compiled.status, status, compiled.stderr);
      assert.deepEqual(JSON.parse(bundled.stdout), JSON.parse(compiled.stdout));
    }
    const human = kit(bin, ['check', fixture('build', 'errors')]);
    assert.match(human.stdout, /bad\.kit:\d+:\d+: error /);
  });

  it('binds on a worker thread started from the bundle, with the answers of the main thread', () => {
    // Two directories of handlers that all bind (sources with errors give no report).
    const run = (worker: string) =>
      spawnSync(process.execPath, [bin, 'routes', '--ssr', 'handler-types', 'bind/other'], {
        cwd: fixture(),
        encoding: 'utf8',
        env: { ...process.env, KIT_BIND_STATS: '1', KIT_BIND_WORKER: worker },
      });
    const [there, here] = [run('1'), run('0')];
    assert.equal(there.status, 0, there.stderr);
    assert.match(there.stderr, /; 2 directories bound on a worker thread\n/);
    assert.doesNotMatch(here.stderr, /worker thread/);
    assert.equal(there.stdout, here.stdout);
  });

  it('kit init and kit build --app find the starter and the app runtime beside the bundle', () => {
    const init = kit(bin, ['init', 'site'], work);
    assert.equal(init.status, 0, init.stderr);
    assert.ok(existsSync(join(work, 'site', 'kit.config.ts')), 'the starter was copied');
    const site = join(repoRoot, 'examples', 'site');
    const args = (out: string) => ['build', '--ssr', '--out', join(work, out, 'site'), '--app', join(work, out, 'app')];
    const bundled = kit(bin, [...args('bundled'), site]);
    assert.equal(bundled.status, 0, bundled.stderr);
    const compiled = kit(CLI_MAIN, [...args('compiled'), site]);
    assert.equal(compiled.status, 0, compiled.stderr);
    const built = filesUnder(join(work, 'bundled'));
    assert.deepEqual(built, filesUnder(join(work, 'compiled')));
    assert.ok(built.includes(join('app', 'server.js')), 'the app has its server');
    for (const file of [join('app', 'server.js'), join('app', 'routes.js')])
      assert.equal(
        readFileSync(join(work, 'bundled', file), 'utf8'),
        readFileSync(join(work, 'compiled', file), 'utf8'),
        `${file}: the generated code is the same`,
      );
    assert.ok(
      built.includes(join('app', 'node_modules', '@kit-lang', 'kit', 'shared', 'app', 'index.js')),
      'the app runtime was copied',
    );
  });

  it('kit lsp answers initialize over stdio and shuts down cleanly', async () => {
    const client = LspClient.start({ script: bin, cwd: work });
    try {
      const result = await client.initialize([join(repoRoot, 'examples', 'site')]);
      assert.equal(result.serverInfo?.name, 'kit');
      assert.ok(result.capabilities.hoverProvider, 'hover is offered');
    } catch (e) {
      client.kill();
      throw e;
    }
    assert.equal(await client.shutdown(), 0);
  });
});
