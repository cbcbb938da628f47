// Edits inside a long view: the view walks of the summary and of the local rules remember their
// results per element, and an edit re-walks only the elements it touched. Whatever they remember,
// the file's diagnostics (order and ranges included) and its summary must be those of a fresh
// workspace loaded with the final text.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { type Element, parseKit, reparseKit } from '#grammar/index.js';
import { MEMO_MIN_BODY_CHARS } from '#core/model/markup-memo.js';
import type { FileSummary } from '#core/model/summary.js';
import { Workspace } from '#core/workspace/workspace.js';

const CARD =
  'package site\n\ncomponent Card\n\nprops {\n  heading: string\n}\n\nview {\n  <div class="card"><h3>{heading}</h3><slot /></div>\n}\n';

/** One of a few kinds of section, chosen by index, so that most view rules have something to say. */
function section(i: number): string[] {
  switch (i % 7) {
    case 0:
      return [
        `    <section id="s${i}" class="block">`,
        `      <h2>Section ${i} of {slug}</h2>`,
        `      <Card heading="Card ${i}"><p>Paragraph ${i} with {param("slug")} text.</p></Card>`,
        `      <form g:post={Save} g:target="#s${i}" g:swap="innerHTML"><input name="q${i}" /></form>`,
        '    </section>',
      ];
    case 1:
      return [
        `    <div id="d${i}"><a href="/items/{slug}">item</a> <a href="{slug}">bad</a></div>`,
        `    <p onclick="go()">{param("nope")}</p>`,
      ];
    case 2:
      return [
        `    <form g:post={Missing} g:target="#nowhere"><button>Go</button></form>`,
        `    <ui.Button label="x"></ui.Button> <zz.Thing />`,
      ];
    case 3:
      return [
        `    <ul><li g:for={x in xs} g:lane="server">{x}</li><li g:if={x}>no lane</li></ul>`,
        `    <div id="s${i - 3}">dup of an earlier id</div>`,
      ];
    case 4:
      return [
        `    <form g:command="SaveNote"><input name="t${i}" /></form>`,
        `    <form action="/n/{slug}" g:command="ui.Archive"><button>A</button></form>`,
        `    <div g:query="ListNotes"></div>`,
      ];
    case 5:
      return [
        `    <slot /> <slot name="side" /> <script>x()</script>`,
        `    <p g:bogus="1" g:swap="sideways">{param("slug")}</p>`,
      ];
    default:
      return [`    <article id="a${i}"><Missing heading="m" /><Card heading="{slug}" /></article>`];
  }
}

