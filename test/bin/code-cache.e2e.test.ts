// `kit` runs its bundle through V8's code cache (server/src/cli/start.ts): the first run writes the
// cache when it exits, later runs take it, and a missing, damaged, rejected or unwritable cache only
// costs time, never changes what kit prints. Each test runs a copy of the installed command
// (install-copy.ts), whose cache is its own.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fixture } from '../helpers/repo.js';
import { installCopy, type InstallCopy } from './install-copy.js';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

describe('bin/kit.js: the code cache', function () {
  this.timeout(60_000);
  let kit: InstallCopy;
  let userCache: string;
  const errors = fixture('build', 'errors');

  /** `kit args` under `nodeArgs`, with XDG_CACHE_HOME (the user's cache directory) in the copy. */
  function run(args: string[], nodeArgs: string[] = [], env: NodeJS.ProcessEnv = {}): Run {
    const r = spawnSync(process.execPath, [...nodeArgs, kit.bin, ...args], {
      cwd: kit.root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: userCache, KIT_DEBUG: '', ...env },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }
  const caches = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8')) : []);
  const only = (dir: string) => {
    const files = caches(dir);
    assert.equal(files.length, 1, `one cache in ${dir}: ${files.join(', ')}`);
    return join(dir, files[0]);
  };

  beforeEach(() => {
    kit = installCopy();
    userCache = join(kit.root, 'user-cache');
  });
  afterEach(() => kit.remove());

  it('the first run writes the cache beside the bundle, the next ones use it, the output the same', () => {
    const first = run(['check', '--json', errors]);
    assert.equal(first.status, 1, first.stderr);
    const cache = only(kit.cacheDir);
    const { mtimeMs, size } = statSync(cache);
    const bytes = readFileSync(cache);
    assert.ok(size > 10_000, `the cache holds the compiled code (${size} bytes)`);
    for (let i = 0; i < 2; i++) assert.deepEqual(run(['check', '--json', errors]), first);
    assert.equal(statSync(cache).mtimeMs, mtimeMs, 'a usable cache is not rewritten');
    assert.deepEqual(readFileSync(cache), bytes);
    assert.deepEqual(caches(join(userCache, 'kit')), [], 'nothing in the user cache directory');
    // Without a cache at all (KIT_DEBUG loads the bundle through Node's loader): the same answer.
    assert.deepEqual(run(['check', '--json', errors], [], { KIT_DEBUG: '1' }), first);
  });

  it('a cache V8 rejects (other flag values) is rewritten; other option names have a file of their own', () => {
    const small = run(['--help'], ['--max-old-space-size=100']);
    assert.equal(small.status, 0, small.stderr);
    const cache = only(kit.cacheDir);
    const before = readFileSync(cache);
    const large = run(['--help'], ['--max-old-space-size=200']);
    assert.deepEqual(large, small);
    assert.equal(only(kit.cacheDir), cache, 'the same option names, the same file');
    assert.notDeepEqual(readFileSync(cache), before, 'the rejected cache was rewritten');
    assert.deepEqual(run(['--help']), small);
    assert.equal(caches(kit.cacheDir).length, 2, 'no options: another file');
  });

  it('a damaged cache is ignored and replaced', () => {
    const first = run(['check', errors]);
    assert.equal(first.status, 1, first.stderr);
    const cache = only(kit.cacheDir);
    writeFileSync(cache, 'not a V8 code cache at all');
    assert.deepEqual(run(['check', errors]), first);
    assert.match(first.stdout, /bad\.kit:\d+:\d+: error /);
    assert.notEqual(readFileSync(cache, 'latin1'), 'not a V8 code cache at all');
  });

  it('each command has a cache of its own; --help and unknown words share one; --version needs none', () => {
    assert.equal(run(['check', errors]).status, 1);
    const check = only(kit.cacheDir);
    const { mtimeMs } = statSync(check);
    assert.equal(run(['--version']).status, 0);
    assert.deepEqual(caches(kit.cacheDir), [basename(check)], 'kit --version loads no bundle');
    assert.equal(run(['--help']).status, 0);
    assert.equal(run(['chekc']).status, 2);
    assert.equal(run(['routes', '--help']).status, 0);
    const names = caches(kit.cacheDir).map((f) => f.slice(0, f.indexOf('-')));
    assert.deepEqual(names.sort(), ['check', 'kit', 'routes']);
    assert.equal(run(['check', errors]).status, 1);
    assert.equal(statSync(check).mtimeMs, mtimeMs, "kit check's cache holds what kit check compiled");
  });

  it('a rebuilt bundle gets a new cache and the old one is removed', () => {
    assert.equal(run(['--help']).status, 0);
    const old = only(kit.cacheDir);
    const later = new Date(statSync(join(kit.bundleDir, 'kit.cjs')).mtimeMs + 5_000);
    utimesSync(join(kit.bundleDir, 'kit.cjs'), later, later);
    assert.equal(run(['--help']).status, 0);
    const now = only(kit.cacheDir);
    assert.notEqual(now, old);
  });

  it('where the bundle directory cannot be written, the cache goes to the user cache directory', () => {
    writeFileSync(kit.cacheDir, 'a file where the cache directory would go');
    const first = run(['check', '--json', errors]);
    assert.equal(first.status, 1, first.stderr);
    const cache = only(join(userCache, 'kit'));
    const { mtimeMs } = statSync(cache);
    assert.deepEqual(run(['check', '--json', errors]), first);
    assert.equal(statSync(cache).mtimeMs, mtimeMs, 'and is used from there');
  });

  it('installs sharing the user cache directory keep their own caches', () => {
    const other = installCopy();
    try {
      for (const install of [kit, other]) writeFileSync(install.cacheDir, 'no cache beside this bundle');
      const shared = { XDG_CACHE_HOME: userCache, KIT_DEBUG: '' };
      const spawn = (install: InstallCopy) =>
        spawnSync(process.execPath, [install.bin, '--help'], {
          env: { ...process.env, ...shared },
          encoding: 'utf8',
        });
      assert.equal(spawn(kit).status, 0);
      const mine = only(join(userCache, 'kit'));
      const { mtimeMs } = statSync(mine);
      assert.equal(spawn(other).status, 0);
      assert.equal(caches(join(userCache, 'kit')).length, 2, 'the other install added its own');
      assert.equal(spawn(kit).status, 0);
      assert.equal(statSync(mine).mtimeMs, mtimeMs, 'and left this one in place');
    } finally {
      other.remove();
    }
  });

  it('runs where no cache can be written at all', () => {
    writeFileSync(kit.cacheDir, 'a file where the cache directory would go');
    writeFileSync(userCache, 'a file where the user cache directory would go');
    const runs = [run(['check', '--json', errors]), run(['check', '--json', errors])];
    assert.equal(runs[0].status, 1, runs[0].stderr);
    assert.equal(runs[0].stderr, '');
    assert.deepEqual(runs[1], runs[0]);
    rmSync(kit.cacheDir);
    assert.deepEqual(run(['check', '--json', errors]), runs[0], 'the run that writes the cache');
    assert.deepEqual(run(['check', '--json', errors]), runs[0], 'the run that uses it');
    assert.equal(caches(kit.cacheDir).length, 1);
  });

  it('kit --version loads no bundle; an unknown command runs no grammar code; kit check does (V8 coverage)', () => {
    const calls = (args: string[]) => {
      const dir = join(kit.root, `coverage-${args[0]}`);
      const r = run(args, [], { NODE_V8_COVERAGE: dir });
      assert.ok(r.status === 0 || r.status === 1 || (args[0] === 'chekc' && r.status === 2), r.stderr);
      let loaded = false;
      const counts = new Map<string, number>();
      for (const file of readdirSync(dir)) {
        const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
          result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
        };
        for (const script of report.result.filter((s) => s.url.endsWith('/out/bundle/kit.cjs'))) {
          loaded = true;
          for (const f of script.functions) counts.set(f.functionName, f.ranges[0].count);
        }
      }
      return { loaded, counts };
    };
    assert.equal(calls(['--version']).loaded, false, 'kit --version answers before loading the bundle');
    // esbuild names each lazily initialised module's function after its source file.
    const grammar = ['grammar/src/common/chevrotain.ts', 'grammar/src/index.ts'];
    const unknown = calls(['chekc']);
    const check = calls(['check', errors]);
    assert.ok(unknown.loaded && check.loaded);
    for (const name of grammar) assert.equal(unknown.counts.get(name), 0, `kit chekc: ${name} is not initialised`);
    for (const name of [...grammar, 'server/src/cli/commands/check.ts'])
      assert.equal(check.counts.get(name), 1, `kit check: ${name} is initialised once`);
  });
});
