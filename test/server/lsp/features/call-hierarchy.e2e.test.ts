// Call hierarchy over stdio, against `kit lsp --stdio` on the editor-features fixture: a page's
// outgoing calls (guards, endpoints, load), an endpoint's (guards, handler), a handler's and a
// guard's incoming calls, and an edit that changes the answer.
import { strict as assert } from 'node:assert';
import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  Position,
} from 'vscode-languageserver-protocol';
import { StdioSession } from '../helpers/stdio-session.js';

describe('lsp call hierarchy (stdio)', function () {
  this.timeout(60000);
  let s: StdioSession;
  before(async () => {
    s = await StdioSession.start(['lsp', 'features'], { settings: { ssr: true } });
    await s.open('shop/cart.kit');
    await s.open('shop/handlers.ts');
  });
  after(() => s.stop());

  async function prepare(file: string, at: Position): Promise<CallHierarchyItem> {
    const items = await s.request<CallHierarchyItem[] | null>('textDocument/prepareCallHierarchy', {
      textDocument: { uri: s.uri(file) },
      position: at,
    });
    assert.equal(items?.length, 1, JSON.stringify(items));
    return items![0];
  }

  /** `name (file, where its name is) <- texts of the ranges it is called from`. */
  function describeCall(
    item: CallHierarchyItem,
    from: string,
    ranges: CallHierarchyOutgoingCall['fromRanges'],
  ): string {
    const file = s.file(item.uri);
    const named = s.textOf(file, item.selectionRange);
    return `${item.name} (${s.place(file, item.selectionRange)} ${named}) <- ${ranges.map((r) => s.textOf(from, r)).join(', ')}`;
  }

  const outgoing = async (item: CallHierarchyItem) =>
    (await s.request<CallHierarchyOutgoingCall[]>('callHierarchy/outgoingCalls', { item })).map((c) =>
      describeCall(c.to, s.file(item.uri), c.fromRanges),
    );
  const incoming = async (item: CallHierarchyItem) =>
    (await s.request<CallHierarchyIncomingCall[]>('callHierarchy/incomingCalls', { item })).map((c) =>
      describeCall(c.from, s.file(c.from.uri), c.fromRanges),
    );

  it('a page calls its guards, its endpoints and its load function', async () => {
    const page = await prepare('shop/cart.kit', s.at('shop/cart.kit', 'page cart', 6));
    assert.equal(page.name, 'cart');
    assert.equal(page.detail, 'page /cart/{id:int}');
    // Anywhere in the page that is not an endpoint or a guard is the page too.
    assert.equal((await prepare('shop/cart.kit', s.at('shop/cart.kit', 'Cart {', 1))).name, 'cart');
    assert.deepEqual(await outgoing(page), [
      "auth.required (kit.config.ts:5:3 'auth.required') <- auth.required",
      'role:editor (shop/cart.kit:5:22 role:editor) <- role:editor',
      'Checkout (shop/cart.kit:11:5 Checkout) <- Checkout, Checkout, Checkout',
      'Total (shop/cart.kit:12:5 Total) <- Total',
      'Row (shop/cart.kit:14:10 Row) <- Row',
      'LoadCart (shop/handlers.ts:16:23 LoadCart) <- server',
    ]);
    assert.deepEqual(await incoming(page), []);
  });

  it('an endpoint calls its page’s guards and its handler, and is called by its page', async () => {
    for (const at of [s.at('shop/cart.kit', 'act Checkout', 1), s.at('shop/cart.kit', 'Checkout} g:target', 2)]) {
      const act = await prepare('shop/cart.kit', at);
      assert.equal(act.name, 'Checkout');
      assert.equal(act.detail, 'act POST /cart/{id:int}/checkout');
      assert.deepEqual(await outgoing(act), [
        "auth.required (kit.config.ts:5:3 'auth.required') <- auth.required",
        'role:editor (shop/cart.kit:5:22 role:editor) <- role:editor',
        'Checkout (shop/handlers.ts:6:23 Checkout) <- Checkout',
      ]);
      assert.deepEqual(await incoming(act), ['cart (shop/cart.kit:3:6 cart) <- Checkout, Checkout, Checkout']);
    }
  });

  it('a handler is called by the endpoints and pages bound to it', async () => {
    const checkout = await prepare('shop/handlers.ts', s.at('shop/handlers.ts', 'function Checkout', 12));
    assert.equal(checkout.name, 'Checkout');
    assert.deepEqual(await incoming(checkout), ['Checkout (shop/cart.kit:11:5 Checkout) <- Checkout']);
    assert.deepEqual(await outgoing(checkout), []);
    const load = await prepare('shop/handlers.ts', s.at('shop/handlers.ts', 'LoadCart', 2));
    assert.deepEqual(await incoming(load), ['cart (shop/cart.kit:3:6 cart) <- server']);
    const health = await prepare('shop/handlers.ts', s.at('shop/handlers.ts', 'function Health', 10));
    assert.deepEqual(await incoming(health), ['Health (shop/handlers.ts:23:23 Health) <- //kit:api GET /api/health']);
  });

  it('a guard is called by the pages and the //kit: endpoints that declare it', async () => {
    const guard = await prepare('shop/cart.kit', s.at('shop/cart.kit', 'auth.required', 3));
    assert.equal(guard.name, 'auth.required');
    assert.equal(s.file(guard.uri), 'kit.config.ts');
    assert.deepEqual(await incoming(guard), [
      'cart (shop/cart.kit:3:6 cart) <- auth.required',
      'Health (shop/handlers.ts:23:23 Health) <- //kit:api GET /api/health',
    ]);
    // The endpoint of a comment: its guard and its function.
    const endpoint = await prepare('shop/handlers.ts', s.at('shop/handlers.ts', '//kit:api', 3));
    assert.equal(endpoint.detail, '//kit:api GET /api/health');
    assert.deepEqual(await outgoing(endpoint), [
      "auth.required (kit.config.ts:5:3 'auth.required') <- //kit:api GET /api/health",
      'Health (shop/handlers.ts:23:23 Health) <- Health',
    ]);
  });

  it('an item that is not one of kit’s has no calls', async () => {
    const page = await prepare('shop/cart.kit', s.at('shop/cart.kit', 'page cart', 6));
    for (const data of [undefined, null, 7, { k: 'page' }, { k: 'nope', file: 'x' }])
      assert.equal(await s.request('callHierarchy/incomingCalls', { item: { ...page, data } }), null);
  });

  it('follows edits: a new API and a guard dropped change the page’s calls', async () => {
    const file = 'shop/cart.kit';
    const text = s
      .text(file)
      .replace('guard auth.required, role:editor', 'guard auth.required')
      .replace('api Total', 'api Ping GET "/api/ping"\napi Total');
    await s.replace(file, text, 2);
    const page = await prepare(file, s.at(file, 'page cart', 6));
    assert.deepEqual(await outgoing(page), [
      "auth.required (kit.config.ts:5:3 'auth.required') <- auth.required",
      'Checkout (shop/cart.kit:11:5 Checkout) <- Checkout, Checkout, Checkout',
      'Ping (shop/cart.kit:12:5 Ping) <- Ping',
      'Total (shop/cart.kit:13:5 Total) <- Total',
      'Row (shop/cart.kit:15:10 Row) <- Row',
      'LoadCart (shop/handlers.ts:16:23 LoadCart) <- server',
    ]);
  });
});
