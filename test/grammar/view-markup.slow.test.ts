// `parseKitDeclarations`: the declarations of a file without its views' markup (what `kit dev` reads
// first). Everything else is the whole parse's; a view's body is empty and its markup's
// diagnostics are left for the whole parse; the tree is one-shot.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isReparseable, parseKit, parseKitDeclarations } from '#grammar/index.js';
import type { KitFile, Range, ViewBlock } from '#grammar/ast.js';
import { fixturesDir } from '../helpers/repo.js';

const json = (x: unknown) => JSON.stringify(x);
type Ranged = { range: Range };
/** Whether a diagnostic is about a view's markup (it starts in the view's body). */
const inBody = (d: Ranged, v: ViewBlock) =>
  d.range.start.offset >= v.bodyRange.start.offset && d.range.start.offset <= v.bodyRange.end.offset;

function withoutViews(file: KitFile): unknown {
  return file.declarations.map((d) => (d.kind === 'view' ? { ...d, body: [] } : d));
}

describe('grammar: parsing without view markup', () => {
  for (const dir of ['accept', 'reject']) {
    it(`is the whole parse minus the views' markup (conformance/${dir})`, () => {
      const root = join(fixturesDir, 'conformance', dir);
      let views = 0;
      let markupErrors = 0;
      for (const name of readdirSync(root).filter((n) => n.endsWith('.kit'))) {
        const text = readFileSync(join(root, name), 'utf8');
        const whole = parseKit(text, name);
        const bare = parseKitDeclarations(text, name);
        assert.equal(json(bare.declarations), json(withoutViews(whole)), name);
        const viewDecls = whole.declarations.filter((d): d is ViewBlock => d.kind === 'view');
        views += viewDecls.length;
        const expected = whole.diagnostics.filter((d) => !viewDecls.some((v) => inBody(d, v)));
        assert.equal(json(bare.diagnostics), json(expected), name);
        markupErrors += whole.diagnostics.length - expected.length;
        assert.equal(isReparseable(bare), false, `${name}: a tree without markup is parsed again in full`);
      }
      assert.ok(views > 20, 'many views among the cases');
      if (dir === 'reject') assert.ok(markupErrors > 0, 'markup errors among the rejected cases');
    });
  }

  it('keeps the markup of fragments, and of a view written on one line', () => {
    const text =
      'package p\n\npage home\nroute "/"\nguard public\n\nfragment more GET "/more" "#list" {\n  <li>more</li>\n}\n\n' +
      'view {\n  <ul id="list"><li>one</li></ul>\n}\n';
    const bare = parseKitDeclarations(text, 'home.kit');
    const whole = parseKit(text, 'home.kit');
    const frag = (f: KitFile) => f.declarations.find((d) => d.kind === 'fragment');
    assert.ok(frag(bare));
    assert.equal(json(frag(bare)), json(frag(whole)));
    assert.deepEqual((bare.declarations.find((d) => d.kind === 'view') as { body: unknown[] }).body, []);
    const line = parseKitDeclarations('package p\n\ncomponent A\n\nview { <b>a</b> }\n', 'a.kit');
    assert.equal(
      json(line.declarations),
      json(parseKit('package p\n\ncomponent A\n\nview { <b>a</b> }\n', 'a.kit').declarations),
    );
  });
});
