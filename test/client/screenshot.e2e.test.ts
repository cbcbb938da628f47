// The readme's screenshot generator (client/scripts/screenshot.mjs) up to the picture: the real
// server run it draws from, the grammar colours and the page. Chromium's part is left to the
// script itself (it takes seconds); the committed picture is checked to be there and to be a PNG.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../helpers/repo.js';

interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface Collected {
  file: string;
  text: string;
  position: { line: number; character: number };
  diagnostics: {
    code: string;
    severity: number;
    range: Range;
    message: string;
    relatedInformation?: { file: string; range: Range; message: string }[];
  }[];
  hover: { contents: { kind: string; value: string }; range: Range } | null;
}
interface Generator {
  collect(): Promise<Collected>;
  tokenize(text: string): Promise<{ start: number; end: number; scopes: string[] }[][]>;
  render(data: Collected, tokens: unknown): string;
  markdownToHtml(md: string): string;
}

const client = join(repoRoot, 'client');

describe('VS Code extension: the readme screenshot', function () {
  this.timeout(30000);
  let gen: Generator;
  before(async () => {
    gen = (await import(pathToFileURL(join(client, 'scripts', 'screenshot.mjs')).href)) as Generator;
  });

  it('draws from a real server run: the cross-file duplicate route, its related file, the route hover', async () => {
    const data = await gen.collect();
    assert.equal(data.file, 'contact.kit');
    assert.deepEqual(data.diagnostics.map((d) => d.code).sort(), [
      'duplicate_route',
      'spa_dynamic_route_missing_paths',
    ]);
    const dup = data.diagnostics.find((d) => d.code === 'duplicate_route')!;
    assert.equal(dup.range.start.line, data.position.line);
    assert.deepEqual(
      dup.relatedInformation?.map((r) => r.file),
      ['blog/post.kit'],
    );
    assert.equal(data.hover?.contents.kind, 'markdown');
    assert.match(data.hover!.contents.value, /^\*\*GET\*\* `\/blog\/\{id\}` — page `contact`/);

    const tokens = await gen.tokenize(data.text);
    assert.ok(tokens[data.position.line].some((t) => t.scopes.includes('keyword.declaration.kit')));
    const html = gen.render(data, tokens);
    for (const s of ['squiggle-error', 'kit(duplicate_route)', 'blog/post.kit(4, 1)', '<td>Render</td>'])
      assert.ok(html.includes(s), s);
    // The picture is committed: no path of the machine that drew it.
    assert.ok(!html.includes(repoRoot), 'the page names a local path');
    assert.ok(!html.includes('file://'), 'the page names a file URI');
  });

  it('renders the hover Markdown the server writes: bold around code, header-less tables, escaping', () => {
    assert.equal(
      gen.markdownToHtml('**GET** `/a/{id}` <x>\n\n|  |  |\n|---|---|\n| Params | **`id`: string** |'),
      '<p><b>GET</b> <code>/a/{id}</code> &lt;x&gt;</p>' +
        '<table><tr><td>Params</td><td><b><code>id</code>: string</b></td></tr></table>',
    );
  });

  it('is committed as a PNG the readme shows and says it was rendered from a real run', () => {
    const png = readFileSync(join(client, 'images', 'hover-diagnostics.png'));
    assert.equal(png.toString('latin1', 1, 4), 'PNG');
    assert.ok(png.readUInt32BE(16) >= 960, `width ${png.readUInt32BE(16)}`);
    const readme = readFileSync(join(client, 'README.md'), 'utf8');
    assert.match(readme, /!\[[^\]]+\]\(images\/hover-diagnostics\.png\)/);
    assert.match(readme, /Rendered from a real run of the language server/);
  });
});
