// The generated route table as a projection of the checked fixture workspace.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { loadProject } from '#core/project/load.js';
import { compileSite, writeStaticSite } from '#core/build/index.js';
import { endpointRows } from '#core/report/rows.js';
import { buildRouteTable, AppBuildError } from '#core/app/index.js';
import type { RouteTable } from '#core/app/index.js';
import { repoRoot } from '#test/helpers/repo.js';
import { tempDir } from './built-app.js';

describe('app route table', function () {
  this.timeout(60000);
  let table: RouteTable;
  before(() => {
    const project = loadProject(['test/fixtures/app/site'], { ssr: true }, repoRoot);
    const site = compileSite(project.workspace, { cwd: repoRoot });
    const out = join(tempDir('kit-route-table-'), 'dist');
    writeStaticSite(site, out, { endpoints: endpointRows(project.workspace) });
    table = buildRouteTable(project.workspace, site, { cwd: repoRoot, outDir: out, appName: 'fixture', trace: true });
  });

  it('names modules relative to the sources and finds the config module', () => {
    assert.deepEqual([...table.modules.values()].sort(), [
      'blog/handlers.ts',
      'docs/handlers.ts',
      'handlers.ts',
      'kit.config.ts',
    ]);
    assert.equal(table.configModule, 'test/fixtures/app/site/kit.config.ts');
    assert.equal(table.manifest.trace, true);
    assert.equal(table.manifest.app, 'fixture');
  });

  it('pages carry guards, cache, files and templates', () => {
    const home = table.manifest.pages.find((p) => p.pageId === 'home')!;
    assert.deepEqual(home.guards, ['public']);
    assert.equal(home.cache, 'public, max-age=60, stale-while-revalidate=30');
    assert.deepEqual(home.files, { '/': 'index.html' });
    assert.equal(home.template, undefined, 'SPA pages are served from files');
    const post = table.manifest.pages.find((p) => p.pageId === 'blog.post')!;
    assert.deepEqual(post.files, { '/blog/hello': 'blog/hello/index.html', '/blog/café': 'blog/café/index.html' });
    const docs = table.manifest.pages.find((p) => p.pageId === 'docs')!;
    assert.equal(docs.render, 'ssr');
    assert.equal(docs.template, 'page:docs');
    assert.ok(table.manifest.templates['page:docs']);
    assert.deepEqual(docs.load, {
      status: 'bound',
      export: 'LoadDocs',
      module: 'docs/handlers.ts',
      signature: 'load',
      source: { file: 'docs/handlers.ts', line: 21, column: 23 },
    });
    assert.deepEqual(docs.guardSource, { file: 'docs/docs.kit', line: 5, column: 1 });
    const draft = table.manifest.pages.find((p) => p.pageId === 'draft')!;
    assert.deepEqual(draft.guards, []);
    const members = table.manifest.pages.find((p) => p.pageId === 'members')!;
    assert.equal(members.render, 'hybrid');
    // A guarded page is never written ahead of time: its HTML would be public on a static host.
    assert.deepEqual(members.guards, ['auth.required']);
    assert.deepEqual(members.files, {});
    assert.equal(members.template, 'page:members', 'rendered per request instead');
  });

  it('endpoints carry bindings with input fields, CSRF, CORS and partial targets', () => {
    const send = table.manifest.endpoints.find((e) => e.symbol === 'Send')!;
    assert.equal(send.kind, 'action');
    assert.equal(send.csrf, true);
    assert.deepEqual(send.partialTargets, ['#result']);
    assert.equal(send.handler.signature, 'action_input');
    assert.deepEqual(
      send.handler.inputFields?.map((f) => `${f.name}:${f.type}${f.optional ? '?' : ''}`),
      ['name:string', 'email:string', 'age:number?', 'newsletter:boolean?', 'tags:string[]?'],
    );
    const echo = table.manifest.endpoints.find((e) => e.symbol === 'Echo')!;
    assert.deepEqual(echo.cors, {
      origins: ['https://app.example'],
      methods: ['POST'],
      headers: ['x-custom'],
      maxAge: 600,
    });
    const missing = table.manifest.endpoints.find((e) => e.symbol === 'Missing')!;
    assert.equal(missing.handler.status, 'missing');
    assert.equal(missing.handler.module, undefined);
    const hook = table.manifest.endpoints.find((e) => e.symbol === 'Hook')!;
    assert.equal(hook.endpointSource, 'comment');
    assert.deepEqual(hook.guards, []);
    const vitals = table.manifest.endpoints.find((e) => e.symbol === 'Vitals')!;
    assert.deepEqual(vitals.fragment, { target: '#vitals', swap: 'innerHTML', template: 'fragment:patient.Vitals' });
    assert.deepEqual(vitals.guards, ['patient.visible']);
    const query = table.manifest.endpoints.find((e) => e.kind === 'query')!;
    assert.equal(query.method, 'GET');
    assert.equal(query.csrf, false);
  });

  it('serves the build output but never its metadata', () => {
    assert.ok(table.manifest.static['assets/kit/kit.js']);
    assert.equal(table.manifest.static['kit-routes.json'], undefined);
    assert.equal(table.manifest.static['kit-assets.json'], undefined);
    const css = Object.entries(table.manifest.static).find(([k]) => k.endsWith('.css'))!;
    assert.equal(css[1].cache, 'public, max-age=31536000, immutable');
    assert.equal(css[1].type, 'text/css; charset=utf-8');
    assert.ok(!JSON.stringify(table.manifest).includes(repoRoot), 'no machine path in the table');
  });

  it('refuses two config modules', () => {
    const project = loadProject(['test/fixtures/app/site'], { ssr: true }, repoRoot);
    project.workspace.setModule('test/fixtures/app/site/docs/kit.config.ts', 'export const guards = {};');
    const site = compileSite(project.workspace, { cwd: repoRoot });
    assert.throws(
      () =>
        buildRouteTable(project.workspace, site, { cwd: repoRoot, outDir: '/nonexistent', appName: 'x', trace: false }),
      (e: Error) => e instanceof AppBuildError && /several app config modules/.test(e.message),
    );
  });
});
