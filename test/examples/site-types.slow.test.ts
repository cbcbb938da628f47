// The example site type-checks strictly with the page types kit check generates: `kit check`
// writes `.kit-types/` beside the tsconfig.json that maps it in (rootDirs), the handlers import
// `./$kit.js`, and `tsc --noEmit --strict` over them passes; a wrong use of a generated type fails.
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../helpers/repo.js';
import { runInProcess } from '../server/cli/cli-harness.js';

function typeErrors(project: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(project, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  );
  assert.ok(config);
  const program = ts.createProgram(config.fileNames, config.options);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('example site: generated page types', function () {
  this.timeout(30_000);
  let work: string;
  let site: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'kit-site-types-'));
    site = join(work, 'site');
    cpSync(join(repoRoot, 'examples', 'site'), site, {
      recursive: true,
      filter: (src) => !src.includes('.kit-types'),
    });
    // The project's own install of kit, as npm would lay it out.
    mkdirSync(join(work, 'node_modules', '@kit-lang'), { recursive: true });
    symlinkSync(repoRoot, join(work, 'node_modules', '@kit-lang', 'kit'), 'dir');
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('kit check writes $kit.d.ts per directory of pages, typed as the routes decode', async () => {
    const r = await runInProcess(['check', '--ssr', 'site'], { cwd: work });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const docs = readFileSync(join(site, '.kit-types', 'docs', '$kit.d.ts'), 'utf8');
    assert.match(docs, /export interface DocsParams \{\n {2}path: string;\n\}/);
    assert.match(docs, /export interface DocsData \{\n {2}chapters: unknown;\n {2}editor: \{\n {4}name: unknown;/);
    assert.match(docs, /export type DocsLoad = \(ctx: RequestContext\) => DocsData \| Promise<DocsData>;/);
    const blog = readFileSync(join(site, '.kit-types', 'blog', '$kit.d.ts'), 'utf8');
    assert.match(blog, /export interface BlogPostParams \{\n {2}slug: string;\n\}/);
  });

  it('tsc --noEmit --strict passes over the handlers, and fails on a wrong use of the types', async () => {
    await runInProcess(['check', '--ssr', 'site'], { cwd: work });
    assert.deepEqual(typeErrors(site), []);
    writeFileSync(
      join(site, 'docs', 'wrong.ts'),
      "import type { DocsLoad } from './$kit.js';\nexport const LoadOther: DocsLoad = async () => ({ chapters: [] });\n",
    );
    const errors = typeErrors(site);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0], /Property 'editor' is missing/);
    rmSync(join(site, 'docs', 'wrong.ts'));
  });

  it('types typed params as they decode: int → number, int64 → bigint, bool → boolean, rest → string', async () => {
    const dir = join(work, 'typed');
    mkdirSync(join(dir, 'p'), { recursive: true });
    writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": { "rootDirs": [".", ".kit-types"] } }\n');
    writeFileSync(
      join(dir, 'p', 'item.kit'),
      'package p\n\npage item\nroute "/items/{id:int}/{big:int64}/{on:bool}/{rest...}"\nguard public\n\n' +
        'server {\n  => { title }\n}\n\nview {\n  <main>{title}</main>\n}\n',
    );
    const r = await runInProcess(['check', '--ssr', 'p'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const text = readFileSync(join(dir, '.kit-types', 'p', '$kit.d.ts'), 'utf8');
    assert.match(
      text,
      /export interface ItemParams \{\n {2}id: number;\n {2}big: bigint;\n {2}on: boolean;\n {2}rest: string;\n\}/,
    );
  });

  it('writes nothing where no tsconfig.json maps .kit-types in', async () => {
    const dir = join(work, 'plain');
    mkdirSync(join(dir, 'p'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{}\n');
    writeFileSync(
      join(dir, 'p', 'a.kit'),
      'package p\n\npage a\nroute "/a"\nguard public\n\nview {\n  <main>x</main>\n}\n',
    );
    const r = await runInProcess(['check', 'p'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.throws(() => readFileSync(join(dir, '.kit-types', 'p', '$kit.d.ts')));
  });
});