function bigPage(sections: number): string {
  const head = [
    'package site',
    '',
    'page big',
    'route "/big/{slug}"',
    'guard public',
    'use ui "shared/ui"',
    '',
    'act Save POST "/big/save"',
    'act Other POST "/big/other"',
    '',
    'server {',
    '}',
    '',
    'view {',
    '  <main>',
  ];
  const body: string[] = [];
  for (let i = 0; i < sections; i++) body.push(...section(i));
  return [
    ...head,
    ...body,
    '  </main>',
    '}',
    '',
    'fragment Rows GET "/big/{slug}/rows" "#s0" {',
    ...body.slice(0, 500).map((l) => l.replace(/id="/g, 'id="f')),
    '}',
    '',
  ].join('\n');
}

/** What other code reads from the summary's view walk, without the element objects. */
function viewFacts(s: FileSummary): unknown {
  return {
    calls: s.componentCalls.map((c) => ({
      name: c.name,
      alias: c.alias,
      localName: c.localName,
      range: c.range,
      same: c.element.nameRange === c.range,
    })),
    refs: s.contractRefs.map((r) => ({
      kind: r.kind,
      name: r.name,
      range: r.range,
      actionPath: r.actionPath,
      on: r.element.name,
    })),
    slots: s.defaultSlotCount,
  };
}

/** The length of the view's body and of the fragment's, in characters. */
function blockLengths(page: string): { view: number; fragment: number } {
  const length = (kind: string) => {
    const d = parseKit(page, 'site/big.kit').declarations.find((x) => x.kind === kind)!;
    assert.ok(d.kind === 'view' || d.kind === 'fragment');
    return d.bodyRange.end.offset - d.bodyRange.start.offset;
  };
  return { view: length('view'), fragment: length('fragment') };
}

function load(page: string, ssr: boolean): Workspace {
  const ws = new Workspace({ ssr });
  ws.setKitFile('site/Card.cmp.kit', CARD);
  ws.setKitFile('site/big.kit', page);
  ws.flush();
  return ws;
}

/**
 * The incremental workspace against a fresh one on the same text: the file's own diagnostics, its
 * view facts and every diagnostic of the workspace.
 */
function assertLikeFresh(ws: Workspace, text: string, ssr: boolean, label: string): void {
  const fresh = load(text, ssr);
  const mine = ws.kit('site/big.kit')!;
  const theirs = fresh.kit('site/big.kit')!;
  assert.deepEqual(mine.ast, parseKit(text, 'site/big.kit'), `${label}: incremental AST differs`);
  // Compared as JSON (order, ranges and related locations included), reporting only the first difference.
  const a = mine.local.map((d) => JSON.stringify(d));
  const b = theirs.local.map((d) => JSON.stringify(d));
  const i = a.findIndex((x, k) => x !== b[k]);
  assert.ok(
    i < 0 && a.length === b.length,
    `${label}: local diagnostic ${i} differs (of ${a.length} / ${b.length}):\n${a[i]}\n${b[i]}`,
  );
  assert.deepEqual(viewFacts(mine.summary), viewFacts(theirs.summary), `${label}: view facts differ`);
  const c = ws.allDiagnostics().map((d) => JSON.stringify(d));
  const e = fresh.allDiagnostics().map((d) => JSON.stringify(d));
  const j = c.findIndex((x, k) => x !== e[k]);
  assert.ok(
    j < 0 && c.length === e.length,
    `${label}: workspace diagnostic ${j} differs (of ${c.length} / ${e.length}):\n${c[j]}\n${e[j]}`,
  );
}

function edit(ws: Workspace, text: string): void {
  const prev = ws.kit('site/big.kit')!;
  ws.setKitFile('site/big.kit', text, reparseKit(prev.ast, prev.text, text));
  ws.flush();
}

describe('edits inside a long view (memoised view walks)', () => {
  const page = bigPage(700);

  it('the page is long enough for the view walks to be remembered', () => {
    const lengths = blockLengths(page);
    assert.ok(lengths.view > 4 * MEMO_MIN_BODY_CHARS, `view body ${lengths.view} characters`);
    assert.ok(lengths.fragment > MEMO_MIN_BODY_CHARS, `fragment body ${lengths.fragment} characters`);
    const codes = new Set(
      load(page, true)
        .kit('site/big.kit')!
        .local.map((d) => d.code),
    );
    for (const c of [
      'duplicate_id',
      'unknown_target_id',
      'unknown_action',
      'unsafe_url',
      'inline_event_handler_not_allowed',
      'unknown_route_param',
      'unknown_use_alias',
      'directive_lane_required',
      'script_element_not_allowed',
      'unsupported_markup_directive',
      'invalid_swap',
      'contract_route_invalid',
    ]) {
      assert.ok(codes.has(c), `the fixture produces ${c}`);
    }
  });

  it('an edit inside one element keeps the other elements and their results', () => {
    const ws = load(page, true);
    const before = ws.kit('site/big.kit')!;
    const at = page.indexOf('Section 203 of') + 'Section 2'.length;
    const viewEnd = page.indexOf('\nfragment');
    const lastCall = before.summary.componentCalls.filter((c) => c.range.start.offset < viewEnd).at(-1)!;
    const lastDiag = before.local
      .filter((d) => d.code === 'inline_event_handler_not_allowed' && d.range.start.offset < viewEnd)
      .at(-1)!;
    const offset = lastDiag.range.start.offset;
    const mainBefore = before.summary.view!.body.find((n): n is Element => n.type === 'element')!;
    const siblingBefore = mainBefore.children.at(-2);
    const text = page.slice(0, at) + 'x' + page.slice(at);
    edit(ws, text);
    const after = ws.kit('site/big.kit')!;
    assert.ok(after.summary.componentCalls.includes(lastCall), 'the summary entry of an untouched element is reused');
    assert.ok(after.local.includes(lastDiag), 'the diagnostic of an untouched element is reused');
    assert.equal(lastDiag.range.start.offset, offset + 1, 'and its range moved with the element');
    assertLikeFresh(ws, text, true, 'one edit');
    // The ancestors of the edited element are new objects; its siblings are the same objects.
    const mainAfter = after.summary.view!.body.find((n): n is Element => n.type === 'element')!;
    assert.notEqual(mainAfter, mainBefore);
    assert.equal(mainAfter.children.at(-2), siblingBefore);
  });

  it('a change outside the view that the view rules read is seen by every element', () => {
    const ws = load(page, true);
    const steps = [
      (t: string) => t.replace('act Save POST "/big/save"', 'act Store POST "/big/save"'),
      (t: string) => t.replace('use ui "shared/ui"', 'use zz "shared/zz"'),
      (t: string) => t.replace('route "/big/{slug}"', 'route "/big"'),
      (t: string) => t.replace('server {\n}\n', ''),
      (t: string) => t.replace('page big', 'page huge'),
    ];
    let text = page;
    for (const [i, step] of steps.entries()) {
      text = step(text);
      edit(ws, text);
      assertLikeFresh(ws, text, true, `step ${i}`);
    }
  });

  it('random edits inside long markup blocks end where a fresh load ends (property)', () => {
    // A page of 160 sections: both blocks are still remembered (each body over 1.25 times the
    // threshold, the view's <main> over 640 children, so more than ten runs of them), for an eighth
    // of the cost per load and comparison of the 700 above, which made this test time out under load.
    const page = bigPage(160);
    const lengths = blockLengths(page);
    assert.ok(lengths.view > 1.25 * MEMO_MIN_BODY_CHARS, `view body ${lengths.view} characters`);
    assert.ok(lengths.fragment > 1.25 * MEMO_MIN_BODY_CHARS, `fragment body ${lengths.fragment} characters`);
    const view = parseKit(page, 'site/big.kit').declarations.find((d) => d.kind === 'view')!;
    const main = view.kind === 'view' ? view.body.find((n): n is Element => n.type === 'element') : undefined;
    assert.ok(main && main.children.length > 640, `<main> has ${main?.children.length} children`);
    const snippets = [
      'x',
      ' ',
      '\n',
      'id="s7" ',
      ' id="n1"',
      '<b id="s14">b</b>',
      '<p g:target="#n1">t</p>',
      '{param("slug")}',
      '{param("q")}',
      '<Card heading="h" />',
      '<ui.Button />',
      '<slot />',
      '<a href="javascript:x">j</a>',
      '<form g:command="Do"></form>',
      '</p>',
      '<p>',
      '"',
      '{',
      'g:post={Save} ',
    ];
    // Edits land in the view or in the fragment after it (both long enough to be remembered).
    const viewStart = page.indexOf('view {');
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(page.length - viewStart - 16), fc.nat(6), fc.nat(snippets.length - 1)), {
          minLength: 1,
          maxLength: 12,
        }),
        (ssr, edits) => {
          const ws = load(page, ssr);
          let doc = TextDocument.create('file:///site/big.kit', 'kit', 1, page);
          for (const [n, [at, del, si]] of edits.entries()) {
            const text = doc.getText();
            // From the start of the view as it is now (it grows and shrinks with the edits).
            const from = Math.min(text.indexOf('view {') + 8 + at, text.length);
            const start = doc.positionAt(from);
            const end = doc.positionAt(Math.min(text.length, from + del));
            doc = TextDocument.update(doc, [{ range: { start, end }, text: snippets[si] }], doc.version + 1);
            edit(ws, doc.getText());
            if (n === edits.length - 1 || n % 4 === 3) assertLikeFresh(ws, doc.getText(), ssr, `after edit ${n}`);
          }
          return true;
        },
      ),
      { numRuns: 12, seed: 7 },
    );
  });
});
