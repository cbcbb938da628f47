// One rule decides which of two conflicting declarations in different files is "first" (and so
// which file gets the diagnostic): page routes and `.kit` endpoints before `//kit:` comment
// endpoints before contract paths, then by file path, then by position. Page IDs and component
// names follow the same file-path order. The order the files were opened or edited in (the editor)
// never moves a diagnostic.
import { strict as assert } from 'node:assert';
import { Workspace } from '#core/workspace/workspace.js';

const page = (route: string, extra = '') => `${extra}route "${route}"\nguard public\n\nview {\n  <main>x</main>\n}\n`;

function load(files: [string, string][]): Workspace {
  const w = new Workspace({ ssr: false });
  for (const [f, t] of files) {
    if (f.endsWith('.kit')) w.setKitFile(f, t);
    else w.setModule(f, t);
    w.flush();
  }
  return w;
}

function owner(w: Workspace, code: string): { file: string; related: string[] } {
  const d = w.allDiagnostics().find((x) => x.code === code);
  assert.ok(d, `no ${code}`);
  return { file: d.file, related: (d.related ?? []).map((r) => r.file) };
}

describe('which declaration is first', () => {
  const cases: { code: string; files: [string, string][]; later: string; first: string }[] = [
    {
      code: 'duplicate_route',
      files: [
        ['site/z.kit', page('/same/{a}', '')],
        ['site/a.kit', page('/same/{b}', '')],
      ],
      later: 'site/z.kit',
      first: 'site/a.kit',
    },
    {
      code: 'duplicate_page_id',
      files: [
        ['site/z.kit', page('/one', 'page dup\n')],
        ['site/a.kit', page('/two', 'page dup\n')],
      ],
      later: 'site/z.kit',
      first: 'site/a.kit',
    },
    {
      code: 'duplicate_component_name',
      files: [
        ['site/z.cmp.kit', 'component Dup\n\nview {\n  <b>z</b>\n}\n'],
        ['site/a.cmp.kit', 'component Dup\n\nview {\n  <b>a</b>\n}\n'],
      ],
      later: 'site/z.cmp.kit',
      first: 'site/a.cmp.kit',
    },
    {
      // A `.kit` page comes before a comment endpoint whatever the paths: renaming the module never
      // moves the conflict.
      code: 'route_method_conflict',
      files: [
        ['site/a-handlers.ts', '//kit:api GET /status\n//kit:guard public\nexport function Status() {}\n'],
        ['site/z.kit', page('/status')],
      ],
      later: 'site/a-handlers.ts',
      first: 'site/z.kit',
    },
  ];
  for (const c of cases) {
    it(`${c.code}: the later declaration by the rule gets it, in either loading order`, () => {
      for (const files of [c.files, [...c.files].reverse()]) {
        const got = owner(load(files), c.code);
        assert.equal(got.file, c.later);
        assert.deepEqual(got.related, [c.first]);
      }
    });
  }
});
