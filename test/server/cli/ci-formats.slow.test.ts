// `kit check --format github|sarif`: GitHub Actions annotations and a SARIF 2.1.0 log, valid against
// the SARIF schema, with the same positions as the JSON report.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../../helpers/repo.js';
import { runInProcess } from './cli-harness.js';

const PAGE = (route: string, id: string) =>
  `package site\n\npage ${id}\nroute "${route}"\nguard public\n\nview {\n  <main>${id}</main>\n}\n`;

/** The SARIF 2.1.0 schema (draft-04) and the validator that reads draft-04, as the SARIF tools ship them. */
function sarifValidator(): (log: unknown) => string[] {
  const req = createRequire(join(repoRoot, 'node_modules', '@microsoft', 'jest-sarif', 'package.json'));
  const Ajv = req('ajv') as new (
    o: object,
  ) => {
    addMetaSchema(s: object): void;
    compile(
      s: object,
    ): ((d: unknown) => boolean) & { errors?: { instancePath?: string; dataPath?: string; message?: string }[] };
  };
  const schemaPath = join(
    dirname(req.resolve('@microsoft/jest-sarif/package.json')),
    'lib',
    'schemas',
    'sarif-2.1.0-rtm.5.json',
  );
  const ajv = new Ajv({ schemaId: 'auto', allErrors: true });
  ajv.addMetaSchema(req('ajv/lib/refs/json-schema-draft-04.json'));
  const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
  return (log) =>
    validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath ?? e.instancePath} ${e.message}`);
}

describe('kit check --format github and sarif', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-ci-formats-'));
    mkdirSync(join(dir, 'site'));
    writeFileSync(join(dir, 'site', 'a.kit'), PAGE('/blog/{slug}', 'a'));
    // A duplicate route (related location in a.kit) and a message with a comma and a colon.
    writeFileSync(join(dir, 'site', 'b.kit'), PAGE('/blog/{id}', 'b'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints one workflow command per diagnostic, escaped, with the related location in the message', async () => {
    const r = await runInProcess(['check', '--format', 'github', 'site'], { cwd: dir });
    assert.equal(r.code, 1);
    const lines = r.stdout.trimEnd().split('\n');
    const dup = lines.find((l) => l.includes('title=duplicate_route'));
    assert.ok(dup, r.stdout);
    assert.match(dup, /^::error file=site\/b\.kit,line=4,col=1,endLine=4,endColumn=19,title=duplicate_route::b: /);
    assert.match(dup, / \(route "\/blog\/\{slug\}" first declared here: site\/a\.kit:4:1\)$/);
    assert.ok(
      lines.every((l) => /^::(error|warning|notice) file=/.test(l)),
      r.stdout,
    );
  });

  it('writes a SARIF 2.1.0 log that validates against the schema', async () => {
    const r = await runInProcess(['check', '--format', 'sarif', 'site'], { cwd: dir });
    assert.equal(r.code, 1);
    const log = JSON.parse(r.stdout);
    assert.deepEqual(sarifValidator()(log), []);
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'kit');
    const dup = run.results.find((x: { ruleId: string }) => x.ruleId === 'duplicate_route');
    assert.equal(dup.level, 'error');
    assert.equal(run.tool.driver.rules[dup.ruleIndex].id, 'duplicate_route');
    assert.deepEqual(dup.locations[0].physicalLocation, {
      artifactLocation: { uri: 'site/b.kit' },
      region: { startLine: 4, startColumn: 1, endLine: 4, endColumn: 19 },
    });
    assert.equal(dup.relatedLocations[0].physicalLocation.artifactLocation.uri, 'site/a.kit');
  });

  it('refuses an unknown format and a conflicting --json', async () => {
    const bad = await runInProcess(['check', '--format', 'xml', 'site'], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--format must be human, json, github or sarif, not "xml"/);
    const both = await runInProcess(['check', '--json', '--format', 'sarif', 'site'], { cwd: dir });
    assert.equal(both.code, 2);
  });
});
