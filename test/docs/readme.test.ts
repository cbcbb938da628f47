// The README stays an entrance, not a manual: short, linking every page of docs/, and showing the
// same test command CI runs.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlocks, links } from '../../docs/tools/markdown.js';
import { repoRoot } from '../../docs/tools/pages.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

describe('docs: the README', () => {
  it('is at most 160 lines', () => {
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= 160, `README.md has ${lines} lines`);
  });

  it('links to every page of docs/', () => {
    const linked = new Set(links(readme).map((l) => l.target.split('#')[0]));
    const pages = readdirSync(join(repoRoot, 'docs')).filter((n) => n.endsWith('.md'));
    assert.deepEqual(
      pages.filter((p) => !linked.has(`docs/${p}`)),
      [],
    );
  });

  it('shows the test command CI runs, and an example command that exists', () => {
    const ci = readFileSync(join(repoRoot, '.ci', 'run'), 'utf8');
    // The contributors' block: the one that shows the test command.
    const block = codeBlocks(readme).find((b) => b.lang === 'sh' && /^npm test\b/m.test(b.body));
    assert.ok(block, 'the README shows npm test in a sh block');
    const commands = block.body
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter(Boolean);
    const testCommand = ci
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^npm (test|run test)\b/.test(l));
    assert.deepEqual(testCommand, ['npm test']);
    assert.ok(commands.includes('npm test'), 'the README runs the tests as CI does');
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const line of commands)
      for (const m of line.matchAll(/npm run (\S+)/g)) assert.ok(pkg.scripts[m[1]], `npm run ${m[1]} exists`);
  });
});
