// The URL-aware features over the real protocol: `kit lsp --stdio` from the compiled output on a
// copy of the `lsp/urls` fixture (pages with static, dynamic, `paths {}`, rest and typed routes, a
// catch-all, path-less actions, an API, a comment endpoint, a declared asset), driven by a JSON-RPC
// client that declares change annotations and inlay hint refreshes as VS Code does.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  DocumentLink,
  InitializeResult,
  InlayHint,
  Location,
  SymbolInformation,
  TextDocumentEdit,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { fixture } from '#test/helpers/repo.js';
import { waitFor } from '#test/helpers/wait.js';
import { fileUri, FULL_CAPABILITIES, LspClient } from '../helpers/lsp-client.js';
import { KIT_REQUESTS, type ResolveUrlAnswer } from '#shared/protocol/protocol.js';

const CAPABILITIES = {
  ...FULL_CAPABILITIES,
  workspace: {
    ...FULL_CAPABILITIES.workspace,
    workspaceEdit: { documentChanges: true, changeAnnotationSupport: { groupsOnLabel: true } },
    inlayHint: { refreshSupport: true },
    fileOperations: { willRename: true },
  },
};

describe('URL features over stdio', function () {
  this.timeout(30000);
  let dir: string;
  let client: LspClient;
  let init: InitializeResult;
  const refreshes: number[] = [];
  const messages: string[] = [];
  const uri = (p: string) => fileUri(join(dir, p));
  const text = (p: string) => readFileSync(join(dir, p), 'utf8');
  /** The text a location covers, read from the copy on disk. */
  const covered = (l: { uri: string; range: Location['range'] }) => {
    const lines = readFileSync(new URL(l.uri), 'utf8').split('\n');
    const { start, end } = l.range;
    return start.line === end.line ? lines[start.line].slice(start.character, end.character) : `${start.line}..`;
  };
  const rel = (u: string) => u.slice(fileUri(dir).length + 1);
  /** The position of the `n`-th character of `needle` in a file. */
  const at = (p: string, needle: string, n = 1) => {
    const t = text(p);
    const i = t.indexOf(needle);
    assert.ok(i >= 0, `${needle} not in ${p}`);
    const before = t.slice(0, i + n);
    const line = before.split('\n').length - 1;
    return { line, character: before.length - before.lastIndexOf('\n') - 1 };
  };
  const resolve = (url: string, method?: string) =>
    client.request<ResolveUrlAnswer>(KIT_REQUESTS.resolveUrl.method, method ? { url, method } : { url });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kit-lsp-urls-'));
    cpSync(fixture('lsp', 'urls'), dir, { recursive: true });
    client = LspClient.start();
    client.settings = { ssr: true };
    client.conn.onRequest('workspace/inlayHint/refresh', () => {
      refreshes.push(Date.now());
      return null;
    });
    client.conn.onNotification('window/showMessage', (m: { message: string }) => void messages.push(m.message));
    init = await client.initialize([dir], { capabilities: CAPABILITIES });
  });
  after(() => {
    if (client.child.exitCode === null) client.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('advertises document links, inlay hints and the file renames it follows', () => {
    const caps = init.capabilities;
    assert.deepEqual(caps.documentLinkProvider, { resolveProvider: false });
    assert.equal(caps.inlayHintProvider, true);
    const filters = caps.workspace?.fileOperations?.willRename?.filters ?? [];
    assert.deepEqual(
      filters.map((f) => [f.pattern.glob, f.pattern.matches]),
      [
        ['**/*.kit', 'file'],
        ['**/*', 'folder'],
      ],
    );
  });

  it('links each internal URL and declared asset to what answers it', async () => {
    const links = await client.request<DocumentLink[]>('textDocument/documentLink', {
      textDocument: { uri: uri('home.kit') },
    });
    const rows = links.map((l) => [covered({ uri: uri('home.kit'), range: l.range }), rel(l.target!), l.tooltip]);
    assert.deepEqual(rows, [
      ['./img/logo.png', 'img/logo.png', 'asset ./img/logo.png'],
      ['./img/logo.png', 'img/logo.png', 'asset ./img/logo.png'],
      ['/blog/hello-kit', 'blog/post.kit#L13,3', 'GET /blog/{slug} — page blog.post (slug=hello-kit)'],
      ['/blog/routing-rules#top', 'blog/post.kit#L14,3', 'GET /blog/{slug} — page blog.post (slug=routing-rules)'],
      ['/blog/drafts', 'blog/post.kit#L4,1', '404: page blog.post is built ahead of time at its paths {} only'],
      ['/docs/guides/routing', 'docs/docs.kit#L3,1', 'GET /docs/{path...} — page docs (path=guides/routing)'],
      ['/users/42', 'users/user.kit#L4,1', 'GET /users/{id:int} — page user (id=42)'],
      ['/api/feed', 'blog/post.kit#L18,1', 'GET /api/feed — api blog.post.Feed'],
      ['/newsletter', 'blog/index.kit#L7,1', 'POST /newsletter — action blog.index.Join'],
    ]);
    // A trailing slash is followed as the app redirects it; a static route wins over the catch-all.
    const layout = await client.request<DocumentLink[]>('textDocument/documentLink', {
      textDocument: { uri: uri('main.layout.kit') },
    });
    assert.deepEqual(
      layout.map((l) => [rel(l.target!), l.tooltip]),
      [
        ['home.kit#L4,1', 'GET / — page home'],
        ['blog/index.kit#L4,1', 'GET /blog — page blog.index'],
        ['about.kit#L4,1', 'GET /about — page about'],
      ],
    );
  });

  it('goes from a link to the paths {} record, the page, the endpoint or the asset', async () => {
    const def = async (p: string, needle: string) => {
      const ls = await client.request<Location[] | null>('textDocument/definition', {
        textDocument: { uri: uri(p) },
        position: at(p, needle, 8),
      });
      return (ls ?? []).map((l) => `${rel(l.uri)}:${l.range.start.line + 1} ${covered(l)}`);
    };
    assert.deepEqual(await def('home.kit', '/blog/hello-kit'), ['blog/post.kit:13 => { slug: "hello-kit" }']);
    assert.deepEqual(await def('home.kit', '/blog/drafts'), ['blog/post.kit:4 route "/blog/{slug}"']);
    assert.deepEqual(await def('home.kit', '/docs/guides'), ['docs/docs.kit:3 route "/docs/{path...}"']);
    assert.deepEqual(await def('home.kit', '/newsletter'), ['blog/index.kit:7 act Join POST "/newsletter"']);
    assert.deepEqual(await def('home.kit', 'src="./img'), ['img/logo.png:1 ']);
    assert.deepEqual(await def('about.kit', '/blog/hello-kit?ref'), ['blog/post.kit:13 => { slug: "hello-kit" }']);
  });

  it('lists every link that reaches a route, across files', async () => {
    const refs = async (p: string, needle: string, includeDeclaration = true) => {
      const ls = await client.request<Location[] | null>('textDocument/references', {
        textDocument: { uri: uri(p) },
        position: at(p, needle, 2),
        context: { includeDeclaration },
      });
      return (ls ?? []).map((l) => `${rel(l.uri)}:${l.range.start.line + 1} ${covered(l)}`).sort();
    };
    assert.deepEqual(await refs('blog/post.kit', '/blog/{slug}'), [
      'about.kit:9 /blog/hello-kit?ref=about',
      'blog/index.kit:11 /blog/hello-kit',
      'blog/index.kit:12 /blog/routing-rules/',
      'blog/post.kit:26 /blog/routing-rules',
      'blog/post.kit:4 "/blog/{slug}"',
      'home.kit:16 /blog/hello-kit',
      'home.kit:17 /blog/routing-rules#top',
      'home.kit:18 /blog/drafts',
    ]);
    assert.deepEqual(await refs('blog/post.kit', '/api/feed', false), ['home.kit:23 /api/feed']);
    // `/about` is answered by the static page, never by the catch-all `/{page}`.
    assert.deepEqual(await refs('catchall.kit', '/{page}', false), []);
    assert.deepEqual(await refs('about.kit', '"/about"', false), ['main.layout.kit:5 /about/']);
  });

  it('answers a workspace symbol query that is a request path with what serves it', async () => {
    const symbols = async (query: string) =>
      (await client.request<SymbolInformation[]>('workspace/symbol', { query })).map(
        (s) => `${s.name} | ${s.containerName} | ${rel(s.location.uri)}:${s.location.range.start.line + 1}`,
      );
    assert.deepEqual((await symbols('/blog/hello-kit')).slice(0, 2), [
      'GET /blog/hello-kit | page blog.post · /blog/{slug} · slug=hello-kit | blog/post.kit:13',
      'POST /blog/hello-kit | action blog.post.Subscribe · /blog/{slug} · slug=hello-kit | blog/post.kit:17',
    ]);
    assert.deepEqual((await symbols('/api/feed')).slice(0, 1), [
      'GET /api/feed | api blog.post.Feed · /api/feed | blog/post.kit:18',
    ]);
    assert.deepEqual((await symbols('/api/stats')).slice(0, 1), [
      'GET /api/stats | api blog.Stats · /api/stats | blog/handlers.ts:16',
    ]);
    assert.deepEqual((await symbols('/contact')).slice(0, 1), [
      'GET /contact | page catchall · /{page} · page=contact | catchall.kit:4',
    ]);
    assert.deepEqual((await symbols('/about/')).slice(0, 1), [
      'GET /about/ | page about · /about, after 308 to /about | about.kit:4',
    ]);
    // A pattern is no request path: only the search of routes by their beginning answers it.
    assert.deepEqual(await symbols('/blog/{'), [
      'GET /blog/{slug} | page blog.post | blog/post.kit:4',
      'POST /blog/{slug} | Subscribe (page blog.post) | blog/post.kit:17',
      'GET /blog/{slug}/comments | Comments (page blog.post) | blog/post.kit:19',
    ]);
    assert.ok((await symbols('/blog')).some((s) => s.startsWith('GET /blog/{slug} |')));
  });

  it('kit/resolveUrl answers as the app would, with params, redirects and the reasons for nothing', async () => {
    const r = await resolve('/users/42');
    assert.deepEqual(
      r.answers.map((a) => [a.method, a.status, a.owner, a.route, a.params]),
      [
        ['GET', 200, 'page user', '/users/{id:int}', { id: '42' }],
        ['POST', 200, 'action user.Save', '/users/{id:int}', { id: '42' }],
      ],
    );
    assert.equal(rel(r.answers[0].location!.uri), 'users/user.kit');
    const bad = (await resolve('/users/ada', 'GET')).answers[0];
    assert.deepEqual([bad.status, bad.note], [400, '"ada" does not decode as {id:int}']);
    const drafts = (await resolve('/blog/drafts')).answers[0];
    assert.deepEqual(
      [drafts.outcome, drafts.status, drafts.note, rel(drafts.location!.uri)],
      ['none', 404, 'page blog.post is built ahead of time at its paths {} only', 'blog/post.kit'],
    );
    const slash = (await resolve('/blog/hello-kit/?x=1', 'GET')).answers[0];
    assert.deepEqual([slash.status, slash.owner, slash.redirect], [200, 'page blog.post', '/blog/hello-kit?x=1']);
    assert.deepEqual(
      (await resolve('/newsletter', 'PUT')).answers.map((a) => [a.status, a.note]),
      [[405, '/newsletter accepts GET, POST']],
    );
    assert.deepEqual(
      (await resolve('/a b')).answers.map((a) => [a.status, a.note]),
      [[400, 'request target contains control characters or white space']],
    );
    assert.deepEqual(
      (await resolve('http://example.test/docs/a/b')).answers.map((a) => [a.owner, a.params]),
      [['page docs', { path: 'a/b' }]],
    );
    for (const [method, params, problem] of [
      ['kit/resolveUrl', { method: 'GET' }, 'params.url is missing'],
      ['kit/resolveUrl', { url: '/', method: 7 }, 'params.method must be a string'],
      ['kit/resolveUrl', null, 'params must be an object'],
      ['workspace/willRenameFiles', { files: [{ oldUri: uri('home.kit') }] }, 'params.files[0].newUri is missing'],
      ['workspace/willRenameFiles', {}, 'params.files is missing'],
    ] as const)
      await assert.rejects(client.request(method, params), (e: { code?: number; message?: string }) => {
        assert.equal(e.code, -32602);
        assert.equal(e.message, `Invalid params: ${method}: ${problem}`);
        return true;
      });
  });

  it('renames a route and the links that follow it, as one annotated edit; reports the others', async () => {
    const pos = at('blog/post.kit', '"/blog/{slug}"', 3);
    const prepared = await client.request<{ range: Location['range']; placeholder: string }>(
      'textDocument/prepareRename',
      { textDocument: { uri: uri('blog/post.kit') }, position: pos },
    );
    assert.equal(prepared.placeholder, 'blog');
    assert.equal(covered({ uri: uri('blog/post.kit'), range: prepared.range }), 'blog');
    const whole = await client.request<{ placeholder: string }>('textDocument/prepareRename', {
      textDocument: { uri: uri('blog/post.kit') },
      position: at('blog/post.kit', '{slug}"', 2),
    });
    assert.equal(whole.placeholder, '/blog/{slug}');
    const edit = await client.request<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: uri('blog/post.kit') },
      position: pos,
      newName: 'posts',
    });
    assert.equal(edit.changes, undefined);
    const byFile = new Map<string, string[]>();
    for (const change of edit.documentChanges as TextDocumentEdit[]) {
      for (const e of change.edits as (TextEdit & { annotationId?: string })[]) {
        const id = e.annotationId ?? '';
        const list = byFile.get(rel(change.textDocument.uri)) ?? [];
        list.push(`${covered({ uri: change.textDocument.uri, range: e.range })} → ${e.newText} [${id}]`);
        byFile.set(rel(change.textDocument.uri), list);
      }
    }
    assert.deepEqual(Object.fromEntries(byFile), {
      'blog/post.kit': [
        '/blog/{slug} → /posts/{slug} [kit.route]',
        '/blog/routing-rules → /posts/routing-rules [kit.links]',
      ],
      'about.kit': ['/blog/hello-kit?ref=about → /posts/hello-kit?ref=about [kit.links]'],
      'blog/index.kit': [
        '/blog/hello-kit → /posts/hello-kit [kit.links]',
        '/blog/routing-rules/ → /posts/routing-rules/ [kit.links]',
      ],
      'home.kit': [
        '/blog/hello-kit → /posts/hello-kit [kit.links]',
        '/blog/routing-rules#top → /posts/routing-rules#top [kit.links]',
        '/blog/drafts → /posts/drafts [kit.links]',
      ],
    });
    assert.deepEqual(edit.changeAnnotations?.['kit.links'], {
      label: 'Links to "/blog/{slug}"',
      needsConfirmation: true,
      description: '7 links in 4 files follow the route',
    });
    // To `/{slug}`: `/blog/x` would become `/x`, which the static `/about` or the catch-all compete for.
    messages.length = 0;
    const risky = await client.request<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: uri('blog/post.kit') },
      position: pos,
      newName: '/{slug}',
    });
    const linkEdits = (risky.documentChanges as TextDocumentEdit[]).flatMap((c) =>
      c.edits.filter((e) => 'annotationId' in e && e.annotationId === 'kit.links'),
    );
    assert.equal(linkEdits.length, 0);
    assert.equal(messages.length, 1);
    assert.match(messages[0], /^kit: 7 links to "\/blog\/\{slug\}" left as they are by the rename to "\/\{slug\}": /);
    assert.match(messages[0], /"\/hello-kit" would also match page catchall \("\/\{page\}"\)/);
    await assert.rejects(
      client.request('textDocument/rename', {
        textDocument: { uri: uri('blog/post.kit') },
        position: pos,
        newName: '/a//b',
      }),
      (e: { code?: number; message?: string }) => e.code === -32803 && /is not a valid route/.test(e.message ?? ''),
    );
  });

  it('shows derived routes, param types, cache policies and inherited guards as inlay hints, each kind a setting', async () => {
    const hints = async (p: string) =>
      (
        await client.request<InlayHint[]>('textDocument/inlayHint', {
          textDocument: { uri: uri(p) },
          range: { start: { line: 0, character: 0 }, end: { line: 200, character: 0 } },
        })
      ).map((h) => `${h.position.line + 1}:${h.position.character} ${h.label as string}`);
    assert.deepEqual(await hints('blog/post.kit'), [
      '8:13 → public, max-age=600, stale-while-revalidate=300',
      '17:18 → POST /blog/{slug} (2 built paths only)',
      '17:18 guard public',
      '18:24 guard public',
      '19:57 guard public',
    ]);
    assert.deepEqual(await hints('users/user.kit'), [
      '11:13 → POST /users/{id:int}',
      '11:13 guard auth.required',
      '12:39 guard auth.required',
      '17:24 : int',
    ]);
    client.settings = { ssr: true, inlayHints: { derivedRoutes: false, inheritedGuards: false } };
    const refreshed = refreshes.length;
    await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await waitFor(() => refreshes.length > refreshed, { what: 'the server to ask for the hints again' });
    assert.equal(refreshes.length, refreshed + 1, 'the server asks the client to refresh its hints');
    assert.deepEqual(await hints('users/user.kit'), ['17:24 : int']);
    client.settings = { ssr: true };
    await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
  });

  it('follows a renamed layout, component, page and folder with the references that name them', async () => {
    const willRename = async (files: [string, string][]) => {
      const edit = await client.request<WorkspaceEdit | null>('workspace/willRenameFiles', {
        files: files.map(([a, b]) => ({ oldUri: uri(a), newUri: uri(b) })),
      });
      return Object.entries(edit?.changes ?? {})
        .flatMap(([u, es]) =>
          es.map((e) => `${rel(u)}:${e.range.start.line + 1} ${covered({ uri: u, range: e.range })} → ${e.newText}`),
        )
        .sort();
    };
    assert.deepEqual(await willRename([['main.layout.kit', 'shell.layout.kit']]), [
      'about.kit:6 main → shell',
      'blog/post.kit:6 site.main → site.shell',
      'catchall.kit:6 main → shell',
      'home.kit:6 main → shell',
    ]);
    assert.deepEqual(await willRename([['card.cmp.kit', 'panel.cmp.kit']]), [
      'card.cmp.kit:3 Card → Panel',
      'home.kit:15 Card → Panel',
      'home.kit:19 Card → Panel',
    ]);
    assert.deepEqual(await willRename([['docs/docs.kit', 'docs/manual.kit']]), [
      'docs/handlers.ts:2 LoadDocs → LoadManual',
    ]);
    assert.deepEqual(await willRename([['ui', 'widgets']]), ['home.kit:8 ui → widgets']);
    assert.deepEqual(await willRename([['about.kit', 'about-us.kit']]), []);
  });

  it('follows edits: a line moved above a route, a route changed in another file', async () => {
    const links = async () =>
      (
        await client.request<DocumentLink[]>('textDocument/documentLink', {
          textDocument: { uri: uri('main.layout.kit') },
        })
      ).map((l) => `${rel(l.target!)} ${l.tooltip}`);
    assert.deepEqual((await links())[2], 'about.kit#L4,1 GET /about — page about');
    // A comment line above the route: the answer is the same page, its place one line down.
    const about = text('about.kit');
    await client.open(uri('about.kit'), about, 1);
    await client.change(uri('about.kit'), 2, [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '// About us\n' },
    ]);
    assert.deepEqual((await links())[2], 'about.kit#L5,1 GET /about — page about');
    // The route changes: `/about/` now reaches the catch-all.
    await client.change(uri('about.kit'), 3, [
      { range: { start: { line: 4, character: 7 }, end: { line: 4, character: 13 } }, text: '/about-us' },
    ]);
    assert.deepEqual((await links())[2], 'catchall.kit#L4,1 GET /{page} — page catchall (page=about)');
    await client.close(uri('about.kit'));
  });
});
