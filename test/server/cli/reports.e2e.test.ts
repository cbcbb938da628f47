// `kit routes`, `kit endpoints` and `kit inspect` as commands: usage errors, gating on source
// errors, info notes, and byte-identical output whatever the argument order.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fixture, outDir, repoRoot } from '../../helpers/repo.js';
import { runKit } from '../core/report/helpers.js';

const SITE_FILES = [
  'examples/site/home.kit',
  'examples/site/contact.kit',
  'examples/site/status.kit',
  'examples/site/blog/index.kit',
  'examples/site/blog/post.kit',
  'examples/site/docs/docs.kit',
  'examples/site/card.cmp.kit',
  'examples/site/nav.cmp.kit',
  'examples/site/main.layout.kit',
];

/** Deterministic shuffles (no randomness in tests). */
function orders(xs: string[]): string[][] {
  const rev = [...xs].reverse();
  const rot = [...xs.slice(4), ...xs.slice(0, 4)];
  const interleaved = xs.filter((_, i) => i % 2 === 1).concat(xs.filter((_, i) => i % 2 === 0));
  return [xs, rev, rot, interleaved];
}

describe('kit routes / endpoints / inspect (CLI)', () => {
  describe('usage and I/O errors exit 2 with one line', () => {
    const CASES: [string[], RegExp][] = [
      [
        ['routes'],
        /^kit routes: no sources: name the directory of the \.kit files \(kit routes site\), .*kit\.config\.ts/,
      ],
      [
        ['endpoints', '--format', 'xml', 'examples/site'],
        /^kit endpoints: --format must be json or table, not "xml"\n$/,
      ],
      [['routes', '--format'], /^kit routes: flag --format needs a value\n$/],
      [['routes', '--bogus', 'examples/site'], /^kit routes: unknown flag --bogus/],
      [['routes', 'examples/nope'], /^kit routes: no such file or directory: examples\/nope\n$/],
      [['endpoints', 'package.json'], /^kit endpoints: not a \.kit file: package\.json\n$/],
      [['inspect'], /^kit inspect: no target given; use one of ir, endpoint-graph, asset-graph, tree\n$/],
      [
        ['routes', '--json', '--format', 'table', 'examples/site'],
        /^kit routes: --json and --format table ask for different outputs\n$/,
      ],
      [
        ['inspect', 'graph', 'examples/site'],
        /^kit inspect: unknown target "graph"; use one of ir, endpoint-graph, asset-graph, tree\n$/,
      ],
    ];
    for (const [argv, msg] of CASES) {
      it(`kit ${argv.join(' ')}`, async () => {
        const r = await runKit(argv);
        assert.equal(r.code, 2);
        assert.equal(r.stdout, '');
        assert.match(r.stderr, msg);
        assert.equal(r.stderr.trimEnd().split('\n').length, 1);
      });
    }
  });

  it('accepts --json, the default, for routes and endpoints: the same bytes as without it', async () => {
    for (const c of ['routes', 'endpoints']) {
      const plain = await runKit([c, '--ssr', 'examples/site']);
      const json = await runKit([c, '--json', '--ssr', 'examples/site']);
      assert.equal(json.code, 0, json.stderr);
      assert.equal(json.stdout, plain.stdout);
    }
  });

  it('prints help and exits 0', async () => {
    for (const c of ['routes', 'endpoints', 'inspect']) {
      const r = await runKit([c, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.stdout, new RegExp(`^Usage: kit ${c}`));
    }
  });

  it('gives no report for sources with errors: they go to stderr, exit 1', async () => {
    const r = await runKit(['routes', 'examples/site']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^examples\/site\/docs\/docs\.kit:\d+:\d+: error missing_ssr_addon: /m);
    assert.match(r.stderr, /kit routes: 1 error in the sources; no report \(run kit check for details\)\n$/);
  });

  it('echoes each info note of kit routes to stderr, and kit endpoints prints none', async () => {
    const r = await runKit(['routes', '--ssr', 'examples/site']);
    const report = JSON.parse(r.stdout) as { info: { code: string; message: string }[] };
    assert.ok(report.info.length > 0);
    assert.equal(r.stderr, report.info.map((n) => `info: ${n.code}: ${n.message}\n`).join(''));
    const e = await runKit(['endpoints', '--ssr', '--format', 'table', 'examples/site']);
    assert.equal(e.code, 0);
    assert.equal(e.stderr, '');
    assert.match(e.stdout, /^METHOD/);
  });

  it('inspect reads the current directory without arguments', async () => {
    const cwd = fixture('reports', 'dynamic-spa');
    const implicit = await runKit(['inspect', 'tree', '--json'], cwd);
    const explicit = await runKit(['inspect', 'tree', '--json', '.'], cwd);
    assert.equal(implicit.code, 0);
    assert.equal(implicit.stdout, explicit.stdout);
    const ir = await runKit(['inspect', 'ir'], cwd);
    const parsed = JSON.parse(ir.stdout) as {
      kind: string;
      kitFiles: { path: string; bindings: { name: string; status: string }[] }[];
    };
    assert.equal(parsed.kind, 'kit-ir');
    assert.deepEqual(
      parsed.kitFiles.map((f) => f.path),
      ['item.kit'],
    );
    assert.deepEqual(
      parsed.kitFiles[0].bindings.map((b) => `${b.name}:${b.status}`),
      ['Buy:bound', 'Stock:missing'],
    );
  });

  describe('determinism: byte-identical output whatever the argument order', () => {
    const outputs: [string, string[]][] = [
      ['routes', ['routes', '--ssr']],
      ['routes table', ['routes', '--ssr', '--format', 'table']],
      ['endpoints', ['endpoints', '--ssr']],
      ['endpoint-graph', ['inspect', 'endpoint-graph', '--json', '--ssr']],
      ['asset-graph', ['inspect', 'asset-graph', '--json', '--ssr']],
      ['tree', ['inspect', 'tree', '--json', '--ssr']],
    ];
    for (const [name, argv] of outputs) {
      it(name, async () => {
        const runs = await Promise.all(orders(SITE_FILES).map((files) => runKit([...argv, ...files])));
        for (const r of runs) assert.equal(r.code, 0, r.stderr);
        for (const r of runs.slice(1)) {
          assert.equal(r.stdout, runs[0].stdout);
          assert.equal(r.stderr, runs[0].stderr);
        }
        // Directories and files mixed, in either order, give the same bytes.
        const mixed = await runKit([...argv, 'examples/site/docs', 'examples/site/home.kit', 'examples/site']);
        assert.equal(mixed.stdout, runs[0].stdout);
      });
    }

    it('the spawned program prints the same bytes as the in-process run', async () => {
      const inProcess = await runKit(['routes', '--ssr', ...SITE_FILES.slice().reverse()]);
      const spawned = spawnSync(
        process.execPath,
        [join(outDir, 'server', 'src', 'cli', 'main.js'), 'routes', '--ssr', 'examples/site'],
        { cwd: repoRoot, encoding: 'utf8' },
      );
      assert.equal(spawned.status, 0, spawned.stderr);
      assert.equal(spawned.stdout, inProcess.stdout);
      assert.equal(spawned.stderr, inProcess.stderr);
    });
  });
});
