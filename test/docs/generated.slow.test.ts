// docs/cli.md, docs/app-api.md and docs/diagnostics.md have parts generated from kit itself (the
// command line's help, the shipped declarations, the diagnostics registry): each is made afresh
// and compared, so a flag, an export or a code cannot change without the page. The drift cases
// compare a changed copy against the same fresh text, and feed the generators what they must refuse.
import { strict as assert } from 'node:assert';
import { REGISTRY, type CodeInfo } from '#core/diagnostics/registry.js';
import { exampleProblems } from '../../docs/tools/gen-app-api.js';
import { helpFlags } from '../../docs/tools/gen-cli.js';
import { diagnosticsReference } from '../../docs/tools/gen-diagnostics.js';
import { GENERATED, regenerate } from '../../docs/tools/generate.js';
import { firstDifference } from '../../docs/tools/regions.js';
import { APP_EXAMPLES } from '../../docs/tools/app-api-examples.js';
import { loadAllCommands } from '#cli/commands/index.js';

describe('docs: generated pages', function () {
  // TypeDoc reads the declarations anew: the slowest of the doc checks.
  this.timeout(180_000);

  const fresh = new Map<string, { current: string; fresh: string }>();
  const failed = new Map<string, Error>();
  before(async () => {
    for (const g of GENERATED) {
      try {
        fresh.set(g.page, await regenerate(g));
      } catch (e) {
        failed.set(g.page, e as Error);
      }
    }
  });

  const made = (page: string): { current: string; fresh: string } => {
    const error = failed.get(page);
    if (error) throw error;
    return fresh.get(page)!;
  };

  for (const g of GENERATED)
    it(`${g.page} is what npm run docs generates`, () => {
      const r = made(g.page);
      assert.ok(
        r.current === r.fresh,
        `${g.page} is out of date (${firstDifference(r.current, r.fresh)}): run npm run docs`,
      );
    });

  it('cli.md lists every command and every flag of every help text', async () => {
    const cli = made('docs/cli.md').fresh;
    for (const c of await loadAllCommands()) {
      assert.match(cli, new RegExp(`^## kit ${c.name}$`, 'm'));
      const flags = helpFlags(c.help);
      for (const f of flags) assert.ok(cli.includes(`| \`${f.flag}\` |`), `${c.name} ${f.flag}`);
    }
    assert.ok(helpFlags((await loadAllCommands()).find((c) => c.name === 'dev')!.help).length >= 6);
  });

  it('a page whose flag row is gone no longer matches', () => {
    const { fresh: text } = made('docs/cli.md');
    const drifted = text.replace(/^\| `--strict-bindings` \|.*\n/m, '');
    assert.notEqual(drifted, text);
    assert.match(firstDifference(drifted, text), /^line \d+: the page has .*, expected "\| `--strict-bindings` \|/);
  });

  it('an export without an example, or an example of nothing, stops the API page', () => {
    const { app: _app, ...withoutApp } = APP_EXAMPLES;
    assert.deepEqual(exampleProblems(Object.keys(APP_EXAMPLES), withoutApp), [
      'app is exported without an example (add one to docs/tools/app-api-examples.ts)',
    ]);
    assert.deepEqual(exampleProblems(['app'], { app: 'x', gone: 'y' }), [
      'app-api-examples.ts has an example of gone, which @kit-lang/kit/app does not export',
    ]);
    const api = made('docs/app-api.md').fresh;
    // TypeDoc's Markdown escapes underscores in headings (`DEFAULT\\_UPLOAD\\_LIMITS`).
    for (const name of Object.keys(APP_EXAMPLES))
      assert.match(api, new RegExp(`^### ${name.replace(/_/g, '\\\\_')}(\\(\\))?$`, 'm'), name);
  });

  it('a code without a fix or an example stops the diagnostics page', async () => {
    const registry: Record<string, CodeInfo> = {
      ...REGISTRY,
      brand_new_code: { area: 'route', severity: 'error', summary: 'A rule nobody documented.' },
    };
    await assert.rejects(diagnosticsReference(registry), (e: Error) => {
      assert.match(e.message, /brand_new_code: no fix \(write one in docs\/tools\/diagnostic-notes\.ts\)/);
      assert.match(
        e.message,
        /brand_new_code: no example \(add a conformance case or one in docs\/tools\/diagnostic-notes\.ts\)/,
      );
      return true;
    });
    const page = made('docs/diagnostics.md').fresh;
    for (const code of Object.keys(REGISTRY)) assert.match(page, new RegExp(`^### ${code}$`, 'm'), code);
  });
});
