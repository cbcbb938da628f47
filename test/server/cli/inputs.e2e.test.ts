// The command line under real use: sources that are not what they seem (links, devices, FIFOs,
// binary and oversized files, invalid UTF-8), markup nested past the limit, and output piped into
// a reader that stops early.
import { strict as assert } from 'node:assert';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { CLI_MAIN, page, runProcess, TempTree } from './cli-harness.js';

describe('kit: sources that are not what they seem', function () {
  this.timeout(20000);
  let tree: TempTree;
  beforeEach(() => {
    tree = new TempTree({ 'ok/home.kit': page('/ok') });
  });
  afterEach(() => tree.dispose());

  async function refused(args: string[], line: string, command = 'check'): Promise<void> {
    const r = await runProcess([command, ...args], tree.root);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, `kit ${command}: ${line}\n`);
    assert.equal(r.stdout, '');
  }

  it('a broken .kit link inside a scanned directory is refused by name, exit 2', async () => {
    symlinkSync('nowhere.kit', tree.path('ok/dangling.kit'));
    await refused(['ok'], 'cannot read ok/dangling.kit: broken symbolic link');
  });

  it('a .kit link loop is refused, never followed forever', async () => {
    symlinkSync('b.kit', tree.path('ok/a.kit'));
    symlinkSync('a.kit', tree.path('ok/b.kit'));
    await refused(['ok'], 'cannot read ok/a.kit: symbolic link loop');
  });

  it('a link to a device and a FIFO are refused by name, in a directory and named directly', async () => {
    symlinkSync('/dev/zero', tree.path('ok/zero.kit'));
    await refused(['ok/zero.kit'], 'cannot read ok/zero.kit: a character device, not a regular file');
    await refused(['ok'], 'cannot read ok/zero.kit: a character device, not a regular file');
    execFileSync('rm', [tree.path('ok/zero.kit')]);
    execFileSync('mkfifo', [tree.path('ok/f.kit')]);
    await refused(['ok/f.kit'], 'cannot read ok/f.kit: a FIFO, not a regular file');
    await refused(['ok'], 'cannot read ok/f.kit: a FIFO, not a regular file');
  });

  it('kit fmt reads by the same rules and leaves a file with invalid UTF-8 byte for byte as it was', async () => {
    symlinkSync('/dev/zero', tree.path('ok/zero.kit'));
    await refused(['ok/zero.kit'], 'cannot read ok/zero.kit: a character device, not a regular file', 'fmt');
    execFileSync('rm', [tree.path('ok/zero.kit')]);
    execFileSync('mkfifo', [tree.path('ok/f.kit')]);
    await refused(['--check', 'ok'], 'cannot read ok/f.kit: a FIFO, not a regular file', 'fmt');
    execFileSync('rm', [tree.path('ok/f.kit')]);
    const bytes = Buffer.concat([Buffer.from('route   "/caf'), Buffer.from([0xe9]), Buffer.from('"\nguard public\n')]);
    writeFileSync(tree.path('ok/u.kit'), bytes);
    const r = await runProcess(['fmt', '--write', 'ok/u.kit'], tree.root);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'ok/u.kit:1:14: error invalid_utf8: invalid UTF-8: byte 0xE9 at byte offset 13 is not part of a valid ' +
        'character (file left unformatted)\n',
    );
    assert.deepEqual(readFileSync(tree.path('ok/u.kit')), bytes);
  });

  it('kit build reads css and js files by the same rules: a FIFO or a device is missing_asset_file', async () => {
    tree.write('a/home.kit', 'route "/"\nguard public\ncss "./x.css"\njs "./y.js"\n\nview {\n  <p>x</p>\n}\n');
    execFileSync('mkfifo', [tree.path('a/x.css')]);
    symlinkSync('/dev/zero', tree.path('a/y.js'));
    const r = await runProcess(['build', '--out', 'dist', 'a'], tree.root);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /^a\/home\.kit:3:1: error missing_asset_file: .*"\.\/x\.css" cannot be read \(a FIFO, not a/m,
    );
    assert.match(r.stderr, /^a\/home\.kit:4:1: error missing_asset_file: .*"\.\/y\.js" cannot be read \(a character/m);
  });

  it('a binary file named .kit and a file over 8 MiB are refused quickly', async () => {
    tree.write('bin/b.kit', 'route "/b"\u0000\n');
    await refused(['bin'], 'cannot read bin/b.kit: binary file (contains NUL bytes)');
    mkdirSync(tree.path('big'));
    const line = `  <p>${'x'.repeat(100)}</p>\n`;
    writeFileSync(tree.path('big/big.kit'), `route "/big"\nguard public\nview {\n${line.repeat(500_000)}}\n`);
    const started = performance.now();
    await refused(['big/big.kit'], 'cannot read big/big.kit: 52.5 MiB is over the 8.0 MiB limit');
    assert.ok(performance.now() - started < 5000, 'refused without reading the file');
  });

  it('invalid UTF-8 is diagnosed at the byte (a route string included); the rest of the file is checked', async () => {
    writeFileSync(
      tree.path('ok/u.kit'),
      Buffer.concat([
        Buffer.from('route "/caf'),
        Buffer.from([0xe9]),
        Buffer.from('"\nguard public\n\nview {\n  <p>'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(' ok</p>\n}\n'),
      ]),
    );
    const r = await runProcess(['check', '--json', 'ok'], tree.root);
    assert.equal(r.code, 1, r.stderr);
    const { diagnostics } = JSON.parse(r.stdout) as {
      diagnostics: { file: string; code: string; pos: { line: number; column: number }; message: string }[];
    };
    const bad = diagnostics.filter((d) => d.code === 'invalid_utf8');
    assert.deepEqual(
      bad.map((d) => [d.file, d.pos.line, d.pos.column]),
      [
        ['ok/u.kit', 1, 12],
        ['ok/u.kit', 5, 6],
        ['ok/u.kit', 5, 7],
      ],
    );
    assert.match(bad[0].message, /byte 0xE9 at byte offset 11/);
  });

  it('a directory link that loops back up the tree is walked once: no false duplicate_page_id', async () => {
    mkdirSync(tree.path('ok/sub'));
    tree.write('ok/sub/s.kit', page('/s'));
    symlinkSync('..', tree.path('ok/sub/self'));
    const r = await runProcess(['check', 'ok'], tree.root);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /checked 2 files, no problems/);
  });
});

