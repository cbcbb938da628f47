// reparseKit must always equal a fresh parse: random edit sequences over the fixtures, with the
// incremental result of one step as the input of the next.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parseKit, reparseKit } from '#grammar/index.js';
import { fixture } from '../helpers/repo.js';
import { applyEdit, editArb } from './edits.js';
import { generateLargeFile, generatePage } from './kit-sources.js';

const fixtureNames = readdirSync(fixture('grammar')).filter((n) => n.endsWith('.kit'));
const cut = {
  // Blocks cut short by recovery lines, a lone CR, and no final line break.
  name: 'cut.page.kit',
  text: 'paths {\n  => { a: "b" }\nact Save POST "/s"\nview {\n  <p>x</p>\nroute "/x"\r// note\rstyle {\n  a { color: red }\nguard public',
};
const bases = [
  cut,
  cut,
  cut,
  ...fixtureNames.map((n) => ({ name: n, text: readFileSync(fixture('grammar', n), 'utf8') })),
  { name: 'generated.page.kit', text: generatePage(7) },
  { name: 'crlf.page.kit', text: generatePage(8).replace(/\n/g, '\r\n') },
];

describe('grammar: incremental re-parse', () => {
  it('equals a fresh parse after every edit of random edit sequences', () => {
    fc.assert(
      fc.property(fc.constantFrom(...bases), fc.array(editArb, { minLength: 1, maxLength: 8 }), (base, edits) => {
        let text = base.text;
        let file = parseKit(text, base.name);
        for (const e of edits) {
          const next = applyEdit(text, e);
          const incremental = reparseKit(file, text, next);
          const fresh = parseKit(next, base.name);
          assert.deepStrictEqual(incremental, fresh);
          text = next;
          file = incremental;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('re-splits a block cut short when the line that cut it changes', () => {
    const text = 'paths {\n  => { a: "b" }\nact Save POST "/s"\n';
    const file = parseKit(text, 'x.page.kit');
    assert.equal(file.diagnostics[0].code, 'unterminated_block');
    const next = text.replace('act Save', 'axt Save');
    assert.deepStrictEqual(reparseKit(file, text, next), parseKit(next, 'x.page.kit'));
  });

  it('never reuses a chunk that starts inside the edited region, even at an unchanged offset', () => {
    const text = 'route "/a"\nguard public\n';
    const file = parseKit(text, 'x.page.kit');
    const next = 'route "/b"\nlayout mains\n';
    assert.equal(next.length, text.length);
    const re = reparseKit(file, text, next);
    assert.deepStrictEqual(re, parseKit(next, 'x.page.kit'));
    assert.deepEqual(
      re.declarations.map((d) => d.kind),
      ['route', 'layout'],
    );
  });

  it('re-parses the whole view when an edit inside an element closes one of its ancestors', () => {
    const text = 'view {\n  <main>\n    <section><p>a b</p></section>\n    <p>after</p>\n  </main>\n}\n';
    const file = parseKit(text, 'x.page.kit');
    const next = text.replace('a b', 'a </section> b');
    const re = reparseKit(file, text, next);
    assert.deepStrictEqual(re, parseKit(next, 'x.page.kit'));
    assert.ok(re.diagnostics.some((d) => d.code === 'view_parse_error'));
  });

  it('re-parses only the edited element of a long view, moving the rest of its line', () => {
    let text = 'view {\n  <main>\n';
    for (let i = 0; i < 200; i++) text += `    <p class="c${i}">line {item.name} ${i}</p><b>${i}</b>\n`;
    text += '  </main>\n}\nroute "/after"\n';
    const file = parseKit(text, 'x.page.kit');
    const at = text.indexOf('line {item.name} 100') + 2;
    const next = text.slice(0, at) + 'XY' + text.slice(at);
    const re = reparseKit(file, text, next);
    assert.deepStrictEqual(re, parseKit(next, 'x.page.kit'));
    const newline = text.slice(0, at) + '\n' + text.slice(at);
    assert.deepStrictEqual(
      reparseKit(re, next, newline.replace(text.slice(0, at), next.slice(0, at + 2))),
      parseKit(newline.replace(text.slice(0, at), next.slice(0, at + 2)), 'x.page.kit'),
    );
  });

  it('re-splits the last line when text is appended to it', () => {
    const text = 'route "/x"\nguard public';
    const file = parseKit(text, 'x.page.kit');
    const next = text + ', role:admin';
    assert.deepStrictEqual(reparseKit(file, text, next), parseKit(next, 'x.page.kit'));
  });

  it('shares the declarations before an edit and moves those after it, shifted', () => {
    const text = generateLargeFile(600);
    const file = parseKit(text, 'big.page.kit');
    const before = [...file.declarations];
    const lastLine = before[before.length - 1].range.start.line;
    const lastOffset = before[before.length - 1].range.start.offset;
    const at = text.indexOf('<td>', text.length >> 1);
    const next = text.slice(0, at) + '<b>new</b>\n' + text.slice(at);
    const re = reparseKit(file, text, next);
    assert.deepStrictEqual(re, parseKit(next, 'big.page.kit'));
    const edited = before.findIndex((d) => d.range.end.offset >= at);
    assert.ok(edited > 10 && edited < before.length - 10);
    // Before the edit: the very same objects. After it: the same objects, one line further down.
    for (let i = 0; i < edited; i++) assert.equal(re.declarations[i], before[i]);
    const last = re.declarations[re.declarations.length - 1];
    assert.equal(last, before[before.length - 1]);
    assert.equal(last.range.start.line, lastLine + 1);
    assert.equal(last.range.start.offset, lastOffset + '<b>new</b>\n'.length);
  });

  it('falls back to a full parse when given a previous result it already consumed', () => {
    const text = generatePage(5);
    const file = parseKit(text, 'p.page.kit');
    const a = text.replace('Page 5', 'Page five');
    const b = text.replace('/p5/save', '/p5/store');
    assert.deepStrictEqual(reparseKit(file, text, a), parseKit(a, 'p.page.kit'));
    assert.deepStrictEqual(reparseKit(file, text, b), parseKit(b, 'p.page.kit'));
  });

  it('falls back to a full parse for a file it did not produce, or a frozen one', () => {
    const text = generatePage(3);
    const next = text.replace('title "Page 3"', 'title "Page three"');
    const copy = structuredClone(parseKit(text, 'p.page.kit'));
    assert.deepStrictEqual(reparseKit(copy, text, next), parseKit(next, 'p.page.kit'));
    const frozen = Object.freeze(parseKit(text, 'p.page.kit'));
    assert.deepStrictEqual(reparseKit(frozen, text, next), parseKit(next, 'p.page.kit'));
  });
});
