// Selection ranges and signature help for component props over stdio, against `kit lsp --stdio` on
// the editor-features fixture.
import { strict as assert } from 'node:assert';
import type { Position, SelectionRange, SignatureHelp } from 'vscode-languageserver-protocol';
import { FULL_CAPABILITIES } from '../helpers/lsp-client.js';
import { StdioSession } from '../helpers/stdio-session.js';

describe('lsp selection ranges (stdio)', function () {
  this.timeout(60000);
  let s: StdioSession;
  before(async () => {
    s = await StdioSession.start(['lsp', 'features'], { settings: { ssr: true } });
    for (const f of ['shop/cart.kit', 'shop/list.kit']) await s.open(f);
  });
  after(() => s.stop());

  /** Each position's chain, innermost first, as the texts it selects (long ones cut to their first line). */
  async function chains(file: string, positions: Position[]): Promise<string[][]> {
    const answer = await s.request<SelectionRange[]>('textDocument/selectionRange', {
      textDocument: { uri: s.uri(file) },
      positions,
    });
    assert.equal(answer.length, positions.length);
    return answer.map((r) => {
      const out: string[] = [];
      for (let x: SelectionRange | undefined = r; x; x = x.parent) {
        // Every range lies inside its parent, and differs from it.
        if (x.parent) {
          const [a, p] = [x.range, x.parent.range];
          const inside =
            (a.start.line > p.start.line ||
              (a.start.line === p.start.line && a.start.character >= p.start.character)) &&
            (a.end.line < p.end.line || (a.end.line === p.end.line && a.end.character <= p.end.character));
          assert.ok(inside, `${JSON.stringify(a)} not inside ${JSON.stringify(p)}`);
          assert.notDeepEqual(a, p);
        }
        const text = s.textOf(file, x.range);
        out.push(text.includes('\n') ? `${text.split('\n')[0]}…` : text);
      }
      return out;
    });
  }

  it('expands from a name in markup through the interpolation and the elements to the file', async () => {
    const [chain] = await chains('shop/cart.kit', [s.at('shop/cart.kit', 'item.title', 6)]);
    assert.deepEqual(chain, [
      'item.title',
      '{item.title}',
      '<li g:for={item, i in items} g:lane="server">…',
      '<ul id="rows">…',
      '<main class="cart">…',
      '  <main class="cart">…',
      'view {…',
      'package shop…',
    ]);
  });

  it('expands from an attribute value through the attribute and the opening tag', async () => {
    const [chain] = await chains('shop/cart.kit', [s.at('shop/cart.kit', '#rows"></form>', 2)]);
    assert.deepEqual(chain.slice(0, 6), [
      '#rows',
      '"#rows"',
      'g:target="#rows"',
      '<form g:post={Checkout} g:target="#rows">',
      '<form g:post={Checkout} g:target="#rows"></form>',
      '<main class="cart">…',
    ]);
  });

  it('outside markup: a route param, its segment, the pattern, the declaration; a paths {} field', async () => {
    const [route, field, guard] = await chains('shop/list.kit', [
      s.at('shop/list.kit', 'slug}"', 1),
      s.at('shop/list.kit', 'hats', 1),
      s.at('shop/list.kit', 'public', 2),
    ]);
    assert.deepEqual(route, [
      'slug',
      '{slug}',
      '/list/{slug}',
      '"/list/{slug}"',
      'route "/list/{slug}"',
      'package shop…',
    ]);
    assert.deepEqual(field, ['hats', '"hats"', 'slug: "hats"', '=> { slug: "hats" }', 'paths {…', 'package shop…']);
    assert.deepEqual(guard, ['public', 'guard public', 'package shop…']);
  });

  it('selects a word of text, then the text, then its element', async () => {
    const [chain] = await chains('shop/list.kit', [s.at('shop/list.kit', 'Deep', 2)]);
    assert.deepEqual(chain.slice(0, 4), [
      'Deep',
      '<span>Deep</span>',
      '<div><span>Deep</span></div>',
      '<div><div><span>Deep</span></div></div>',
    ]);
  });
});