describe('kit: markup nested past the depth limit', function () {
  this.timeout(30000);
  let tree: TempTree;
  before(() => {
    const depth = 10_000;
    tree = new TempTree({
      'site/deep.kit': `route "/deep"\nguard public\n\nview {\n${'<div>'.repeat(depth)}x${'</div>'.repeat(depth)}\n}\n`,
      'site/expr.kit': page('/expr').replace('<main>Page</main>', `<p>{${'('.repeat(depth)}x${')'.repeat(depth)}}</p>`),
      'site/home.kit': page('/'),
    });
  });
  after(() => tree.dispose());

  const expectedLine = /site\/deep\.kit:5:\d+: error markup_too_deep: `<div>` nests deeper than 256 elements/;
  const exprLine = /site\/expr\.kit:5:71: error invalid_expression: .*it nests deeper than 64 levels/;

  for (const argv of [
    ['check', 'site'],
    ['routes', 'site'],
    ['endpoints', 'site'],
    ['inspect', 'tree', 'site'],
    ['inspect', 'ir', 'site'],
    ['inspect', 'endpoint-graph', 'site'],
    ['build', '--out', 'dist', 'site'],
  ]) {
    it(`kit ${argv.join(' ')}: the diagnostic, never an internal error`, async () => {
      const r = await runProcess(argv, tree.root);
      assert.doesNotMatch(r.stderr, /internal error|Maximum call stack/);
      assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr}`);
      if (argv[0] !== 'inspect') {
        assert.match(r.stdout + r.stderr, expectedLine);
        assert.match(r.stdout + r.stderr, exprLine);
      }
    });
  }

  it('kit fmt leaves the file as it is and says why', async () => {
    const r = await runProcess(['fmt', 'site/deep.kit'], tree.root);
    assert.doesNotMatch(r.stderr, /internal error|Maximum call stack/);
    assert.match(r.stderr, expectedLine);
    const e = await runProcess(['fmt', 'site/expr.kit'], tree.root);
    assert.equal(e.code, 1);
    assert.match(e.stderr, exprLine);
  });
});

describe('kit: pages nested deep through components and layouts', function () {
  this.timeout(30000);
  let tree: TempTree;
  afterEach(() => tree.dispose());

  /** A chain of `n` components, each wrapping the next in one element. */
  function componentChain(n: number, cycle = false): Record<string, string> {
    const files: Record<string, string> = {};
    for (let i = 0; i < n; i++) {
      const next = i + 1 < n ? `<C${i + 1} />` : cycle ? '<C0 />' : 'end';
      files[`site/c${i}.cmp.kit`] = `package site\n\ncomponent C${i}\n\nview {\n  <div>${next}</div>\n}\n`;
    }
    files['site/home.kit'] = `package site\n\npage home\nroute "/"\nguard public\n\nview {\n  <C0 />\n}\n`;
    return files;
  }

  it('kit build: one markup_too_deep at the component call that takes the page past 256, nothing written', async () => {
    tree = new TempTree(componentChain(300));
    const r = await runProcess(['build', '--out', 'dist', 'site'], tree.root);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout + r.stderr,
      /^site\/c43\.cmp\.kit:6:9: error markup_too_deep: C43: <C44> here nests elements 257 deep with its content; the limit/m,
    );
    assert.equal((r.stdout + r.stderr).match(/markup_too_deep/g)?.length, 1);
    assert.ok(!existsSync(tree.path('dist')));
  });

  it('kit build: a page inside layouts past 256 gets markup_too_deep at its layout line', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++)
      files[`site/l${i}.layout.kit`] =
        `package site\n${i + 1 < 300 ? `layout l${i + 1}\n` : ''}\nview {\n  <div><slot /></div>\n}\n`;
    files['site/home.kit'] = `package site\n\npage home\nroute "/"\nguard public\nlayout l0\n\nview {\n  <p>x</p>\n}\n`;
    tree = new TempTree(files);
    const r = await runProcess(['build', '--out', 'dist', 'site'], tree.root);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout + r.stderr, /^site\/home\.kit:6:1: error markup_too_deep: home: with its layouts/m);
  });

  it('thousands of chained components or a cycle through all of them: an answer, never an internal error', async () => {
    tree = new TempTree(componentChain(3000, true));
    for (const argv of [
      ['check', 'site'],
      ['build', '--out', 'dist', 'site'],
    ]) {
      const r = await runProcess(argv, tree.root);
      assert.doesNotMatch(r.stderr, /internal error|Maximum call stack/, argv.join(' '));
      assert.equal(r.code, 1, argv.join(' '));
      assert.equal((r.stdout + r.stderr).match(/component_composition_cycle/g)?.length, 1);
    }
  });
});

describe('kit: output piped into a reader that stops early', function () {
  this.timeout(30000);
  let tree: TempTree;
  before(() => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++)
      files[`site/p${i}.kit`] = page(`/p${i}`, `guard public\napi Feed${i} GET "/api/p${i}"\nact Save POST`);
    tree = new TempTree(files);
  });
  after(() => tree.dispose());

  /** Runs kit with stdout into a pipe whose reading end is closed before the report is written. */
  function closedEarly(argv: string[]): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI_MAIN, ...argv], {
        cwd: tree.root,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      child.stdout!.destroy();
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
  }

  for (const argv of [
    ['check', 'site'],
    ['check', '--json', 'site'],
    ['fmt', 'site/p0.kit'],
    ['build', '--out', 'dist', 'site'],
    ['routes', 'site'],
    ['routes', '--format', 'table', 'site'],
    ['endpoints', 'site'],
    ['inspect', 'ir', 'site'],
    ['inspect', 'tree', 'site'],
    ['inspect', 'endpoint-graph', '--json', 'site'],
    ['inspect', 'asset-graph', '--json', 'site'],
  ]) {
    it(`kit ${argv.slice(0, -1).join(' ')}: a closed stdout ends it quietly with status 141`, async () => {
      const r = await closedEarly(argv);
      let stderr = r.stderr.replace(/^info: ssr_disabled: .*\n/gm, '');
      if (argv[0] === 'build') {
        // The build reports its warnings on stderr: five in full, then one line for the other 595.
        assert.equal(stderr.match(/^site\/p\d+\.kit:\d+:\d+: warning missing_backend_handler/gm)?.length, 5);
        assert.match(stderr, /\n… and 595 more missing_backend_handler warnings; kit check lists them all\n/);
        stderr = stderr.replace(/^[^]*\nchecked 300 files: 0 errors, 600 warnings\n/, '');
      }
      assert.equal(stderr, '', 'nothing but the report notes');
      assert.equal(r.code, 141);
    });
  }

  // A reader slower than the report: the pipe fills, and the command waits for it, never drops a byte.
  it('kit check --json read late and slowly: the whole report arrives, then the status', async () => {
    const child = spawn(process.execPath, [CLI_MAIN, 'check', '--ssr', '--json', 'site'], {
      cwd: tree.root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    // Nothing read for a while (the pipe fills), then a chunk at a time with pauses.
    child.stdout!.pause();
    setTimeout(() => {
      child.stdout!.on('data', (b: Buffer) => {
        chunks.push(b);
        child.stdout!.pause();
        setTimeout(() => child.stdout!.resume(), 2);
      });
      child.stdout!.resume();
    }, 300);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const text = Buffer.concat(chunks).toString('utf8');
    const report = JSON.parse(text) as { diagnostics: { code: string }[] };
    // Each of the 300 pages declares an API and an action whose handlers do not exist (warnings).
    assert.equal(report.diagnostics.filter((d) => d.code === 'missing_backend_handler').length, 600);
    const eager = await runProcess(['check', '--ssr', '--json', 'site'], tree.root);
    assert.equal(text, eager.stdout);
    assert.equal(code, eager.code);
    assert.equal(code, 0);
  });

  it('kit inspect ir read partly, as `| head -c 100` does: status 141, nothing on stderr', async () => {
    const child = spawn(process.execPath, [CLI_MAIN, 'inspect', 'ir', 'site'], {
      cwd: tree.root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdout!.once('data', () => child.stdout!.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(stderr.replace(/^info: ssr_disabled: .*\n/gm, ''), '');
    assert.equal(code, 141);
  });
});
