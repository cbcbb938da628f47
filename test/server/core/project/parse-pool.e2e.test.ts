// Loading on several threads changes nothing but the time: a file's analysis reads the same after
// crossing threads, `kit check --json`, `kit routes --json` and `kit build` give the very same
// output on 1 and 2 threads, a loading thread that dies or hangs mid-batch neither hangs the
// command nor changes its answer, files that cannot be read are reported as on one thread, and a
// view read after a pooled load is the markup a parse gives.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseKit, type ViewBlock } from '#grammar/index.js';
import { loadProject } from '#core/project/load.js';
import { SUMMARIES } from '#core/workspace/workspace.js';
import { analyseInPool, poolSettings } from '#core/project/parse-pool.js';
import { dropMarkup, packAnalysis, unpackAnalysis } from '#core/project/parse-shared.js';
import { reviveSpans } from '#core/project/revive-spans.js';
import { analyseKit } from '#core/workspace/analyse-kit.js';
import { fixturesDir } from '#test/helpers/repo.js';
import { runProcess, type CliResult } from '../../cli/cli-harness.js';
import { writeGeneratedSite } from './generated-site.js';
import { treeHashes } from '#test/helpers/tree-hashes.js';

/** Every `.kit` file under `dir`. */
function kitFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) out.push(...kitFilesUnder(p));
    else if (name.endsWith('.kit') && st.size < 1 << 20) out.push(p);
  }
  return out;
}

const OPTIONS = { ssr: true };

