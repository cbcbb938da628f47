// The JSON report of `kit check`, written a part at a time (`checkJsonParts`): byte for byte what
// `JSON.stringify(report, null, 2)` prints, on real workspaces' diagnostics (related locations, fix
// hints, wide characters) and on messages that JSON must escape.
import { strict as assert } from 'node:assert';
import { checkJson, checkJsonParts, toJsonDiagnostic } from '#cli/format/check-output.js';
import { sourceLookup } from '#cli/sources.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import type { SourceLookup } from '#core/model/report-positions.js';
import { loadProject } from '#core/project/load.js';
import { fixture } from '#test/helpers/repo.js';

/** What the report was before it was written in parts: one object, stringified whole. */
function stringified(diags: Diagnostic[], source: SourceLookup): string {
  return `${JSON.stringify({ version: 1, diagnostics: diags.map((d) => toJsonDiagnostic(d, source)) }, null, 2)}\n`;
}

const at = (line: number, column: number, offset: number) => ({ line, column, offset });

describe('kit check --json: the report in parts', () => {
  for (const name of ['code-frames', 'conformance', 'reports']) {
    it(`${name}: equal to the whole report stringified`, () => {
      const { workspace } = loadProject([fixture(name)], { ssr: true }, fixture(name));
      const diags = workspace.allDiagnostics();
      assert.ok(diags.length > 0, `${name} has diagnostics to print`);
      const source = sourceLookup(workspace);
      assert.equal(checkJson(diags, source), stringified(diags, source));
      if (name === 'code-frames') {
        assert.ok(
          diags.some((d) => d.related?.length),
          'a diagnostic with related locations is among them',
        );
        assert.ok(
          diags.some((d) => d.suggestion),
          'a diagnostic with a fix hint is among them',
        );
      }
    });
  }

  it('no diagnostics: an empty list', () => {
    const none = checkJson([], () => undefined);
    assert.equal(
      none,
      stringified([], () => undefined),
    );
    assert.deepEqual(JSON.parse(none), { version: 1, diagnostics: [] });
  });

  it('escapes what JSON must, and keeps wide characters', () => {
    const text = 'x "quoted" \\ back\tslash\n\u2028 é 😀 \ud800 lone\u0001';
    const range = { start: at(0, 1, 1), end: at(1, 2, 30) };
    const diags: Diagnostic[] = [
      { code: 'c"1', severity: 'error', message: text, file: 'a "b".kit', range },
      {
        code: 'c2',
        severity: 'warning',
        message: 'm',
        file: 'b.kit',
        range,
        suggestion: text,
        related: [
          { file: 'a "b".kit', range, message: text },
          { file: 'c.kit', range, message: '' },
        ],
      },
      { code: 'c3', severity: 'info', message: 'no hint', file: 'c.kit', range, related: [], suggestion: '' },
    ];
    const source: SourceLookup = () => text;
    assert.equal(checkJson(diags, source), stringified(diags, source));
  });

  it('splits a long report into parts that join to the same text', () => {
    const range = { start: at(0, 0, 0), end: at(0, 1, 1) };
    const message = 'a message of some length, '.repeat(8);
    const diags: Diagnostic[] = Array.from({ length: 6000 }, (_, i) => ({
      code: 'unknown_name',
      severity: 'error',
      message: `${message}${i}`,
      file: `pages/p${i}.kit`,
      range,
    }));
    const parts = [...checkJsonParts(diags, () => 'x')];
    assert.ok(parts.length > 1, `${parts.length} part(s)`);
    assert.equal(
      Buffer.concat(parts).toString('utf8'),
      stringified(diags, () => 'x'),
    );
    // Each part ends between two diagnostics: a reader may decode the parts one by one.
    for (const part of parts.slice(0, -1)) assert.ok(part.toString('utf8').endsWith('\n    }'));
  });
});
