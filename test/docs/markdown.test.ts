// The Markdown reading the doc checks rely on: fenced blocks with their info strings and lines,
// GitHub's heading anchors, and links outside code.
import { strict as assert } from 'node:assert';
import { anchors, codeBlocks, links, parseInfo } from '../../docs/tools/markdown.js';

describe('docs: reading Markdown', () => {
  it('reads fenced blocks with their language, attributes and first line', () => {
    const text = [
      '# T',
      '',
      '```kit error=duplicate_route,malformed_route ssr=false',
      'route "/"',
      '```',
      '',
      '~~~ts',
      'x',
      '~~~',
    ].join('\n');
    const blocks = codeBlocks(text);
    assert.equal(blocks.length, 2);
    assert.deepEqual(
      { lang: blocks[0].lang, attrs: blocks[0].attrs, body: blocks[0].body, line: blocks[0].line },
      { lang: 'kit', attrs: { error: 'duplicate_route,malformed_route', ssr: 'false' }, body: 'route "/"\n', line: 4 },
    );
    assert.equal(blocks[1].lang, 'ts');
    assert.deepEqual(parseInfo('kit fragment=view'), { lang: 'kit', attrs: { fragment: 'view' } });
  });

  it('gives headings the anchors GitHub gives them', () => {
    const text = [
      '# Getting started',
      '## Development: `kit dev`',
      '## Forms, actions and APIs',
      '## [Links](x.md) and **bold**',
      '### unknown_name',
      '### DEFAULT\\_UPLOAD\\_LIMITS',
      '## Forms, actions and APIs',
      '```',
      '## not a heading',
      '```',
      '<a id="custom"></a>',
    ].join('\n');
    assert.deepEqual([...anchors(text)].sort(), [
      'custom',
      'default_upload_limits',
      'development-kit-dev',
      'forms-actions-and-apis',
      'forms-actions-and-apis-1',
      'getting-started',
      'links-and-bold',
      'unknown_name',
    ]);
  });

  it('finds links in prose, not in code', () => {
    const text = ['See [a](a.md#x) and `[b](b.md)`.', '```', '[c](c.md)', '```', '[ref]: d.md'].join('\n');
    assert.deepEqual(
      links(text).map((l) => `${l.line}:${l.target}`),
      ['1:a.md#x', '5:d.md'],
    );
  });
});
