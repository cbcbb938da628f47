// Every fenced `ts` block that imports kit (and nothing else) type-checks, strictly, against the
// declarations kit ships, as in a project that installed it; so do the examples of docs/app-api.md.
import { strict as assert } from 'node:assert';
import { checkTsBlocks, kitTsBlocks } from '../../docs/tools/check-ts.js';
import { docPages, repoRoot } from '../../docs/tools/pages.js';

describe('docs: ts blocks', function () {
  this.timeout(120_000);

  it('every ts block that imports @kit-lang/kit type-checks against the shipped declarations', () => {
    const pages = docPages();
    const blocks = kitTsBlocks(repoRoot, pages);
    assert.ok(blocks.length > 90, `${blocks.length} blocks`);
    assert.ok(blocks.some((b) => b.page === 'docs/app-api.md'));
    assert.deepEqual(checkTsBlocks(repoRoot, pages), []);
  });

  it('catches a block that uses an export kit does not have, and a wrong type', () => {
    const api = docPages().find((p) => p.path === 'docs/forms-and-actions.md');
    assert.ok(api);
    const drifted = api.text
      .replace(
        "import { fail, type RequestContext, showPage } from '@kit-lang/kit/app';",
        "import { failed, type RequestContext, showPage } from '@kit-lang/kit/app';",
      )
      .replace('const registered = new Set<string>();', 'const registered = new Set<number>();');
    assert.notEqual(drifted, api.text);
    const problems = checkTsBlocks(repoRoot, [{ path: api.path, text: drifted }]).join('\n');
    assert.match(
      problems,
      /docs\/forms-and-actions\.md:\d+: TS2724: '"@kit-lang\/kit\/app"' has no exported member named 'failed'/,
    );
    assert.match(problems, /docs\/forms-and-actions\.md:\d+: TS2345: Argument of type 'string' is not assignable/);
  });
});
