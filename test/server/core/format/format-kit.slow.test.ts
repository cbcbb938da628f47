import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseKit } from '#grammar/index.js';
import { formatKit } from '#core/format/format-kit.js';
import { meaningOf } from '#core/format/meaning.js';
import { fixture, repoRoot } from '#test/helpers/repo.js';

function kitFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) kitFiles(p, out);
    else if (name.endsWith('.kit')) out.push(p);
  }
  return out;
}

function formatted(text: string, path = 'x.kit'): string {
  const r = formatKit(text, path);
  assert.equal(r.kind, 'formatted', `${path}: ${JSON.stringify(r)}`);
  return (r as { text: string }).text;
}

const corpus = [...kitFiles(join(repoRoot, 'examples')), ...kitFiles(join(repoRoot, 'test', 'fixtures'))];

describe('kit formatter', () => {
  it('formats the messy fixture into its reviewed golden', () => {
    const out = formatted(readFileSync(fixture('lsp', 'format', 'messy.kit'), 'utf8'), 'messy.kit');
    assert.equal(out, readFileSync(fixture('lsp', 'format', 'messy.formatted.kit'), 'utf8'));
  });

  it('keeps <pre> content, multi-line comments and CSS comments exactly', () => {
    const out = formatted(readFileSync(fixture('lsp', 'format', 'messy.kit'), 'utf8'));
    assert.ok(out.includes('<pre>\n   keep   \n  this\n</pre>'));
    assert.ok(out.includes('<!-- multi\n      line -->'));
    assert.ok(out.includes('/* keep\n       me */'));
  });

  it('keeps CRLF line breaks', () => {
    const out = formatted(readFileSync(fixture('lsp', 'format', 'crlf.kit'), 'utf8'));
    assert.equal(out, 'package site\r\n\r\nroute "/x"\r\nview {\r\n  <p>x</p>\r\n}\r\n');
  });

  it('leaves a file with syntax errors untouched', () => {
    const r = formatKit(readFileSync(fixture('lsp', 'format', 'broken.kit'), 'utf8'), 'broken.kit');
    assert.equal(r.kind, 'syntax_errors');
    assert.ok(r.kind === 'syntax_errors' && r.diagnostics.some((d) => d.code === 'unterminated_string'));
  });

  it(`is idempotent and meaning-preserving on every .kit file of the repository (${corpus.length} files)`, () => {
    let formattedCount = 0;
    for (const file of corpus) {
      const text = readFileSync(file, 'utf8');
      const r = formatKit(text, file);
      assert.notEqual(r.kind, 'unsafe', `${file}: ${JSON.stringify(r)}`);
      if (r.kind !== 'formatted') continue;
      formattedCount++;
      assert.equal(formatted(r.text, file), r.text, `${file}: not idempotent`);
      assert.equal(meaningOf(parseKit(r.text, file)), meaningOf(parseKit(text, file)), `${file}: meaning changed`);
    }
    assert.ok(formattedCount > corpus.length / 2, `only ${formattedCount} files formatted`);
  });

  it('gives the same result whatever the indentation and blank lines of the input (property)', () => {
    const sources = corpus
      .map((f) => readFileSync(f, 'utf8'))
      .filter((t) => formatKit(t, 'x.kit').kind === 'formatted' && !/<pre|<textarea|\/\*|<!--|\r/.test(t));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: sources.length - 1 }),
        // Never column 0: there a keyword starts a declaration (`title string` in `props {}` would).
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(' ', '    ', '\t', '      ')), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (i, indents, blanks) => {
          const canonical = formatted(sources[i]);
          const lines = canonical.split('\n');
          const body = lines.slice(0, -1);
          for (const [n, indent] of indents) {
            const k = n % body.length;
            // Lines of multi-line strings keep their indentation; everything else may be re-indented.
            // (CRLF sources are left out: the perturbation splits lines on LF alone.)
            if (!/^\s*$/.test(body[k]) && !/"[^"]*$/.test(body[k - 1] ?? '')) body[k] = indent + body[k].trimStart();
          }
          // More blank lines where there are some already, inside blocks' edges and around the file.
          const spots = [
            0,
            body.length,
            ...body.flatMap((l, k) => (l === '' || /\{$/.test(l) || /^\}$/.test(body[k + 1] ?? '') ? [k + 1] : [])),
          ];
          for (const at of blanks.map((n) => spots[n % spots.length]).sort((a, b) => b - a)) body.splice(at, 0, '');
          const perturbed = body.join('\n') + '\n';
          const r = formatKit(perturbed, 'x.kit');
          assert.equal(r.kind, 'formatted');
          assert.equal((r as { text: string }).text, canonical);
          return true;
        },
      ),
      { numRuns: 150, seed: 4 },
    );
  });
});
