// Positions count UTF-16 code units (as JavaScript and the LSP do); line breaks are \n, \r\n and \r.
import assert from 'node:assert/strict';
import {
  fileKindFromPath,
  lexOnly,
  offsetAt,
  parseKit,
  valueOffset,
  positionAt,
  type Element,
  type TextNode,
} from '#grammar/index.js';
import { DECLARATION_KEYWORDS, VOID_ELEMENTS } from '#shared/language/facts.js';
import { assertRangesConsistent, decl, elements, lc, slice } from './helpers.js';

describe('grammar: positions', () => {
  it('counts UTF-16 code units in columns after non-ASCII text', () => {
    const source = 'title "Café 🚀" route\nguard public\nview {\n  <p>é🚀 {name}</p>\n}\n';
    const file = parseKit(source, 'x.page.kit');
    assertRangesConsistent(source, file);
    // `🚀` is two UTF-16 units: the string ends at column 15, `route` starts at 16.
    const diag = file.diagnostics[0];
    assert.equal(diag.code, 'parse_error');
    assert.deepEqual(lc(diag.range), [0, 16, 0, 21]);
    const guard = decl(file, 'guard');
    assert.deepEqual(lc(guard.guards[0].range), [1, 6, 1, 12]);
    const p = elements(decl(file, 'view').body)[0] as Element;
    const text = p.children[0] as TextNode;
    assert.equal(text.value, 'é🚀 ');
    assert.deepEqual(lc(text.range), [3, 5, 3, 9]);
    const interp = p.children[1];
    assert.deepEqual(lc(interp.range), [3, 9, 3, 15]);
    assert.equal(slice(source, interp.range), '{name}');
  });

  it('keeps later columns right after a title with an astral character', () => {
    const source = 'title "Café 🚀"\nroute "/x"\n';
    const file = parseKit(source, 'x.page.kit');
    const meta = decl(file, 'meta');
    assert.equal(meta.value.value, 'Café 🚀');
    assert.deepEqual(lc(meta.value.range), [0, 6, 0, 15]);
    assert.equal(valueOffset(meta.value, meta.value.value.length), meta.value.range.end.offset - 1);
    assert.deepEqual(lc(decl(file, 'route').path.range), [1, 6, 1, 10]);
  });

  it('treats \\r\\n and a lone \\r as line breaks', () => {
    const source = 'route "/a"\r\nguard public\rlayout x\n';
    const file = parseKit(source, 'x.page.kit');
    assertRangesConsistent(source, file);
    assert.deepEqual(file.lineStarts, [0, 12, 25, 34]);
    assert.deepEqual(lc(decl(file, 'guard').range), [1, 0, 1, 12]);
    assert.deepEqual(lc(decl(file, 'layout').range), [2, 0, 2, 8]);
  });

  it('converts offsets and positions both ways, clamping out-of-range input', () => {
    const source = 'ab\ncd\r\nef';
    const file = parseKit(source, 'x.page.kit');
    assert.deepEqual(positionAt(file, 4), { offset: 4, line: 1, column: 1 });
    assert.deepEqual(positionAt(file, 7), { offset: 7, line: 2, column: 0 });
    assert.deepEqual(positionAt(file, -3), { offset: 0, line: 0, column: 0 });
    assert.deepEqual(positionAt(file, 99), { offset: 9, line: 2, column: 2 });
    for (let off = 0; off <= source.length; off++) {
      const p = positionAt(file, off);
      assert.equal(offsetAt(file, p.line, p.column), off);
    }
    assert.equal(offsetAt(file, 1, 99), 7);
    assert.equal(offsetAt(file, 9, 0), 9);
    assert.equal(offsetAt(file, -1, 0), 0);
    // Only lineStarts is needed.
    assert.deepEqual(positionAt({ lineStarts: [0, 3] }, 4), { offset: 4, line: 1, column: 1 });
  });

  it('classifies files by suffix and by a component declaration', () => {
    assert.equal(fileKindFromPath('/a/b/panel.cmp.kit'), 'component');
    assert.equal(fileKindFromPath('C:\\x\\frame.layout.kit'), 'layout');
    assert.equal(fileKindFromPath('blog.page.kit'), 'page');
    assert.equal(fileKindFromPath('x.kit'), 'page');
    assert.equal(parseKit('component Card\n', 'card.kit').kind, 'component');
    assert.equal(parseKit('route "/"\n', 'frame.layout.kit').kind, 'layout');
  });

  it('lexOnly counts the tokens of every lexer the parser runs, expressions included', () => {
    // Declaration lines are lexed a run at a time, line breaks included: `route`, `"/x"`, newline.
    assert.equal(lexOnly('route "/x"\n'), 3);
    // view { → 2; `  `, `<p`, `>`, `{a.b}`, `</p>`, `\n` → 6; inside the braces a . b → 3.
    assert.equal(lexOnly('view {\n  <p>{a.b}</p>\n}\n'), 11);
    assert.equal(lexOnly(''), 0);
  });

  it('exports the keyword and void element lists', () => {
    for (const k of [
      'package',
      'route',
      'guard',
      'act',
      'api',
      'fragment',
      'view',
      'style',
      'paths',
      'server',
      'props',
    ]) {
      assert.ok((DECLARATION_KEYWORDS as readonly string[]).includes(k), k);
    }
    assert.ok(VOID_ELEMENTS.has('br') && VOID_ELEMENTS.has('input') && !VOID_ELEMENTS.has('div'));
  });

  it('keeps // comments outside blocks, including a trailing one', () => {
    const source = '// expect: missing_page_guard\nroute "/x" // the route\n';
    const file = parseKit(source, 'x.page.kit');
    assert.deepEqual(
      file.comments.map((c) => [c.text, lc(c.range)]),
      [
        ['// expect: missing_page_guard', [0, 0, 0, 29]],
        ['// the route', [1, 11, 1, 23]],
      ],
    );
    assert.deepEqual(file.diagnostics, []);
    assert.equal(decl(file, 'route').path.value, '/x');
  });
});
