import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { clientSourceDir, kitRuntimeSource } from '#core/build/index.js';
import { repoRoot } from '../../helpers/repo.js';

const navPath = join(repoRoot, 'shared', 'client', 'kit-nav.js');

describe('shared/client kit-nav.js', () => {
  const source = readFileSync(navPath, 'utf8');

  it('is under 8 KB minified', async () => {
    const { code } = await transform(source, { minify: true, loader: 'js' });
    assert.ok(code.length < 8 * 1024, `minified size ${code.length} bytes`);
  });

  it('is plain, dependency-free browser script (no imports, no requires, no exports)', () => {
    assert.doesNotMatch(source, /^\s*(import|export)\s/m);
    assert.doesNotMatch(source, /\brequire\(/);
  });

  it('is emitted as kit.js: kit-nav.js first, then kit-forms.js when it exists', () => {
    assert.equal(clientSourceDir(), join(repoRoot, 'shared', 'client'));
    const js = kitRuntimeSource();
    assert.ok(js.startsWith(source));
    const forms = join(repoRoot, 'shared', 'client', 'kit-forms.js');
    if (existsSync(forms)) assert.ok(js.endsWith(readFileSync(forms, 'utf8')));
    else assert.equal(js, source);
  });
});
