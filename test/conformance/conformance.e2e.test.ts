// Runs the conformance corpus (test/fixtures/conformance/) through the real `kit check --json`
// process: a few invocations (one per folder, one per isolated case), then one `it` per case.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { SYNTAX_CODES } from '#grammar/index.js';
import { repoRoot } from '../helpers/repo.js';
import { REGISTRY, type CodeInfo } from '#core/diagnostics/registry.js';
import { compareCase, FOLDERS, loadCases, pool, runCheck, type Case, type CheckRun } from './corpus.js';

const cases: Case[] = loadCases();

/**
 * Rows of reference-notes 2.5 that `kit check` cannot show, with the reason. Every other row must be
 * tagged by some case (`// rows: n`).
 */
const ROWS_ELSEWHERE: ReadonlyMap<number, string> = new Map([
  [65, 'contract route *patterns* (with params): unit table of shared/route; check only takes concrete contract paths'],
  ...[66, 67, 68, 69, 70, 71].map((n): [number, string] => [
    n,
    'request matching: shared/route match and router tables',
  ]),
  ...[72, 73, 74, 75, 76].map((n): [number, string] => [
    n,
    'request-time behaviour of generated servers (issue 7), not a check diagnostic',
  ]),
]);

/**
 * The codes `kit check` can report: every syntax code of the grammar, and every code the core's
 * model, validation and project loading pass to `diag('...')` (build, reports, the language server
 * and binding have codes of their own, tested where they are produced).
 */
function checkerCodes(): Set<string> {
  const codes = new Set<string>(SYNTAX_CODES);
  const scan = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) scan(p);
      else if (name.endsWith('.ts'))
        for (const m of readFileSync(p, 'utf8').matchAll(/\bdiag\(\s*'([a-z_]+)'/g)) codes.add(m[1]);
    }
  };
  for (const dir of ['model', 'validate', 'project']) scan(join(repoRoot, 'server', 'src', 'core', dir));
  return codes;
}

interface Runs {
  /** By folder name, or by case id for isolated cases. */
  main: Map<string, CheckRun>;
  /** One run over every folder that is also checked without `--ssr`. */
  withoutSsr?: CheckRun;
}

const WITHOUT_SSR = '(without --ssr)';

async function runAll(): Promise<Runs> {
  type Job = { key: string; ssr: boolean; inputs: string[] };
  const jobs: Job[] = [];
  for (const folder of FOLDERS) {
    if (folder.isolated) {
      for (const c of cases.filter((x) => x.folder === folder))
        jobs.push({ key: c.id, ssr: folder.ssr, inputs: [c.id] });
    } else if (cases.some((x) => x.folder === folder)) {
      jobs.push({ key: folder.name, ssr: folder.ssr, inputs: [folder.name] });
    }
  }
  const withoutSsr = FOLDERS.filter((f) => f.alsoWithoutSsr).map((f) => f.name);
  if (withoutSsr.length) jobs.push({ key: WITHOUT_SSR, ssr: false, inputs: withoutSsr });
  const results = await pool(
    jobs.map((j) => () => runCheck(j.ssr, j.inputs)),
    Math.max(2, cpus().length),
  );
  const runs: Runs = { main: new Map() };
  jobs.forEach((j, i) => {
    if (j.key === WITHOUT_SSR) runs.withoutSsr = results[i];
    else runs.main.set(j.key, results[i]);
  });
  return runs;
}

describe('conformance corpus (kit check --json)', function () {
  let runs: Runs;
  before(async function () {
    // About ten `kit check` processes, one per core at a time; generous for a loaded machine.
    this.timeout(180000);
    runs = await runAll();
  });

  const runFor = (c: Case): CheckRun => runs.main.get(c.folder.isolated ? c.id : c.folder.name)!;

  for (const folder of FOLDERS) {
    describe(`${folder.name}/${folder.ssr ? ' (--ssr)' : ''}`, () => {
      for (const c of cases.filter((x) => x.folder === folder)) {
        it(c.id, () => {
          const problems = compareCase(c, runFor(c));
          assert.deepEqual(problems, []);
        });
      }
      if (folder.alsoWithoutSsr) {
        for (const c of cases.filter((x) => x.folder === folder)) {
          it(`${c.id} without --ssr adds missing_ssr_addon`, () => {
            const problems = compareCase(c, runs.withoutSsr!, 'without-ssr');
            assert.deepEqual(problems, []);
          });
        }
      }
    });
  }

  it('every diagnostic of a grouped run belongs to a case', () => {
    const owned = new Set(cases.flatMap((c) => c.files.map((f) => f.path)));
    const stray = [...runs.main.values(), ...(runs.withoutSsr ? [runs.withoutSsr] : [])]
      .flatMap((r) => r.diagnostics)
      .filter((d) => !owned.has(d.file));
    assert.deepEqual(
      stray.map((d) => `${d.file}: ${d.code}`),
      [],
    );
  });

  it('has at least 150 cases', () => {
    assert.ok(cases.length >= 150, `only ${cases.length} cases`);
  });

  it('expects only registered codes and expects every code the checker emits', () => {
    const registry = REGISTRY as Record<string, CodeInfo>;
    const expected = new Set(
      cases.flatMap((c) => c.files.flatMap((f) => [...f.expect.codes.keys(), ...(f.expect.withoutSsr?.keys() ?? [])])),
    );
    if (cases.some((c) => c.folder.alsoWithoutSsr)) expected.add('missing_ssr_addon');
    assert.deepEqual(
      [...expected].filter((code) => !registry[code]),
      [],
      'codes missing from the registry',
    );
    const emitted = checkerCodes();
    assert.ok(
      emitted.has('malformed_route') && emitted.has('duplicate_route') && emitted.has('missing_page_guard'),
      'the source scan finds the checker codes',
    );
    assert.deepEqual(
      [...emitted].filter((code) => !registry[code]),
      [],
      'emitted codes missing from the registry',
    );
    const uncovered = [...emitted].filter((code) => registry[code].area !== 'binding' && !expected.has(code)).sort();
    assert.deepEqual(uncovered, [], 'codes the checker emits that no case expects');
  });

  it('covers every row of reference-notes 2.5 that kit check can show', () => {
    const tagged = new Set(cases.flatMap((c) => c.files.flatMap((f) => f.expect.rows)));
    const missing: number[] = [];
    for (let row = 1; row <= 76; row++) if (!tagged.has(row) && !ROWS_ELSEWHERE.has(row)) missing.push(row);
    assert.deepEqual(missing, [], 'rows without a case');
  });
});
