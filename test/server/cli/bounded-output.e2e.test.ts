// `kit check`'s human output stays what a person can read whatever one file holds: ten thousand
// unclosed tags on one 50 KB line (or one per line) give a bounded report with the right counts,
// long lines are clipped around the range with the caret still under its character, and the
// JSON, github and sarif outputs stay complete.
import { strict as assert } from 'node:assert';
import { codeFrame, FRAME_WIDTH } from '#cli/format/code-frame.js';
import { SHOWN_PER_FILE_CODE } from '#cli/format/check-output.js';
import { runProcess, TempTree } from './cli-harness.js';

const DIVS = 10_000;
const HEAD = 'route "/big"\nguard public\n\nview {\n';

/** Terminal columns of shown frame text (tabs are already spaces there), as the frame counts them. */
function columns(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    n += (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x1f300 && cp <= 0x1f64f) ? 2 : 1;
  }
  return n;
}

/** The display column of the caret under frame line `i` of `lines`, and the text shown above it. */
function caretTarget(lines: string[], i: number): string {
  const src = lines[i].slice(lines[i].indexOf('|') + 2);
  const under = lines[i + 1].slice(lines[i + 1].indexOf('|') + 2);
  const at = under.indexOf('^');
  // Walk the shown text to the code point that starts at display column `at`.
  let col = 0;
  for (let k = 0; k < src.length; ) {
    const ch = String.fromCodePoint(src.codePointAt(k)!);
    if (col === at) return src.slice(k);
    col += columns(ch);
    k += ch.length;
  }
  return '';
}

describe('kit check: output bounded by what a person can read', function () {
  this.timeout(120_000);
  let tree: TempTree;
  afterEach(() => tree?.dispose());

  for (const [shape, body] of [
    ['on one 50 KB line', '<div>'.repeat(DIVS) + '\n'],
    ['one per line', '<div>\n'.repeat(DIVS)],
  ] as const) {
    it(`${DIVS.toLocaleString('en-US')} unclosed <div> ${shape}: exit 1, a bounded report, the right counts`, async () => {
      tree = new TempTree({ 'site/big.kit': `${HEAD}${body}}\n` });
      // A heap far below what the unbounded report took (hundreds of MB): the report must fit.
      const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '--max-old-space-size=256' };
      delete env.NO_COLOR;
      delete env.FORCE_COLOR;
      const r = await runProcess(['check', 'site'], tree.root, { env });
      assert.equal(r.stderr, '');
      assert.equal(r.code, 1);
      assert.ok(r.stdout.length < 16_000, `human report of ${r.stdout.length} bytes`);
      const heads = r.stdout.match(/^site\/big\.kit:\d+:\d+: error view_parse_error: /gm) ?? [];
      assert.equal(heads.length, SHOWN_PER_FILE_CODE);
      const rest = DIVS - SHOWN_PER_FILE_CODE;
      assert.match(
        r.stdout,
        new RegExp(
          `\n… and ${rest.toLocaleString('en-US')} more view_parse_error errors in site/big\\.kit; ` +
            'kit check --format json lists them all\n',
        ),
      );
      const lines = r.stdout.split('\n');
      for (const [i, l] of lines.entries()) {
        assert.ok(l.length <= FRAME_WIDTH + 60, `line ${i + 1} is ${l.length} characters`);
        // Every caret sits under the `div` its diagnostic names.
        if (/^\s*\d+ \| /.test(l)) assert.match(caretTarget(lines, i), /^div>/);
      }
      // The complete outputs list every diagnostic; the summary counts them all.
      const [json, github, sarif] = await Promise.all(
        ['json', 'github', 'sarif'].map((f) => runProcess(['check', '--format', f, 'site'], tree.root)),
      );
      const all = JSON.parse(json.stdout).diagnostics as { code: string }[];
      assert.equal(all.filter((d) => d.code === 'view_parse_error').length, DIVS);
      assert.match(r.stdout, new RegExp(`\nchecked 1 file: ${all.length} errors, 0 warnings\n$`));
      assert.equal(github.stdout.match(/^::error /gm)?.length, all.length);
      assert.equal(JSON.parse(sarif.stdout).runs[0].results.length, all.length);
    });
  }

  it('a long line with tabs, wide and astral characters: clipped with …, the caret under the name', async () => {
    const filler = '世界 👋 café\t'.repeat(300);
    tree = new TempTree({
      'site/wide.kit':
        'route "/wide/{name}"\nguard public\n\npaths {\n  => { name: "x" }\n}\n\n' +
        `view {\n  <p>${filler}{nmae}${' tail'.repeat(2000)}</p>\n}\n`,
    });
    const r = await runProcess(['check', 'site'], tree.root);
    assert.equal(r.code, 1);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('9 | '));
    assert.ok(at > 0, r.stdout);
    assert.ok(lines[at].startsWith('9 | …') && lines[at].endsWith('…'), 'clipped on both sides');
    assert.ok(columns(lines[at]) <= FRAME_WIDTH + 8, lines[at]);
    assert.match(caretTarget(lines, at), /^nmae\}/);
    assert.match(lines[at + 1], /\^~~~$/);
  });

  it('codeFrame: a range near either end of a long line, and a multi-line range ending far right', () => {
    const style = { color: false, mark: '0' };
    const line = 'x'.repeat(5000);
    const text = `${line}\n`;
    const pos = (column: number, l = 0) => ({ offset: l * (line.length + 1) + column, line: l, column });
    // Near the start: not clipped on the left.
    const start = codeFrame(text, { start: pos(3), end: pos(6) }, style).split('\n');
    assert.ok(!start[1].startsWith('1 | …') && start[1].endsWith('…'));
    assert.equal(start[2].indexOf('^'), '1 | '.length + 3);
    // At the very end: not clipped on the right, the window full.
    const end = codeFrame(text, { start: pos(4998), end: pos(5000) }, style).split('\n');
    assert.ok(end[1].startsWith('1 | …') && !end[1].endsWith('…'));
    assert.equal(end[1].length, '1 | …'.length + FRAME_WIDTH);
    assert.equal(end[2].indexOf('^'), end[1].length - 2);
    // A range from the first line to far along the second: the second line shows the range's end.
    const two = `${line}\n${line}\n`;
    const multi = codeFrame(two, { start: pos(10), end: pos(4000, 1) }, style).split('\n');
    const last = multi.findIndex((l) => l.startsWith('2 | '));
    assert.ok(multi[last].startsWith('2 | …') && multi[last].endsWith('…'));
    assert.ok(multi[last + 1].endsWith('~'));
    assert.ok(multi[last + 1].length < multi[last].length, 'the underline ends inside the window');
  });
});