describe('core/project: loading on several threads', function () {
  this.timeout(120_000);
  let root: string;
  let site: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'kit-pool-'));
    site = join(root, 'site');
    // 8 directories of 40 pages: about ten batches, more than one thread's worth.
    writeGeneratedSite(site, 8, 40);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** `kit <argv>` as a child process with `threads` parsing threads and the threshold at 50 files. */
  function kit(argv: string[], threads: number, env: Record<string, string> = {}): Promise<CliResult> {
    return runProcess(argv, root, {
      env: { ...process.env, KIT_WORKERS: String(threads), KIT_WORKERS_MIN_FILES: '50', ...env },
    });
  }

  it('sends an analysis across threads that reads exactly as the one made here (every fixture)', () => {
    const files = kitFilesUnder(fixturesDir);
    assert.ok(files.length > 100, `${files.length} fixtures`);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const path = relative(fixturesDir, f);
      const here = analyseKit(parseKit(text, path, { incremental: false }), OPTIONS);
      dropMarkup(here.ast);
      const sent = packAnalysis(analyseKit(parseKit(text, path, { incremental: false }), OPTIONS));
      dropMarkup(sent.ast);
      const received = unpackAnalysis(reviveSpans(structuredClone(sent)));
      assert.deepStrictEqual(received, here, path);
    }
  });

  it('hands every file over in order, analysed by the loading thread when the main thread leaves it', () => {
    const { kitFiles } = loadProject([site], OPTIONS, root, { policy: SUMMARIES, pool: { threads: 1, minFiles: 1 } });
    const files = kitFiles.map((path) => ({ path, abs: join(root, path) }));
    for (const hook of [undefined, 'threads']) {
      const test = poolSettings({ KIT_TEST_PARSE_POOL: hook }).test;
      const order: number[] = [];
      const received = analyseInPool({ files, options: OPTIONS, cwd: root, test }, 2, (i, f) => {
        order.push(i);
        assert.ok(f, `file ${i} was analysed`);
        assert.equal(f.analysis.summary.path, kitFiles[i]);
      });
      assert.deepEqual(
        order,
        kitFiles.map((_, i) => i),
      );
      if (hook) assert.equal(received, files.length);
      else assert.ok(received !== undefined);
    }
  });

  it('gives the same kit check --json, kit routes --json and kit build output on 1 and 2 threads', async () => {
    for (const argv of [
      ['check', '--json', 'site'],
      ['check', '--ssr', '--json', 'site'],
      ['routes', '--json', 'site'],
    ]) {
      const one = await kit(argv, 1);
      // Shared as it comes, and (test hook) every batch analysed by the loading thread.
      for (const two of [await kit(argv, 2), await kit(argv, 2, { KIT_TEST_PARSE_POOL: 'threads' })]) {
        assert.equal(two.code, one.code, argv.join(' '));
        assert.equal(two.stderr, one.stderr, argv.join(' '));
        assert.equal(two.stdout, one.stdout, argv.join(' '));
      }
      assert.ok(one.stdout.length > 1000, argv.join(' '));
    }
    const check = JSON.parse((await kit(['check', '--json', 'site'], 2)).stdout) as { diagnostics: { code: string }[] };
    const codes = new Set(check.diagnostics.map((d) => d.code));
    for (const code of ['duplicate_id', 'paths_without_params', 'unknown_prop']) assert.ok(codes.has(code), code);
    const builds: Record<string, string>[] = [];
    for (const threads of [1, 2]) {
      const out = join(root, `build-${threads}`);
      const r = await kit(['build', '--out', out, 'site'], threads);
      assert.equal(r.code, 0, r.stderr);
      builds.push(treeHashes(out));
    }
    assert.ok(Object.keys(builds[0]).length > 320);
    assert.deepEqual(builds[1], builds[0]);
  });

  it('answers the same when the loading thread exits or hangs holding a batch', async () => {
    const expected = await kit(['check', '--json', 'site'], 1);
    for (const fault of ['exit:0', 'exit:3', 'hang:0', 'hang:3']) {
      const started = Date.now();
      // The main thread leaves every batch to the loading thread, which stops in batch 0 or 3.
      const r = await kit(['check', '--json', 'site'], 2, { KIT_TEST_PARSE_POOL: fault });
      assert.equal(r.code, expected.code, fault);
      assert.equal(r.stdout, expected.stdout, fault);
      assert.equal(r.stderr, expected.stderr, fault);
      assert.ok(Date.now() - started < 60_000, `${fault}: ${Date.now() - started} ms`);
    }
  });

  it('reports files that cannot be read, or not as UTF-8, as one thread does', async () => {
    const bad = join(site, 'd3', 'latin1.kit');
    const big = join(site, 'd5', 'big.kit');
    writeFileSync(
      bad,
      Buffer.from(
        'package pkg3\n\npage latin\nroute "/latin"\nguard public\n\nview {\n  <p>caf\xe9</p>\n}\n',
        'latin1',
      ),
    );
    try {
      const one = await kit(['check', '--json', 'site'], 1);
      const two = await kit(['check', '--json', 'site'], 2);
      assert.equal(two.stdout, one.stdout);
      assert.match(one.stdout, /"invalid_utf8"/);
      writeFileSync(big, 'a'.repeat(9 * 1024 * 1024));
      const oneBig = await kit(['check', '--json', 'site'], 1);
      const twoBig = await kit(['check', '--json', 'site'], 2);
      assert.equal(oneBig.code, 2);
      assert.match(oneBig.stderr, /cannot read .*big\.kit: .* over the 8\.0 MiB limit/);
      assert.equal(twoBig.code, oneBig.code);
      assert.equal(twoBig.stderr, oneBig.stderr);
    } finally {
      rmSync(bad, { force: true });
      rmSync(big, { force: true });
    }
  });

  it('re-parses a view read after a pooled load into the markup a parse gives', () => {
    const { workspace, kitFiles } = loadProject([site], OPTIONS, root, {
      policy: SUMMARIES,
      pool: { threads: 2, minFiles: 1 },
    });
    let views = 0;
    for (const path of kitFiles) {
      const e = workspace.kit(path)!;
      const fresh = parseKit(e.text, path, { incremental: false });
      for (let i = 0; i < fresh.declarations.length; i++) {
        const d = fresh.declarations[i];
        if (d.kind !== 'view' && d.kind !== 'fragment') continue;
        assert.deepStrictEqual((e.ast.declarations[i] as ViewBlock).body, (d as ViewBlock).body, path);
        views++;
      }
    }
    assert.ok(views >= kitFiles.length);
  });
});
