// Generated page types are there without a `kit check`: `kit init` writes the starter's, so its
// first strict type-check passes, and `kit dev` writes those of a page created while it runs, so
// the page's handler type-checks against `./$kit.js` at once; files whose text did not change are
// not written again.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { starterProject, typeErrors } from '#test/helpers/starter.js';
import { eventually, startDev } from './dev-harness.js';

const PAGE =
  'package site\n\npage notes.item\nroute "/notes/{id:int}"\nguard public\n\nserver {\n  => { title, author.name }\n}\n\n' +
  'view {\n  <main>{title} by {author.name}</main>\n}\n';

const HANDLER = `import { app, type RequestContext } from '@kit-lang/kit/app';
import type { NotesItemLoad, NotesItemParams } from './$kit.js';

export const LoadNotesItem: NotesItemLoad = async (ctx: RequestContext) => {
  const id: number = app.typedParams<NotesItemParams>(ctx).id;
  return { title: \`Note \${id + 1}\`, author: { name: 'Ann' } };
};
`;

describe('generated page types without kit check', function () {
  this.timeout(90_000);
  let work: string;
  let project: string;
  before(async () => {
    ({ work, project } = await starterProject('kit-dev-types-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('kit init writes the starter page types: tsc --noEmit (strict) passes before any check', () => {
    assert.ok(existsSync(join(project, '.kit-types', 'site', '$kit.d.ts')));
    assert.deepEqual(typeErrors(project), []);
  });

  it('kit dev writes the types of a page created while it runs: its handler type-checks and serves', async () => {
    const typesDir = join(project, '.kit-types', 'site');
    const mtime = (f: string) => statSync(join(typesDir, f)).mtimeMs;
    const before = { site: mtime('$kit.d.ts'), blog: mtime('blog/$kit.d.ts') };
    const dev = await startDev(project);
    try {
      mkdirSync(join(project, 'site', 'notes'));
      writeFileSync(join(project, 'site', 'notes', 'item.kit'), PAGE);
      writeFileSync(join(project, 'site', 'notes', 'handlers.ts'), HANDLER);
      await eventually(() => assert.ok(existsSync(join(typesDir, 'notes', '$kit.d.ts')), 'notes types written'));
      const notes = readFileSync(join(typesDir, 'notes', '$kit.d.ts'), 'utf8');
      assert.match(notes, /export interface NotesItemParams \{\n {2}id: number;\n\}/);
      assert.match(notes, /export interface NotesItemData \{\n {2}title: unknown;\n {2}author: \{\n {4}name: unknown;/);
      assert.deepEqual(typeErrors(project), [], 'the new handler type-checks strictly without kit check');
      await eventually(async () => {
        const res = await fetch(`${dev.url}/notes/41`);
        assert.equal(res.status, 200);
        assert.match(await res.text(), /Note 42 by Ann/);
      });
      // The other directories' types read the same: not written again.
      assert.deepEqual({ site: mtime('$kit.d.ts'), blog: mtime('blog/$kit.d.ts') }, before);

      // A field the load lacks: the types follow the page, and tsc says so.
      writeFileSync(join(project, 'site', 'notes', 'item.kit'), PAGE.replace('author.name }', 'author.name, tags }'));
      await eventually(() =>
        assert.match(readFileSync(join(typesDir, 'notes', '$kit.d.ts'), 'utf8'), /\n {2}tags: unknown;/),
      );
      const errors = typeErrors(project);
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.match(errors[0], /notes\/handlers\.ts: .*Property 'tags' is missing/s);
    } finally {
      await dev.stop();
    }
  });
});
