// Every relative link of README.md and docs/ leads to a file, and every #anchor to a heading of
// the page it points into (GitHub's slugs). The drift case breaks a copy of the docs.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkLinks } from '../../docs/tools/check-links.js';
import { repoRoot } from '../../docs/tools/pages.js';

describe('docs: links', () => {
  it('every relative link and anchor resolves', () => {
    assert.deepEqual(checkLinks(), []);
  });

  it('catches a renamed heading, a mistyped anchor and a missing page in a copy', () => {
    const copy = mkdtempSync(join(tmpdir(), 'kit-doc-links-'));
    try {
      for (const p of [
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'docs',
        'schemas',
        'test/fixtures/conformance/README.md',
      ])
        cpSync(join(repoRoot, p), join(copy, p), { recursive: true });
      const routing = join(copy, 'docs', 'routing.md');
      writeFileSync(routing, readFileSync(routing, 'utf8').replace('## Parameters in handlers', '## Parameters'));
      const guards = join(copy, 'docs', 'guards-and-security.md');
      writeFileSync(
        guards,
        `${readFileSync(guards, 'utf8')}\nSee [the forms](forms-and-actions.md#upload) and [the FAQ](faq.md).\n`,
      );
      const problems = checkLinks(copy);
      assert.ok(
        problems.some((p) =>
          /^docs\/app-api\.md:\d+: link "routing\.md#parameters-in-handlers": no heading or anchor "#parameters-in-handlers" there$/.test(
            p,
          ),
        ),
        problems.join('\n'),
      );
      assert.ok(
        problems.some((p) =>
          /^docs\/guards-and-security\.md:\d+: link "forms-and-actions\.md#upload": no heading or anchor "#upload" there$/.test(
            p,
          ),
        ),
        problems.join('\n'),
      );
      assert.ok(
        problems.some((p) => /^docs\/guards-and-security\.md:\d+: link "faq\.md": no such file$/.test(p)),
        problems.join('\n'),
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
