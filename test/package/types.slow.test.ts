// The package's public entry points ship type declarations: a project that installs kit and
// type-checks strictly gets the types of `kit/app`, `kit/trace` and `kit/route` (no TS7016, no
// implicit any), through the `types` conditions of the package's `exports`.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('package: type declarations', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-types-'));
    mkdirSync(join(dir, 'node_modules'));
    const name = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name as string;
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(root, join(dir, 'node_modules', name), 'dir');
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(dir, 'handlers.ts'),
      [
        `import { allow, html, htmlResponse, HttpError, raw, type Guard, type SafeHtml } from '${name}/app';`,
        `import { parseRoutePattern } from '${name}/route';`,
        `import { newTracer } from '${name}/trace';`,
        'export const guard: Guard = () => allow();',
        "export const pattern = parseRoutePattern('/blog/{slug}');",
        'export const tracer = newTracer();',
        "export const notFound: HttpError = new HttpError(404, 'gone');",
        "export const page: SafeHtml = html`<p>${'<'}</p>${raw('<hr>')}`;",
        'export const answer: Response = htmlResponse(page, { status: 201 });',
        '// SafeHtml is nominal: neither a string nor a look-alike object passes for it.',
        '// @ts-expect-error',
        "export const notSafe: SafeHtml = '<p>';",
        '// @ts-expect-error',
        "export const fake: SafeHtml = { toString: () => '<p>', toJSON: () => '<p>' };",
        '// A wrong use must fail: the types are real, not `any`.',
        '// @ts-expect-error',
        'export const wrong: number = pattern;',
      ].join('\n'),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('type-checks a strict consumer of kit/app, kit/route and kit/trace', () => {
    const program = ts.createProgram([join(dir, 'handlers.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
      skipLibCheck: true,
    });
    const messages = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? `${d.file.fileName}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    assert.deepEqual(messages, []);
    const resolved = program.getSourceFiles().map((f) => f.fileName);
    assert.ok(
      resolved.some((f) => f.endsWith('out/shared/app/index.d.ts')),
      'kit/app resolves to its declarations',
    );
  });
});
