// What `workspace/willRenameFiles` edits and what it reports, in-process on the `lsp/site` fixture:
// a layout moved into another package and a component whose name does not follow its file are
// left alone (the first reported), a folder whose package name another folder shares is reported
// rather than guessed. The stdio test (`urls.e2e.test.ts`) covers the renames that follow.
import { strict as assert } from 'node:assert';
import { fixture } from '#test/helpers/repo.js';
import { pathOf, setup } from '../helpers/features.js';
import { fileRenameEdits } from '#lsp/features/file-rename.js';

const base = fixture('lsp', 'site');

function renamed(files: Record<string, string | null>, renames: [string, string][]) {
  const s = setup(files, { base });
  const r = fileRenameEdits(
    s.ctx,
    renames.map(([oldPath, newPath]) => ({ oldPath, newPath })),
  );
  const edits = Object.entries(r.changes).flatMap(([uri, es]) =>
    es.map((e) => `${pathOf(uri)}:${e.range.start.line + 1} → ${e.newText}`),
  );
  return { edits: edits.sort(), left: r.left };
}

describe('lsp file renames', () => {
  it('renames the layout ID where the layout stays in its package', () => {
    assert.deepEqual(renamed({}, [['main.layout.kit', 'shell.layout.kit']]).edits, [
      'blog/post.kit:6 → shell',
      'contact.kit:6 → shell',
      'home.kit:6 → shell',
    ]);
  });

  it('reports the users of a layout moved into another package', () => {
    const files = {
      'lay/shell.layout.kit': 'view {\n  <div><slot /></div>\n}\n',
      'x.kit':
        'package site\n\npage x\nroute "/x"\nguard public\nlayout lay.shell\n\nuse lay "lay"\n\nview {\n  <p></p>\n}\n',
    };
    assert.deepEqual(renamed(files, [['lay/shell.layout.kit', 'other/shell.layout.kit']]), {
      edits: [],
      left: ['x.kit:6: layout lay.shell moves to package other; name it from there'],
    });
    assert.deepEqual(renamed(files, [['lay/shell.layout.kit', 'lay/frame.layout.kit']]).edits, ['x.kit:6 → lay.frame']);
  });

  it('leaves a component alone when its name does not follow its file name', () => {
    const r = renamed({ 'card.cmp.kit': 'package site\n\ncomponent Tile\n\nview {\n  <div></div>\n}\n' }, [
      ['card.cmp.kit', 'panel.cmp.kit'],
    ]);
    assert.deepEqual(r, { edits: [], left: [] });
  });

  it('keeps a use line when the folder renamed declares its package by name', () => {
    // ui/button.cmp.kit says `package ui`: the package keeps its name in any folder.
    assert.deepEqual(renamed({}, [['ui', 'widgets']]), { edits: [], left: [] });
  });

  it('follows a folder above a package with the spelling of its use lines', () => {
    const files = {
      'shared/ui/x.cmp.kit': 'component X\n\nview {\n  <b></b>\n}\n',
      'home.kit': 'package site\n\npage home\nroute "/"\nguard public\n\nuse w "shared/ui"\n\nview {\n  <w.X />\n}\n',
    };
    assert.deepEqual(renamed(files, [['shared', 'common']]), { edits: ['home.kit:7 → common/ui'], left: [] });
  });

  it('reports a use line whose package name another folder has too', () => {
    const files = {
      'ui/button.cmp.kit': 'component Button\n\nview {\n  <button></button>\n}\n',
      'shared/ui/x.cmp.kit': 'component X\n\nview {\n  <b></b>\n}\n',
    };
    const r = renamed(files, [['ui', 'widgets']]);
    assert.deepEqual(r.edits, []);
    assert.deepEqual(r.left, ['home.kit:11: use ui "ui": another folder is package ui too']);
  });
});
