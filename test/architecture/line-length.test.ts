// Source lines stay within 120 characters: the formatter wraps code, this holds comments and
// strings (which it leaves alone) to the same width. And the wiring modules stay small.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MAX = 120;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'out' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|mts)$/.test(name)) out.push(p);
  }
  return out;
}

describe('architecture: line length', () => {
  it(`keeps every source line within ${MAX} characters`, () => {
    const files = ['grammar/src', 'shared', 'server/src', 'client/src'].flatMap((d) => sources(join(root, d)));
    assert.ok(files.length > 200);
    const long: string[] = [];
    for (const f of files) {
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.length > MAX) long.push(`${relative(root, f)}:${i + 1}: ${line.length} characters`);
        });
    }
    assert.deepEqual(long, []);
  });

  // The two modules that grew by accretion before (docs/architecture.md: the split language server
  // and the request runtime): each stays a wiring module.
  for (const file of ['server/src/lsp/server.ts', 'shared/app/app.ts']) {
    it(`keeps ${file} under 300 lines`, () => {
      const lines = readFileSync(join(root, file), 'utf8').split('\n').length;
      assert.ok(lines < 300, `${file} has ${lines} lines`);
    });
  }
});
