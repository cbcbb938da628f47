// The VS Code extension: the release's .vsix (`npm run pack`, with @vscode/vsce 3): its file list,
// its manifest and activation events, its bundled server (it must run without node_modules, and its
// size stays under a limit); the `$kit` problem matcher against real `kit check` output, and the
// route table view.
import { strict as assert } from 'node:assert';
import { MessageChannel, Worker } from 'node:worker_threads';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { runCli } from '#cli/run.js';
import type { ReadAheadBatch } from '#core/project/read-ahead-worker.js';
import { stateOf } from '#core/project/source-bytes.js';
import { release } from '../helpers/release.js';
import { fixture, repoRoot } from '../helpers/repo.js';
import { zipEntries, zipRead } from '../helpers/zip.js';
import { fileUri, LspClient } from '../server/lsp/helpers/lsp-client.js';
import { INLAY_HINT_KINDS } from '#lsp/features/inlay-hints.js';

const client = join(repoRoot, 'client');
const manifest = JSON.parse(readFileSync(join(client, 'package.json'), 'utf8'));

describe('VS Code extension', function () {
  this.timeout(90000);
  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'kit-vsix-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('packages a .vsix of the bundles, grammar, manifest, readme, image, changelog, licence and icon only', async () => {
    // The release's .vsix, as `npm run pack` writes it (client/scripts/package.mjs).
    const vsix = readFileSync((await release()).vsix);
    const files = zipEntries(vsix);
    assert.deepEqual(
      files,
      [
        '[Content_Types].xml',
        'extension.vsixmanifest',
        'extension/package.json',
        // vsce lower-cases the readme's and changelog's names and gives the licence an extension.
        'extension/readme.md',
        'extension/changelog.md',
        'extension/LICENSE.txt',
        'extension/icon.png',
        'extension/images/hover-diagnostics.png',
        'extension/dist/extension.js',
        'extension/dist/server.js',
        'extension/dist/read-ahead-worker.js',
        'extension/dist/bind-worker.js',
        'extension/dist/parse-worker.js',
        'extension/dist/syntaxes/kit.tmLanguage.json',
        'extension/dist/syntaxes/language-configuration.json',
      ].sort(),
    );
    // Every path the manifest names is in the package.
    for (const p of [
      manifest.main,
      manifest.icon,
      manifest.contributes.languages[0].configuration,
      manifest.contributes.grammars[0].path,
    ]) {
      assert.ok(files.includes(`extension/${p.replace(/^\.\//, '')}`), p);
    }
    // The packaged manifest activates the extension on a workspace with .kit files, as the source's.
    const packed = JSON.parse(zipRead(vsix, 'extension/package.json').toString('utf8'));
    assert.deepEqual(packed.activationEvents, ['workspaceContains:**/*.kit']);
    assert.deepEqual(packed.activationEvents, manifest.activationEvents);
    assert.equal(packed.main, manifest.main);
    // Installed as `kit.kit-vscode`, the id the starter's .vscode/extensions.json recommends.
    assert.match(
      zipRead(vsix, 'extension.vsixmanifest').toString('utf8'),
      new RegExp(`<Identity Language="en-US" Id="${manifest.name}" Version="${manifest.version}" Publisher="kit" />`),
    );
    assert.equal(`${manifest.publisher}.${manifest.name}`, 'kit.kit-vscode');
  });

  it('carries the marketplace metadata: icon, repository, licence, homepage, issues, changelog', () => {
    assert.equal(manifest.icon, 'icon.png');
    assert.deepEqual(manifest.repository, { type: 'git', url: 'https://github.com/kit-lang/kit', directory: 'client' });
    assert.equal(manifest.license, 'MIT');
    assert.match(
      readFileSync(join(client, 'LICENSE'), 'utf8'),
      /^MIT License\n\nCopyright \(c\) \d{4} the kit authors\n/,
    );
    assert.match(manifest.homepage, /^https:\/\//);
    assert.match(manifest.bugs.url, /^https:\/\/.*\/issues$/);
    assert.ok(readFileSync(join(client, 'CHANGELOG.md'), 'utf8').includes(`## ${manifest.version}\n`));
  });

  it('ships the 128×128 icon that client/scripts/icon.mjs draws', async () => {
    const { drawIcon } = (await import(pathToFileURL(join(client, 'scripts', 'icon.mjs')).href)) as {
      drawIcon(): Buffer;
    };
    const png = readFileSync(join(client, 'icon.png'));
    assert.equal(png.toString('latin1', 1, 4), 'PNG');
    // IHDR: 128 × 128, 8-bit RGBA; the script writes one IDAT of unfiltered rows.
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]], [128, 128, 8, 6]);
    const idat = png.indexOf('IDAT');
    const raw = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
    const rows = Array.from({ length: 128 }, (_, y) => raw.subarray(y * 513 + 1, (y + 1) * 513));
    assert.ok(Buffer.concat(rows).equals(drawIcon()), 'client/icon.png differs from what icon.mjs draws: re-run it');
  });

  it("the .vsix's server runs on its own (no node_modules, no kit install), binding included", async () => {
    // The release's .vsix, its bundles unpacked outside the repository, where no node_modules can be found.
    const vsix = readFileSync((await release()).vsix);
    const dist = join(work, 'dist');
    mkdirSync(dist, { recursive: true });
    for (const name of zipEntries(vsix).filter((n) => /^extension\/dist\/[^/]+\.js$/.test(n)))
      writeFileSync(join(dist, name.slice('extension/dist/'.length)), zipRead(vsix, name));
    const script = join(dist, 'server.js');
    const c = LspClient.start({ script, cwd: work });
    try {
      const init = await c.initialize([fixture('lsp', 'site')]);
      assert.equal(init.serverInfo?.name, 'kit');
      assert.equal(init.serverInfo?.version, JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version);
      const contact = fileUri(fixture('lsp', 'site', 'contact.kit'));
      await c.open(contact, readFileSync(fixture('lsp', 'site', 'contact.kit'), 'utf8'));
      const h = await c.request<{ contents: { value: string } }>('textDocument/hover', {
        textDocument: { uri: contact },
        position: { line: 7, character: 5 },
      });
      assert.match(h.contents.value, /bound in `\.\/handlers\.js`/);
      assert.equal(await c.shutdown(), 0);
    } finally {
      if (c.child.exitCode === null) c.kill();
    }
    // The binding worker's own bundle (dist/bind-worker.js) binds the folder while it is indexed.
    const w = LspClient.start({ script, cwd: work, env: { KIT_BIND_WORKER: '1' } });
    try {
      await w.initialize([fixture('lsp', 'site')], { sendInitialized: false });
      const bound = w.waitForStatuses(1, 30000, 'bound');
      await w.conn.sendNotification('initialized', {});
      await bound;
      assert.ok((await w.request<{ prebound: number }>('kit/stats', {})).prebound > 0, 'the worker bound');
      assert.equal(await w.shutdown(), 0);
    } finally {
      if (w.child.exitCode === null) w.kill();
    }
    // The loading threads' own bundle (dist/parse-worker.js) parses the folder's .kit files, and the
    // server publishes what it publishes on one thread.
    const published = async (env: Record<string, string>) => {
      const s = LspClient.start({ script, cwd: work, env });
      try {
        await s.initialize([fixture('lsp', 'site')], { sendInitialized: false });
        const ready = s.waitForStatuses(1, 30000, 'bound');
        await s.conn.sendNotification('initialized', {});
        await ready;
        const stats = await s.request<{ pooled: number; files: number }>('kit/stats', {});
        const diagnostics = [...s.diagnostics]
          .map(([uri, d]) => [uri, d.diagnostics])
          .sort(([a], [b]) => (a < b ? -1 : 1));
        assert.equal(await s.shutdown(), 0);
        return { stats, diagnostics };
      } finally {
        if (s.child.exitCode === null) s.kill();
      }
    };
    const one = await published({ KIT_WORKERS: '1' });
    const two = await published({ KIT_WORKERS: '2', KIT_WORKERS_MIN_FILES: '1', KIT_TEST_PARSE_POOL: 'threads' });
    assert.equal(one.stats.pooled, 0);
    assert.equal(two.stats.pooled, two.stats.files, 'every .kit file came from the loading thread');
    assert.deepEqual(two.diagnostics, one.diagnostics);
  });

  it('keeps the minified server bundle, as packaged, within 4.4 MB', async function () {
    const size = zipRead(readFileSync((await release()).vsix), 'extension/dist/server.js').length;
    this.test!.title += ` (measured: ${(size / 1e6).toFixed(2)} MB, ${size} bytes)`;
    // The limit leaves room for growth; past it, see what esbuild's metafile says before raising it.
    assert.ok(size <= 4_400_000, `dist/server.js is ${size} bytes`);
  });

  it('bundles the read-ahead thread beside the server, and it reads files', async () => {
    const file = fixture('lsp', 'site', 'contact.kit');
    const { port1, port2 } = new MessageChannel();
    const position = new SharedArrayBuffer(4);
    const w = new Worker(join(work, 'dist', 'read-ahead-worker.js'), {
      workerData: { paths: [file, join(work, 'missing.kit')], position, port: port2, batch: 8, window: 64 },
      transferList: [port2],
    });
    const batch = await new Promise<ReadAheadBatch>((resolve, reject) => {
      port1.once('message', resolve);
      w.once('error', reject);
    });
    port1.close();
    await w.terminate();
    const text = readFileSync(file, 'utf8');
    assert.deepEqual(batch, { from: 0, lengths: [text.length, -1], text, states: [stateOf(statSync(file)), null] });
  });

  it('declares the language, grammar, settings, commands and the $kit problem matcher, and registers the commands', () => {
    const contributes = manifest.contributes;
    assert.deepEqual(contributes.languages[0].extensions, ['.kit']);
    assert.equal(contributes.grammars[0].scopeName, 'source.kit');
    const props = contributes.configuration.properties;
    // An override of kit.config's ssr: null (the default) leaves it to kit.config.
    assert.deepEqual(props['kit.ssr'].type, ['boolean', 'null']);
    assert.equal(props['kit.ssr'].default, null);
    assert.deepEqual(props['kit.trace.server'].enum, ['off', 'messages', 'verbose']);
    // One switch per kind of inlay hint, each on by default; the server reads them as `kit.inlayHints.<kind>`.
    const hints = Object.keys(props).filter((k) => k.startsWith('kit.inlayHints.'));
    assert.deepEqual(
      hints,
      INLAY_HINT_KINDS.map((k) => `kit.inlayHints.${k}`),
    );
    for (const k of hints) assert.deepEqual([props[k].type, props[k].default], ['boolean', true], k);
    assert.deepEqual(
      contributes.commands.map(
        (c: { command: string; title: string; category: string }) => `${c.category}: ${c.title}`,
      ),
      ['kit: Show Route Table', 'kit: Go to URL…', 'kit: Restart Server'],
    );
    const bundle = readFileSync(join(work, 'dist', 'extension.js'), 'utf8');
    for (const c of contributes.commands)
      assert.ok(bundle.includes(JSON.stringify(c.command).slice(1, -1)), `${c.command} is not registered`);
    assert.ok(manifest.engines.vscode.startsWith('^1.'));
  });

  it('$kit parses the lines of kit check', async () => {
    let out = '';
    const io = {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: () => true },
      env: {},
      cwd: fixture('lsp'),
    };
    assert.equal(await runCli(['check', 'conflicts'], io), 1);
    const m = manifest.contributes.problemMatchers[0];
    assert.equal(m.name, 'kit');
    const re = new RegExp(m.pattern.regexp);
    const hits = out
      .split('\n')
      .map((l) => re.exec(l))
      .filter((x): x is RegExpExecArray => x !== null);
    assert.equal(hits.length, 1, out);
    const h = hits[0];
    assert.deepEqual(
      [h[m.pattern.file], h[m.pattern.line], h[m.pattern.column], h[m.pattern.severity], h[m.pattern.code]],
      ['conflicts/b.kit', '4', '1', 'error', 'duplicate_route'],
    );
    assert.match(h[m.pattern.message], /^b: duplicate page route/);
  });

  it('type-checks the extension sources against the VS Code API', () => {
    const r = spawnSync(
      process.execPath,
      [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(client, 'tsconfig.json')],
      { cwd: repoRoot, encoding: 'utf8', timeout: 80000 },
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });

  it('renders the route table escaped and sorted by path', async () => {
    const outfile = join(work, 'route-table.mjs');
    await build({
      entryPoints: [join(client, 'src', 'route-table.ts')],
      outfile,
      format: 'esm',
      platform: 'node',
      logLevel: 'silent',
    });
    // Bundled on the fly: the client compiles as CommonJS for VS Code, apart from this ES module build.
    const mod = (await import(pathToFileURL(outfile).href)) as {
      renderRouteTable(folders: unknown[], nonce: string): string;
    };
    const html = mod.renderRouteTable(
      [
        {
          root: 'file:///w',
          name: 'w<1>',
          routes: [
            { kind: 'api', method: 'GET', route: '/z', pageId: 'z', source: 'z.kit', guards: ['role:<admin>'] },
            {
              kind: 'spa',
              method: 'GET',
              route: '/a/{id}',
              pageId: 'a',
              source: 'a.kit',
              render: 'spa',
              cache: 'public, max-age=60',
            },
          ],
        },
      ],
      'n0nce',
    );
    assert.ok(html.includes('<h2>w&lt;1&gt;</h2>'));
    assert.ok(html.includes('role:&lt;admin&gt;'));
    assert.ok(!html.includes('<admin>'));
    assert.ok(html.indexOf('/a/{id}') < html.indexOf('/z'));
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'nonce-n0nce';"/);
  });

  it("the Go to URL command's picks come from kit/resolveUrl as the bundled server answers it", async () => {
    const outfile = join(work, 'go-to-url.mjs');
    await build({
      entryPoints: [join(client, 'src', 'go-to-url.ts')],
      outfile,
      format: 'esm',
      platform: 'node',
      logLevel: 'silent',
    });
    const mod = (await import(pathToFileURL(outfile).href)) as {
      urlPickItems(r: unknown): { label: string; description: string; detail?: string }[];
      noAnswerMessage(r: unknown): string;
    };
    // The server the .vsix carries (unpacked by the test above), on the URL fixture.
    const c = LspClient.start({ script: join(work, 'dist', 'server.js'), cwd: work });
    try {
      c.settings = { ssr: true };
      await c.initialize([fixture('lsp', 'urls')]);
      const picks = mod.urlPickItems(await c.request('kit/resolveUrl', { url: '/blog/hello-kit/' }));
      assert.deepEqual(
        picks.map((p) => [p.label, p.description, p.detail]),
        [
          ['GET /blog/{slug}', 'page blog.post · slug=hello-kit', 'after 308 to /blog/hello-kit; in urls'],
          ['POST /blog/{slug}', 'action blog.post.Subscribe · slug=hello-kit', 'in urls'],
        ],
      );
      assert.equal(
        mod.noAnswerMessage(await c.request('kit/resolveUrl', { url: '/blog/drafts' })),
        'kit: GET /blog/drafts answers 404: page blog.post is built ahead of time at its paths {} only',
      );
      assert.equal(await c.shutdown(), 0);
    } finally {
      if (c.child.exitCode === null) c.kill();
    }
  });
});