describe('lsp signature help for component props (stdio)', function () {
  this.timeout(60000);
  let s: StdioSession;
  const file = 'shop/list.kit';
  before(async () => {
    s = await StdioSession.start(['lsp', 'features'], {
      settings: { ssr: true },
      capabilities: {
        ...FULL_CAPABILITIES,
        textDocument: {
          ...FULL_CAPABILITIES.textDocument,
          signatureHelp: { signatureInformation: { noActiveParameterSupport: true, activeParameterSupport: true } },
        },
      },
    });
    await s.open(file);
    await s.open('shop/cart.kit');
  });
  after(() => s.stop());

  const help = (f: string, at: Position) =>
    s.request<SignatureHelp | null>('textDocument/signatureHelp', { textDocument: { uri: s.uri(f) }, position: at });

  /** The active prop's label text, or null when none is active. */
  function active(h: SignatureHelp | null): string | null | undefined {
    assert.ok(h);
    const sig = h.signatures[h.activeSignature ?? 0];
    const i = sig.activeParameter;
    if (i === null || i === undefined) return i;
    const label = sig.parameters![i].label as [number, number];
    return sig.label.slice(label[0], label[1]);
  }

  it('shows the props with types and defaults, the one under the cursor active', async () => {
    const h = await help('shop/cart.kit', s.at('shop/cart.kit', 'currency="EUR"', 11));
    assert.ok(h);
    const sig = h.signatures[0];
    assert.equal(sig.label, '<Price amount: string, currency?: string = "USD", compact?: bool = false>');
    assert.deepEqual(
      sig.parameters!.map((p) => sig.label.slice(...(p.label as [number, number]))),
      ['amount: string', 'currency?: string = "USD"', 'compact?: bool = false'],
    );
    assert.deepEqual(
      sig.parameters!.map((p) => p.documentation),
      ['required', 'optional, default "USD"', 'optional, default false'],
    );
    assert.match((sig.documentation as { value: string }).value, /Price.*shop\/price\.cmp\.kit.*required: `amount`/);
    assert.equal(active(h), 'currency?: string = "USD"');
    assert.equal(active(await help('shop/cart.kit', s.at('shop/cart.kit', 'amount="3"', 2))), 'amount: string');
  });

  it('while a call is typed: the first required prop, then the prop a name begins, then none', async () => {
    const base = s.text(file);
    let version = 1;
    const typed = async (tag: string) => {
      await s.replace(file, base.replace('  </section>', `    ${tag}\n  </section>`), ++version);
      return help(file, s.at(file, tag, tag.length, '</ui.Badge>'));
    };
    assert.equal(active(await typed('<ui.Badge ')), 'text: string');
    assert.equal(active(await typed('<ui.Badge text="x" to')), 'tone?: string = "info"');
    assert.equal(active(await typed('<ui.Badge text="x" ')), 'tone?: string = "info"');
    assert.equal(active(await typed('<ui.Badge text="x" tone="y" ')), null);
    assert.equal(active(await typed('<ui.Badge text="x" nope="y"')), null);
    const h = await typed('<ui.Badge ');
    assert.equal(h?.signatures[0].label, '<ui.Badge text: string, tone?: string = "info">');
  });

  it('answers nothing outside a component call’s attributes', async () => {
    await s.replace(file, s.text(file), 99);
    for (const at of [
      s.at(file, 'ui.Badge text="new"', 3),
      s.at(file, 'Deep', 1),
      s.at(file, '<section', 3),
      s.at(file, 'route', 2),
    ])
      assert.equal(await help(file, at), null, JSON.stringify(at));
    assert.equal(await help('shop/cart.kit', s.at('shop/cart.kit', 'g:post={Checkout}>', 3)), null);
  });
});
