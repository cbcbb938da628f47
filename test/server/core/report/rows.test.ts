// Row projections: the values the reports promise (declared route spelling, effective cache,
// inherited guards, CSRF, comment endpoint guards, handler labels) and the identity of the
// endpoint fields shared by `kit routes` rows and `kit endpoints` records.
import assert from 'node:assert/strict';
import { loadProject } from '#core/project/load.js';
import {
  endpointRecords,
  endpointRows,
  isPageRow,
  routeInfo,
  routeRows,
  type EndpointRow,
  type PageRow,
} from '#core/report/rows.js';
import { endpointHandlerLabel, pageHandlerLabel } from '#core/report/handler-labels.js';
import { formatTable } from '#core/report/table.js';
import { fixture, repoRoot } from '#test/helpers/repo.js';

function load(cwd: string, input = '.') {
  return loadProject([input], { ssr: true }, cwd).workspace;
}

const WORKSPACES = [
  ['example site', load(repoRoot, 'examples/site')],
  ['dynamic-spa', load(fixture('reports', 'dynamic-spa'))],
  ['ssr-rest', load(fixture('reports', 'ssr-rest'))],
  ['comment-endpoints', load(fixture('reports', 'comment-endpoints'))],
  ['contracts', load(fixture('reports', 'contracts'))],
  ['bindings', load(fixture('bind', 'signatures'))],
] as const;

function page(rows: ReturnType<typeof routeRows>, pageId: string): PageRow {
  const r = rows.find((x) => isPageRow(x) && x.pageId === pageId);
  assert.ok(r, `page row ${pageId}`);
  return r as PageRow;
}

function endpoint(rows: ReturnType<typeof routeRows>, symbol: string): EndpointRow {
  const r = rows.find((x) => !isPageRow(x) && x.symbol === symbol);
  assert.ok(r, `endpoint row ${symbol}`);
  return r as EndpointRow;
}

