// The language server takes each folder's settings from its kit.config, as the command line does,
// with no editor setting: the starter, opened by a client that sends no settings and answers no
// `workspace/configuration` (as Neovim 0.7), publishes no diagnostics; the config is read again
// when it changes on disk or in the editor; a client's `kit.ssr` overrides it. It also keeps
// `.kit-types/` current as pages change, writing only the files whose text changed.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientCapabilities } from 'vscode-languageserver-protocol/node';
import { starterProject } from '../../helpers/starter.js';
import { waitFor } from '../../helpers/wait.js';
import { FULL_CAPABILITIES, fileUri, LspClient } from './helpers/lsp-client.js';

/** What Neovim 0.7's client offers: no `workspace/configuration`, no configuration notifications. */
const PLAIN_CAPABILITIES: ClientCapabilities = {
  workspace: { workspaceFolders: true },
  textDocument: { publishDiagnostics: { relatedInformation: true } },
};

/** Polls `read` until it answers something that `pred` accepts (a file written a moment after an edit). */
async function eventually<T>(read: () => T, pred: (v: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const found = await waitFor(
    () => {
      const v = read();
      return pred(v) ? { v } : undefined;
    },
    { what, timeout: timeoutMs },
  );
  return found.v;
}

describe('language server: settings from kit.config', function () {
  this.timeout(60_000);
  let work: string;
  let project: string;
  let client: LspClient | undefined;
  const file = (...parts: string[]) => join(project, ...parts);
  const uri = (...parts: string[]) => fileUri(file(...parts));

  beforeEach(async () => {
    ({ work, project } = await starterProject('kit-lsp-config-'));
  });
  afterEach(() => {
    client?.kill();
    client = undefined;
    rmSync(work, { recursive: true, force: true });
  });

  it('opens the starter with no settings and no initialization options and publishes no diagnostics', async () => {
    client = LspClient.start();
    const bound = client.waitForStatuses(1, 30_000, 'bound');
    await client.initialize([project], { capabilities: PLAIN_CAPABILITIES, waitForIndex: false });
    const account = uri('site', 'account.kit');
    await client.open(account, readFileSync(file('site', 'account.kit'), 'utf8'));
    await bound;
    await client.waitForDiagnostics(account);
    const published = [...client.diagnostics.values()].filter((d) => d.diagnostics.length > 0);
    assert.deepEqual(
      published.map((d) => [d.uri, d.diagnostics.map((x) => x.code)]),
      [],
      'the starter has no problems: its kit.config sets ssr',
    );
  });

  it('reads kit.config again when it changes on disk or in the editor; the kit.ssr setting overrides it', async () => {
    client = LspClient.start();
    client.settings = {};
    await client.initialize([project], { capabilities: FULL_CAPABILITIES });
    const account = uri('site', 'account.kit');
    await client.open(account, readFileSync(file('site', 'account.kit'), 'utf8'));
    await client.waitForDiagnostics(account, (d) => d.diagnostics.length === 0);
    const config = file('kit.config.ts');
    const text = readFileSync(config, 'utf8');
    const missing = (d: { diagnostics: { code?: unknown }[] }) =>
      d.diagnostics.some((x) => x.code === 'missing_ssr_addon');

    // Saved on disk (the client reports the change).
    writeFileSync(config, text.replace('export const ssr = true;', 'export const ssr = false;'));
    let next = client.waitForDiagnostics(account, missing, { fresh: true });
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: fileUri(config), type: 2 }],
    });
    await next;

    // Edited in the editor: the buffer wins over the disk.
    next = client.waitForDiagnostics(account, (d) => d.diagnostics.length === 0, { fresh: true });
    await client.open(fileUri(config), text, 1, 'typescript');
    await next;

    // A value kit cannot read without running the config: an error on its line, and ssr off.
    const line = text.split('\n').findIndex((l) => l === 'export const ssr = true;');
    const dynamic = text.replace('export const ssr = true;', "export const ssr = process.env.KIT_SSR === '1';");
    next = client.waitForDiagnostics(account, missing, { fresh: true });
    const onConfig = client.waitForDiagnostics(fileUri(config), (d) => d.diagnostics.length > 0, { fresh: true });
    await client.change(fileUri(config), 2, [{ text: dynamic }]);
    await next;
    const d = (await onConfig).diagnostics;
    assert.deepEqual(
      d.map((x) => [x.code, x.severity, x.range.start.line, x.range.start.character]),
      [['config_not_literal', 1, line, 19]],
    );
    assert.match(String(d[0].message), /^ssr in kit\.config\.ts is not a literal \(process\.env\.KIT_SSR === '1'\)/);
    next = client.waitForDiagnostics(account, (x) => x.diagnostics.length === 0, { fresh: true });
    await client.change(fileUri(config), 3, [{ text }]);
    await next;

    // The editor's setting overrides kit.config; null gives it back.
    client.settings = { ssr: false };
    next = client.waitForDiagnostics(account, missing, { fresh: true });
    await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await next;
    client.settings = { ssr: null };
    next = client.waitForDiagnostics(account, (x) => x.diagnostics.length === 0, { fresh: true });
    await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await next;
  });

  it('keeps .kit-types current as pages are opened and edited, and leaves unchanged files alone', async () => {
    const siteTypes = file('.kit-types', 'site', '$kit.d.ts');
    const blogTypes = file('.kit-types', 'site', 'blog', '$kit.d.ts');
    const mtime = (f: string) => statSync(f).mtimeMs;
    const blogBefore = mtime(blogTypes);
    client = LspClient.start();
    client.settings = {};
    await client.initialize([project], { capabilities: FULL_CAPABILITIES });
    const account = uri('site', 'account.kit');
    const accountText = readFileSync(file('site', 'account.kit'), 'utf8');
    await client.open(account, accountText);

    // A server {} field added in the editor: the directory's types follow the buffer.
    await client.change(account, 2, [{ text: accountText.replace('=> { name }', '=> { name, email }') }]);
    const edited = await eventually(
      () => readFileSync(siteTypes, 'utf8'),
      (t) => t.includes('email: unknown;'),
      'the account page types to gain email',
    );
    assert.match(edited, /export interface AccountData \{\n {2}name: unknown;\n {2}email: unknown;\n\}/);
    assert.equal(mtime(blogTypes), blogBefore, 'the blog types, unchanged, are not rewritten');

    // A page opened that is not on disk yet: its params typed as they decode.
    const notes = uri('site', 'notes.kit');
    await client.open(
      notes,
      'package site\n\npage notes\nroute "/notes/{id:int}"\nguard public\n\nview {\n  <main>notes</main>\n}\n',
    );
    await eventually(
      () => readFileSync(siteTypes, 'utf8'),
      (t) => /export interface NotesParams \{\n {2}id: number;\n\}/.test(t),
      'the new page types',
    );
    const siteWritten = mtime(siteTypes);

    // An edit inside a view changes no types: that file is not written again, while the blog's is.
    const postText = readFileSync(file('site', 'blog', 'post.kit'), 'utf8');
    const post = uri('site', 'blog', 'post.kit');
    await client.open(post, postText);
    await client.change(notes, 2, [
      {
        text: 'package site\n\npage notes\nroute "/notes/{id:int}"\nguard public\n\nview {\n  <main>all notes</main>\n}\n',
      },
    ]);
    const route = /route "([^"]+)"/.exec(postText)![1];
    await client.change(post, 2, [{ text: postText.replace(`route "${route}"`, `route "${route}/{page:int}"`) }]);
    await eventually(
      () => readFileSync(blogTypes, 'utf8'),
      (t) => t.includes('page: number;'),
      'the blog post types to gain page',
    );
    assert.equal(mtime(siteTypes), siteWritten, 'the site types, unchanged by a view edit, are not rewritten');

    // A directory of pages deleted on disk: its types go with it.
    await client.close(post);
    rmSync(file('site', 'blog'), { recursive: true });
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: uri('site', 'blog'), type: 3 }],
    });
    await eventually(
      () => existsSync(blogTypes),
      (present) => !present,
      'the blog types to be removed',
    );
    assert.equal(mtime(siteTypes), siteWritten);
  });
});
