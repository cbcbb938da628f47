// A workspace that drops markup once files are checked (`SUMMARIES`) gives the same diagnostics, and
// a released view or fragment body reads back (re-parsed) equal to the one a full load keeps.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProject } from '#core/project/load.js';
import { SUMMARIES } from '#core/workspace/workspace.js';
import { parseKit } from '#grammar/index.js';
import { releaseMarkup } from '#core/model/markup-release.js';
import { repoRoot } from '#test/helpers/repo.js';

describe('core/model: markup release', () => {
  const inputs = [join('examples', 'site'), join('test', 'fixtures', 'app', 'site')];

  it('diagnostics and every tree are the same as with the markup kept', () => {
    for (const input of inputs) {
      const kept = loadProject([input], { ssr: true }, repoRoot).workspace;
      const released = loadProject([input], { ssr: true }, repoRoot, { policy: SUMMARIES }).workspace;
      assert.deepEqual(
        JSON.parse(JSON.stringify(released.allDiagnostics())),
        JSON.parse(JSON.stringify(kept.allDiagnostics())),
        input,
      );
      assert.ok(kept.kitPaths().length > 3);
      for (const path of kept.kitPaths()) {
        // JSON reads every property, so the released bodies are re-parsed here.
        assert.equal(JSON.stringify(released.kit(path)!.ast), JSON.stringify(kept.kit(path)!.ast), path);
      }
    }
  });

  it('component calls keep what the cross-file rules read of them once the markup is released', () => {
    // Slot content is read whole (field reads of `let:` names), component calls within it too.
    const dir = mkdtempSync(join(tmpdir(), 'kit-release-'));
    try {
      writeFileSync(
        join(dir, 'table.cmp.kit'),
        'component Table\n\nprops {\n  caption string\n}\n\nview {\n  <table>' +
          '<slot name="row" value={caption} label="Row" note /><slot /></table>\n}\n',
      );
      writeFileSync(
        join(dir, 'note.cmp.kit'),
        'component Note\n\nprops {\n  text string\n}\n\nview {\n  <p>{text}</p>\n}\n',
      );
      writeFileSync(
        join(dir, 'p.kit'),
        'page p\nroute "/p"\nguard public\n\nview {\n  <Table caption="Orders" extra="x {y}">\n' +
          '    <template g:slot="row" let:value let:label let:note let:nope>' +
          '<Note text={label.text} more="{value.size}" /><Note text="{note.x}" /></template>\n' +
          '  </Table>\n  <Note />\n  <Table caption={z} g:slot="q" />\n}\n',
      );
      const kept = loadProject([dir], { ssr: true }, dir).workspace;
      const released = loadProject([dir], { ssr: true }, dir, { policy: SUMMARIES }).workspace;
      const codes = kept.allDiagnostics().map((d) => d.code);
      for (const code of ['slot_value_not_object', 'unknown_prop', 'missing_prop', 'unknown_slot_value'])
        assert.ok(codes.includes(code), `${code} in ${codes.join(', ')}`);
      assert.deepEqual(
        JSON.parse(JSON.stringify(released.allDiagnostics())),
        JSON.parse(JSON.stringify(kept.allDiagnostics())),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('re-parses once per file, on the first body read, and keeps the result', () => {
    const text =
      'page p\nroute "/p"\nguard public\nfragment Row GET "/p/row" "#row" {\n  <tr id="row"><td>{x}</td></tr>\n}\nview {\n  <table><Row /></table>\n}\n';
    const file = parseKit(text, 'p.kit', { incremental: false });
    const fresh = parseKit(text, 'p.kit', { incremental: false });
    releaseMarkup(file, text);
    const bodyOf = (f: typeof file, kind: 'view' | 'fragment') => {
      const d = f.declarations.find((x) => x.kind === kind);
      assert.ok(d && (d.kind === 'view' || d.kind === 'fragment'));
      return d;
    };
    const view = bodyOf(file, 'view');
    assert.ok(Object.getOwnPropertyDescriptor(view, 'body')!.get, 'released: a getter');
    const body = view.body;
    assert.equal(JSON.stringify(body), JSON.stringify(bodyOf(fresh, 'view').body));
    assert.equal(Object.getOwnPropertyDescriptor(view, 'body')!.get, undefined, 'read once: a plain value');
    assert.equal(view.body, body, 'the same array on the next read');
    assert.equal(JSON.stringify(bodyOf(file, 'fragment').body), JSON.stringify(bodyOf(fresh, 'fragment').body));
  });
});