describe('report rows', () => {
  for (const [name, ws] of WORKSPACES) {
    it(`${name}: kit endpoints records carry the endpoint row fields of kit routes with identical values`, () => {
      const rows = routeRows(ws).filter((r) => !isPageRow(r)) as EndpointRow[];
      const records = endpointRecords(ws);
      assert.ok(rows.length > 0);
      assert.equal(records.length, rows.length);
      rows.forEach((row, i) => {
        const rec = records[i] as unknown as Record<string, unknown>;
        for (const [k, v] of Object.entries(row)) assert.deepEqual(rec[k], v, `${row.symbol}.${k}`);
        // Extra record fields are binding and contract detail only.
        for (const k of Object.keys(rec))
          if (!(k in row)) assert.ok(['signature', 'inputType', 'backendBinding', 'contract'].includes(k), k);
      });
      assert.deepEqual(endpointRows(ws), rows);
    });

    it(`${name}: page rows come first, endpoint rows after`, () => {
      const rows = routeRows(ws);
      const firstEndpoint = rows.findIndex((r) => !isPageRow(r));
      assert.ok(rows.slice(firstEndpoint).every((r) => !isPageRow(r)));
    });
  }

  it('spells routes as declared, with the types in routeParams, for pages and endpoints', () => {
    const rows = routeRows(load(fixture('reports', 'dynamic-spa')));
    const item = page(rows, 'item');
    assert.equal(item.route, '/items/{id:int}');
    assert.deepEqual(item.routeParams, [{ name: 'id', type: 'int' }]);
    assert.deepEqual(item.dynamicParams, ['id']);
    assert.equal(item.kind, 'spa');
    assert.equal(item.cache, 'public, max-age=120');
    const buy = endpoint(rows, 'Buy');
    assert.equal(buy.route, '/items/{id:int}', 'an action without a path inherits the page route');
    assert.equal(buy.method, 'POST');
    assert.equal(buy.csrf, true);
    assert.equal(buy.cache, 'no-store');
    assert.deepEqual(buy.guards, ['public'], 'page-owned endpoints inherit the page guards');
    assert.equal(buy.handler, 'actions.ItemBuy');
    const stock = endpoint(rows, 'Stock');
    assert.equal(stock.route, '/api/items/{id:int}/stock');
    assert.equal(stock.csrf, undefined, 'GET APIs need no CSRF token');
    assert.equal(stock.bindingStatus, 'missing');
  });

  it('reports the effective cache policy, render kinds and planned handlers of pages', () => {
    const rows = routeRows(load(fixture('reports', 'ssr-rest')));
    const manual = page(rows, 'manual');
    assert.equal(manual.kind, 'ssr');
    assert.equal(manual.cache, 'public, max-age=60, stale-while-revalidate=300');
    assert.equal(manual.handler, 'ssr.RenderManual');
    assert.equal(manual.bindingStatus, 'bound');
    assert.deepEqual(manual.routeParams, [{ name: 'path', type: 'string' }]);
    const account = page(rows, 'account');
    assert.equal(account.kind, 'hybrid');
    assert.equal(account.handler, 'hybrid.RenderAccount');
    assert.deepEqual(account.guards, ['auth.required', 'role:member']);
    const toc = endpoint(rows, 'Toc');
    assert.equal(toc.kind, 'fragment');
    assert.equal(toc.route, '/manual-toc/{path...}');
    assert.equal(toc.csrf, undefined);
    const info = routeInfo(load(fixture('reports', 'ssr-rest')));
    assert.deepEqual(
      info.map((n) => [n.code, n.pageId]),
      [['spa_disabled', 'manual']],
      'hybrid rows get no info note',
    );
  });

  it('takes comment endpoint guards from //kit:guard, and none without it', () => {
    const rows = routeRows(load(fixture('reports', 'comment-endpoints')));
    const stats = endpoint(rows, 'Stats');
    assert.equal(stats.endpointSource, 'comment');
    assert.equal(stats.directive, 'api');
    assert.equal(stats.pageId, 'ops.Stats');
    assert.deepEqual(stats.guards, ['public']);
    assert.equal(stats.handler, 'api.OpsStats');
    assert.equal(stats.source, 'handlers.ts');
    const ping = endpoint(rows, 'Ping');
    assert.equal(ping.guards, undefined);
    assert.equal(ping.kind, 'action');
    assert.equal(ping.csrf, true);
    const purge = endpoint(rows, 'Purge');
    assert.deepEqual(purge.guards, ['auth.required', 'role:admin']);
    assert.equal(purge.csrf, true, 'DELETE changes state');
    assert.equal(purge.bindingStatus, 'bound', 'an API handler may leave out the request');
  });

  it('reports contracts with their binding and package', () => {
    const ws = load(fixture('reports', 'contracts'));
    const recs = endpointRecords(ws);
    const save = recs.find((r) => r.symbol === 'SaveNote')!;
    assert.equal(save.directive, 'g:command');
    assert.equal(save.csrf, true);
    assert.equal(save.contract?.status, 'bound');
    assert.equal(save.contract?.type, 'NoteInput');
    const count = recs.find((r) => r.symbol === 'lib.Count')!;
    assert.equal(count.packageName, 'lib');
    assert.equal(count.packagePath, 'lib');
    assert.equal(count.backendBinding?.importPath, './lib/handlers.js');
    assert.equal(count.contract?.importAlias, 'lib');
    assert.equal(count.handler, 'contracts.query.lib.Count');
    assert.equal(recs.find((r) => r.symbol === 'Archive')?.contract?.status, 'missing');
  });

  it('names planned handlers as the original does', () => {
    assert.equal(pageHandlerLabel('blog.post', 'spa'), 'embedded.SPA("pages/blog/post.html")');
    assert.equal(pageHandlerLabel('blog-post', 'ssr'), 'ssr.RenderBlogPost');
    assert.equal(pageHandlerLabel('my_page', 'hybrid'), 'hybrid.RenderMyPage');
    assert.equal(endpointHandlerLabel('action', 'blog.post', 'Save'), 'actions.BlogPostSave');
    assert.equal(endpointHandlerLabel('api', '404', 'Ping'), 'api.P404Ping');
    assert.equal(endpointHandlerLabel('fragment', 'inbox', 'Row'), 'fragments.InboxRow');
    assert.equal(endpointHandlerLabel('command', 'notes', 'Save', 'notes'), 'contracts.command.notes.Save');
  });

  it('formats an aligned table sorted by path', () => {
    const rows = routeRows(load(repoRoot, 'examples/site'));
    const lines = formatTable(rows).trimEnd().split('\n');
    assert.match(lines[0], /^METHOD\s+PATH\s+KIND\s+PAGE\s+GUARDS\s+RENDER\s+CACHE\s+BINDING$/);
    assert.equal(lines.length, rows.length + 1);
    const pathCol = lines[0].indexOf('PATH');
    const kindCol = lines[0].indexOf('KIND');
    const paths = lines.slice(1).map((l) => l.slice(pathCol, kindCol).trim());
    assert.deepEqual(paths, [...paths].sort());
    for (const l of lines.slice(1)) assert.equal(l[kindCol - 1], ' ', 'columns are aligned');
    assert.ok(lines.every((l) => l === l.trimEnd()));
  });
});
