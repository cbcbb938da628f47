// Spans keep each end's line and column in one field, a small integer in the two layouts of
// `pack`, and exactly otherwise: positions past them read back the same, and equal positions make
// equal spans whichever way they were reached (an edit's shift or a fresh parse).
import assert from 'node:assert/strict';
import { parseKit, Span, type Element, type MarkupNode } from '#grammar/index.js';

const pos = (s: Span) => [s.so, s.sl, s.sc, s.eo, s.el, s.ec];

describe('grammar: Span', () => {
  it('reads back small and large lines and columns', () => {
    for (const [l, c] of [
      [0, 0],
      [16383, 65535],
      [16384, 0],
      [16384, 1022],
      [16384, 1023],
      [0, 65536],
      [1048574, 1022],
      [1048575, 0],
      [200000, 3],
      [5, 8_000_000],
      [3, 2 ** 24],
    ]) {
      const s = new Span(7, l, c, 9, l + 1, c + 1);
      assert.deepEqual(pos(s), [7, l, c, 9, l + 1, c + 1]);
      assert.deepEqual(s.start, { offset: 7, line: l, column: c });
      assert.deepEqual(s.end, { offset: 9, line: l + 1, column: c + 1 });
      assert.deepEqual(JSON.parse(JSON.stringify(s)), { start: s.start, end: s.end });
    }
  });

  it('moves in place across the limits and equals a span made at the new place', () => {
    const s = new Span(1, 32760, 65530, 2, 32760, 65534);
    s.sl += 10;
    s.sc += 10;
    s.el += 10;
    s.ec += 10;
    assert.deepStrictEqual(s, new Span(1, 32770, 65540, 2, 32770, 65544));
    s.sl -= 10;
    s.sc -= 10;
    s.el -= 10;
    s.ec -= 10;
    assert.deepStrictEqual(s, new Span(1, 32760, 65530, 2, 32760, 65534));
  });

  it('gives positions past line 16383 and column 65535 in a parsed file', () => {
    const text = `${'\n'.repeat(40000)}page p\n`;
    const file = parseKit(text, 'x.page.kit');
    const d = file.declarations[0];
    assert.deepEqual(d.range.start, { offset: 40000, line: 40000, column: 0 });
    assert.deepEqual(d.range.end, { offset: 40006, line: 40000, column: 6 });
    const long = `page p\nroute "/p"\nguard public\nview {\n  <p>${'x'.repeat(70000)}<b>y</b></p>\n}\n`;
    const view = parseKit(long, 'l.page.kit').declarations.find((x) => x.kind === 'view');
    assert.ok(view && view.kind === 'view');
    const at = long.indexOf('<b>');
    const find = (nodes: MarkupNode[]): Element | undefined => {
      for (const n of nodes) {
        if (n.type !== 'element') continue;
        if (n.name === 'b') return n;
        const inner = find(n.children);
        if (inner) return inner;
      }
      return undefined;
    };
    const b = find(view.body);
    assert.deepEqual(b?.range.start, { offset: at, line: 4, column: at - long.indexOf('  <p>') });
  });
});
