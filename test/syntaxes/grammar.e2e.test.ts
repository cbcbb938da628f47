// The TextMate grammar: assertion files and snapshots run through vscode-tmgrammar-test (which uses
// vscode-textmate and Oniguruma, as VS Code does), plus static checks of the grammar file itself.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture, repoRoot } from '../helpers/repo.js';

const grammar = join(repoRoot, 'syntaxes', 'kit.tmLanguage.json');
// VS Code embeds its built-in CSS grammar in style {}; the tests use a small stand-in with the same scope name.
const css = fixture('syntaxes', 'css-stand-in.tmLanguage.json');

function tool(name: 'vscode-tmgrammar-test' | 'vscode-tmgrammar-snap', args: string[]) {
  const r = spawnSync(join(repoRoot, 'node_modules', '.bin', name), ['-g', grammar, '-g', css, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('kit TextMate grammar', function () {
  this.timeout(60000);

  it('passes the scope assertion files', () => {
    const r = tool('vscode-tmgrammar-test', [join('test', 'fixtures', 'syntaxes', '*.test.kit')]);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /declarations\.test\.kit run successfuly/);
    assert.match(r.out, /markup\.test\.kit run successfuly/);
  });

  it('matches the reviewed snapshots of the example pages', () => {
    const r = tool('vscode-tmgrammar-snap', [
      '-s',
      'source.kit',
      join('test', 'fixtures', 'syntaxes', 'snap', '*.kit'),
    ]);
    assert.equal(r.status, 0, r.out);
    assert.doesNotMatch(r.out, /changed|failed/i);
  });

  it('fails on a wrong assertion (the harness is live)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-grammar-'));
    try {
      const file = join(dir, 'wrong.test.kit');
      writeFileSync(
        file,
        '// SYNTAX TEST "source.kit" "wrong on purpose"\nguard public\n//    ^^^^^^ keyword.declaration.kit\n',
      );
      const r = tool('vscode-tmgrammar-test', [file]);
      assert.notEqual(r.status, 0);
      assert.match(r.out, /missing required scopes: keyword\.declaration\.kit/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has scope source.kit and resolves every repository reference', () => {
    const g = JSON.parse(readFileSync(grammar, 'utf8')) as {
      scopeName: string;
      patterns: unknown[];
      repository: Record<string, unknown>;
    };
    assert.equal(g.scopeName, 'source.kit');
    const refs = new Set<string>();
    JSON.stringify(g, (k, v) => {
      if (k === 'include' && typeof v === 'string' && v.startsWith('#')) refs.add(v.slice(1));
      return v;
    });
    for (const r of refs) assert.ok(r in g.repository, `#${r} is not in the repository`);
    for (const name of Object.keys(g.repository)) assert.ok(refs.has(name), `repository entry ${name} is never used`);
  });

  it('ships a language configuration with comments, brackets, auto-closing pairs and folding', () => {
    const c = JSON.parse(readFileSync(join(repoRoot, 'syntaxes', 'language-configuration.json'), 'utf8')) as Record<
      string,
      unknown
    > & { folding: { markers: { start: string; end: string } } };
    assert.deepEqual(c.comments, { lineComment: '//', blockComment: ['<!--', '-->'] });
    assert.ok(Array.isArray(c.brackets) && Array.isArray(c.autoClosingPairs) && Array.isArray(c.surroundingPairs));
    const start = new RegExp(c.folding.markers.start);
    const end = new RegExp(c.folding.markers.end);
    for (const line of ['view {', 'paths {', 'go server {', 'fragment Row GET "/r/{id}" "#rows" {'])
      assert.ok(start.test(line), line);
    assert.ok(!start.test('route "/x/{id}"'));
    assert.ok(end.test('}') && end.test('  }'));
  });
});
