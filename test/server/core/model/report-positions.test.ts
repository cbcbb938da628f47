// Report columns count code points: a text without surrogates takes the short way, one with them
// the walk along the line; both give the same columns.
import { strict as assert } from 'node:assert';
import type { Pos } from '#grammar/index.js';
import { reportPos } from '#core/model/report-positions.js';

function posAt(text: string, offset: number): Pos {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const line = text.slice(0, lineStart).split('\n').length - 1;
  return { offset, line, column: offset - lineStart };
}

describe('core/model/report-positions', () => {
  it('a column is the count of UTF-16 units before it when the text holds no surrogate', () => {
    const text = 'page a\nview {\n  <p>héllo {x}</p>\n}\n';
    const at = text.indexOf('{x}');
    assert.deepEqual(reportPos(text, posAt(text, at)), { line: 3, column: 12 });
  });

  it('a surrogate pair counts once, in the text that holds it and after another text', () => {
    const plain = 'abc {x}';
    const emoji = 'a😀b {x}';
    assert.deepEqual(reportPos(plain, posAt(plain, plain.indexOf('{'))), { line: 1, column: 5 });
    assert.deepEqual(reportPos(emoji, posAt(emoji, emoji.indexOf('{'))), { line: 1, column: 5 });
    assert.deepEqual(reportPos(plain, posAt(plain, plain.indexOf('x'))), { line: 1, column: 6 });
    assert.deepEqual(reportPos(emoji, posAt(emoji, emoji.indexOf('x'))), { line: 1, column: 6 });
  });
});
