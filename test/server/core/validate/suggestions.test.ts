// Did-you-mean suggestions that name other files' declarations follow edits: adding, renaming or
// removing the declaration re-evaluates the unresolved uses, exactly as a fresh load would see them.
import { strict as assert } from 'node:assert';
import { Workspace } from '#core/workspace/workspace.js';

const PAGE = 'site/page.kit';

function messagesOf(w: Workspace, file: string, code: string): string[] {
  return w
    .diagnosticsFor(file)
    .filter((d) => d.code === code)
    .map((d) => d.message);
}

function fresh(files: Record<string, string>): Workspace {
  const w = new Workspace({ ssr: false });
  for (const [f, t] of Object.entries(files).sort()) w.setKitFile(f, t);
  w.flush();
  return w;
}

describe('did-you-mean suggestions follow edits', () => {
  it('unknown_layout_id: a layout added, renamed or removed in the package changes the suggestion', () => {
    const page = 'route "/p"\nguard public\nlayout mian\n\nview {\n  <main>P</main>\n}\n';
    const layout = 'view {\n  <div><slot /></div>\n}\n';
    const w = new Workspace({ ssr: false });
    w.setKitFile(PAGE, page);
    w.flush();
    assert.deepEqual(messagesOf(w, PAGE, 'unknown_layout_id').length, 1);
    assert.ok(!messagesOf(w, PAGE, 'unknown_layout_id')[0].includes('did you mean'));
    w.setKitFile('site/main.layout.kit', layout);
    assert.match(messagesOf(w, PAGE, 'unknown_layout_id')[0], /did you mean "main"\?$/);
    assert.deepEqual(
      messagesOf(w, PAGE, 'unknown_layout_id'),
      messagesOf(fresh({ [PAGE]: page, 'site/main.layout.kit': layout }), PAGE, 'unknown_layout_id'),
    );
    w.remove('site/main.layout.kit');
    w.setKitFile('site/mien.layout.kit', layout);
    assert.match(messagesOf(w, PAGE, 'unknown_layout_id')[0], /did you mean "mien"\?$/);
    w.remove('site/mien.layout.kit');
    assert.ok(!messagesOf(w, PAGE, 'unknown_layout_id')[0].includes('did you mean'));
  });

  it('unknown_component: a component declared later is suggested, and its removal withdraws it', () => {
    const page = 'route "/c"\nguard public\n\nview {\n  <main><Cards /></main>\n}\n';
    const card = 'component Card\n\nview {\n  <section>Card</section>\n}\n';
    const w = new Workspace({ ssr: false });
    w.setKitFile(PAGE, page);
    w.flush();
    assert.ok(!messagesOf(w, PAGE, 'unknown_component')[0].includes('did you mean'));
    w.setKitFile('site/card.cmp.kit', card);
    assert.match(messagesOf(w, PAGE, 'unknown_component')[0], /did you mean <Card>\?$/);
    w.setKitFile('site/card.cmp.kit', card.replace('component Card', 'component Panel'));
    assert.ok(!messagesOf(w, PAGE, 'unknown_component')[0].includes('did you mean'));
  });

  it('unknown_prop: the suggestion follows the props block of the component', () => {
    const page = 'route "/t"\nguard public\n\nview {\n  <main><Tag lable="x" /></main>\n}\n';
    const tag = (prop: string) =>
      `component Tag\n\nprops {\n  ${prop} string = "a"\n}\n\nview {\n  <b>{${prop}}</b>\n}\n`;
    const w = new Workspace({ ssr: false });
    w.setKitFile(PAGE, page);
    w.setKitFile('site/tag.cmp.kit', tag('title'));
    w.flush();
    assert.ok(!messagesOf(w, PAGE, 'unknown_prop')[0].includes('did you mean'));
    w.setKitFile('site/tag.cmp.kit', tag('label'));
    assert.match(messagesOf(w, PAGE, 'unknown_prop')[0], /did you mean "label"\?$/);
  });
});
