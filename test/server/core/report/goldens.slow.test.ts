// Golden outputs of every report on the example site and the focused fixtures, each validated
// against its published JSON Schema. Regenerate with KIT_UPDATE_GOLDENS=1 npm test, then review.
import assert from 'node:assert/strict';
import { fixture, repoRoot } from '#test/helpers/repo.js';
import { assertValid, expectGolden, runKit } from './helpers.js';

interface Case {
  name: string;
  cwd: string;
  inputs: string[];
  /** Sources with errors give no routes/endpoints report (exit 1); inspect still works. */
  reports: boolean;
  /** The error a case without reports has, and how many times. */
  refused?: { code: string; count: number };
}

const CASES: Case[] = [
  { name: 'example-site', cwd: repoRoot, inputs: ['examples/site'], reports: true },
  { name: 'dynamic-spa', cwd: fixture('reports', 'dynamic-spa'), inputs: ['.'], reports: true },
  { name: 'ssr-rest', cwd: fixture('reports', 'ssr-rest'), inputs: ['.'], reports: true },
  { name: 'comment-endpoints', cwd: fixture('reports', 'comment-endpoints'), inputs: ['.'], reports: true },
  { name: 'contracts', cwd: fixture('reports', 'contracts'), inputs: ['.'], reports: true },
  { name: 'handler-types', cwd: fixture('handler-types'), inputs: ['.'], reports: true },
  {
    name: 'bindings',
    cwd: fixture('bind', 'signatures'),
    inputs: ['.'],
    reports: false,
    refused: { code: 'unsupported_backend_signature', count: 17 },
  },
  {
    name: 'assets-cycle',
    cwd: fixture('reports', 'assets-cycle'),
    inputs: ['.'],
    reports: false,
    refused: { code: 'component_composition_cycle', count: 1 },
  },
];

const INSPECT: { target: string; schema: string }[] = [
  { target: 'endpoint-graph', schema: 'endpoint-graph' },
  { target: 'asset-graph', schema: 'asset-graph' },
  { target: 'tree', schema: 'tree' },
];

describe('report goldens and schemas', () => {
  for (const c of CASES) {
    describe(c.name, () => {
      if (c.reports) {
        it('kit routes (JSON) matches its golden and routes.schema.json', async () => {
          const r = await runKit(['routes', '--ssr', ...c.inputs], c.cwd);
          assert.equal(r.code, 0, r.stderr);
          assertValid('routes', JSON.parse(r.stdout), `${c.name} routes`);
          expectGolden(`${c.name}/routes.json`, r.stdout);
          expectGolden(`${c.name}/routes.stderr.txt`, r.stderr);
        });

        it('kit routes --format table matches its golden', async () => {
          const r = await runKit(['routes', '--ssr', '--format', 'table', ...c.inputs], c.cwd);
          assert.equal(r.code, 0, r.stderr);
          expectGolden(`${c.name}/routes.table.txt`, r.stdout);
        });

        it('kit endpoints matches its golden and endpoints.schema.json', async () => {
          const r = await runKit(['endpoints', '--ssr', ...c.inputs], c.cwd);
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stderr, '', 'kit endpoints prints no info notes');
          assertValid('endpoints', JSON.parse(r.stdout), `${c.name} endpoints`);
          expectGolden(`${c.name}/endpoints.json`, r.stdout);
        });
      } else {
        it('kit routes refuses sources with errors (exit 1, errors on stderr, nothing on stdout)', async () => {
          const r = await runKit(['routes', '--ssr', ...c.inputs], c.cwd);
          assert.equal(r.code, 1);
          assert.equal(r.stdout, '');
          const { code, count } = c.refused!;
          assert.match(r.stderr, new RegExp(`error ${code}`));
          assert.match(r.stderr, new RegExp(`kit routes: ${count} errors? in the sources; no report`));
        });
      }

      for (const t of INSPECT) {
        it(`kit inspect ${t.target} --json matches its golden and ${t.schema}.schema.json`, async () => {
          const r = await runKit(['inspect', t.target, '--json', '--ssr', ...c.inputs], c.cwd);
          assert.equal(r.code, 0, r.stderr);
          assertValid(t.schema, JSON.parse(r.stdout), `${c.name} ${t.target}`);
          expectGolden(`${c.name}/${t.target}.json`, r.stdout);
        });
      }

      it('kit check --json matches check.schema.json', async () => {
        const r = await runKit(['check', '--ssr', '--json', ...c.inputs], c.cwd);
        assertValid('check', JSON.parse(r.stdout), `${c.name} check --json`);
      });
    });
  }
});
