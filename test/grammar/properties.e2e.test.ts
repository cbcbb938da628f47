// Properties over random and mutated sources: parsing never throws, every range lies inside the
// document with line/column agreeing with the offset, and parse time grows linearly.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { lexOnly, parseKit } from '#grammar/index.js';
import { fixture, outDir } from '../helpers/repo.js';
import { applyEdit, editArb } from './edits.js';
import { allRanges, assertRangesConsistent } from './helpers.js';

const fixtures = readdirSync(fixture('grammar'))
  .filter((n) => n.endsWith('.kit'))
  .map((n) => readFileSync(fixture('grammar', n), 'utf8'));

/** Sources assembled from language fragments, so random input reaches deep into the grammar. */
const fragmentArb = fc.constantFrom(
  'package site\n',
  'route "/a/{slug}"\n',
  'guard public, role:admin\n',
  'act Save POST "/s" error "/e.html"\n',
  'api Ping GET "/p" cors origins "x" credentials true maxAge 60\n',
  'paths {\n',
  '  => { slug: "a", n: 3 }\n',
  'server {\n  => { a, b.c }\n',
  'props {\n  a string = "x"\n',
  'view {\n',
  '  <main .x #y a="t {v} \\"q\\"" b={!a && b == "c"} c>\n',
  '  <Card g:for={x, i in xs}>{param("p")}</Card>\n',
  '  <!-- c -->\n',
  '  {#if x}\n',
  '  <{d}>\n',
  '</main>\n',
  'fragment R GET "/r" "#t" {\n',
  'style {\n  a { b: "}" } /* } */\n',
  '}\n',
  '  }\n',
  '// comment\n',
  '@route "/x"\n',
  'title "Café 🚀"\n',
  '"\n',
  '{\n',
  '\r\n',
);
const sourceArb = fc.oneof(
  fc.array(fragmentArb, { maxLength: 30 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 200 }),
  fc.string({ maxLength: 200, unit: 'binary' }),
  fc
    .tuple(fc.constantFrom(...fixtures), fc.array(editArb, { maxLength: 10 }))
    .map(([t, edits]) => edits.reduce(applyEdit, t)),
);

describe('grammar: properties', () => {
  it('never throws and keeps every range inside the document', () => {
    fc.assert(
      fc.property(sourceArb, fc.constantFrom('a.page.kit', 'b.cmp.kit', 'c.layout.kit'), (text, path) => {
        const file = parseKit(text, path);
        assertRangesConsistent(text, file);
        for (const d of file.diagnostics) assert.ok(d.message.length > 0);
        // Incremental re-parsing shifts positions in place: no Pos object may appear twice.
        const seen = new Set<object>();
        for (const r of allRanges([file.declarations, file.comments, file.diagnostics])) {
          for (const p of [r.start, r.end]) {
            assert.ok(!seen.has(p), 'a Pos object is shared');
            seen.add(p);
          }
        }
        assert.ok(lexOnly(text) >= 0);
      }),
      { numRuns: 400 },
    );
  });

  it('parses in linear time: a doubled input takes at most about 2.5 times as long', () => {
    // Measured in a child process with a young generation large enough to hold the AST being built:
    // with the default size, promoting a growing live AST makes the garbage collector (not the
    // parser) grow faster than the input. CPU time, fastest of several interleaved runs (noise from
    // other work only adds time); a busy machine gets up to seven more attempts (the full suite runs
    // browsers and servers beside it).
    const script = `
      const { parseKit } = await import(${JSON.stringify(pathToFileURL(join(outDir, 'grammar/src/index.js')).href)});
      const { generateManyDeclarations } = await import(${JSON.stringify(pathToFileURL(join(outDir, 'test/grammar/kit-sources.js')).href)});
      const small = generateManyDeclarations(2000);
      const large = generateManyDeclarations(4000);
      const cpu = (text) => { const c = process.cpuUsage(); parseKit(text, 'x.page.kit'); const d = process.cpuUsage(c); return d.user + d.system; };
      for (let i = 0; i < 3; i++) parseKit(large, 'warm.page.kit');
      let best = Infinity;
      for (let attempt = 0; attempt < 8 && best > 2.5; attempt++) {
        let s = Infinity, l = Infinity;
        for (let i = 0; i < 9; i++) { s = Math.min(s, cpu(small)); l = Math.min(l, cpu(large)); }
        best = Math.min(best, l / s);
      }
      console.log(JSON.stringify({ ratio: best }));`;
    const out = execFileSync(process.execPath, ['--max-semi-space-size=32', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    const { ratio } = JSON.parse(out.trim().split('\n').pop()!) as { ratio: number };
    assert.ok(ratio <= 2.5, `4,000 declarations took ${ratio.toFixed(2)}x as long as 2,000`);
    assert.ok(ratio >= 1.2, `implausible ratio ${ratio.toFixed(2)}: the two inputs were not both parsed`);
  });
});

describe('grammar: markup depth limit (property)', () => {
  function depthOf(nodes: readonly import('#grammar/ast.js').MarkupNode[]): number {
    // Iterative on purpose: the property is about trees a recursive walk can take.
    let max = 0;
    const stack: [readonly import('#grammar/ast.js').MarkupNode[], number][] = [[nodes, 1]];
    while (stack.length) {
      const [list, d] = stack.pop()!;
      for (const n of list) {
        if (n.type !== 'element') continue;
        max = Math.max(max, d);
        stack.push([n.children, d + 1]);
      }
    }
    return max;
  }

  it('any nesting up to 10,000: never throws, the tree stays within 256 levels, one diagnostic past it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom('div', 'section', 'Card', 'ui.Box'),
        fc.boolean(),
        (depth, tag, closed) => {
          const open = `<${tag}>`.repeat(depth);
          const close = closed ? `</${tag}>`.repeat(depth) : '';
          const file = parseKit(`route "/d"\nguard public\n\nview {\n${open}x${close}\n}\n`, 'd.kit');
          const view = file.declarations.find((d) => d.kind === 'view');
          assert.ok(view && view.kind === 'view');
          assert.ok(depthOf(view.body) <= 256, `depth ${depthOf(view.body)}`);
          const tooDeep = file.diagnostics.filter((d) => d.code === 'markup_too_deep');
          assert.equal(tooDeep.length, depth > 256 ? 1 : 0);
          return true;
        },
      ),
      { numRuns: 40, seed: 17 },
    );
  });
});
