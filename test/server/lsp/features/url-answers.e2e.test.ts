// The editor's answer is the server's answer: `kit/resolveUrl` of the language server and the
// generated app built from the same `lsp/urls` fixture (`kit build --ssr --app`), asked about the
// same requests. Each request's status must agree (a redirect's Location too), and a page must be
// the one whose view the app renders (each view marks itself with `data-page`). The app runs on
// 127.0.0.1 with a port of its own choosing and is stopped by the test.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture } from '#test/helpers/repo.js';
import { attach, rawGet, runKit, SECRET, type RunningApp } from '../../core/app/built-app.js';
import { LspClient } from '../helpers/lsp-client.js';
import { KIT_REQUESTS, type ResolveUrlAnswer, type ResolvedUrl } from '#shared/protocol/protocol.js';

const GETS = [
  '/',
  '/about',
  '/about/',
  '/about/?ref=nav',
  '/contact',
  '/blog',
  '/blog/hello-kit',
  '/blog/routing-rules',
  '/blog/drafts',
  '/blog/hello-kit/comments',
  '/docs',
  '/docs/a/b',
  '/users/42',
  '/users/ada',
  '/users/42/avatar',
  '/api/feed',
  '/api/stats',
  '/newsletter',
  '/x/y/z',
  '/a%2Fb',
  '/caf%C3%A9',
  '/_kit/health',
];
const POSTS = ['/blog/hello-kit', '/blog/drafts', '/newsletter', '/about', '/users/42', '/nope', '/api/feed'];

/** What the app should answer, as the editor predicts it: status, Location, and the page it renders. */
function predicted(a: ResolvedUrl): string {
  if (a.redirect !== undefined) return `308 ${a.redirect}`;
  if (a.outcome !== 'route') return `${a.status}`;
  // A form post without a CSRF token is refused before its handler runs: the action did answer it.
  if (a.method === 'POST' && (a.kind === 'action' || a.kind === 'command')) return '403 invalid_csrf_token';
  // Only a page that renders shows its view: a 400 (a param that does not decode) is an error page.
  return a.kind === 'page' && a.status === 200 ? `200 ${a.owner?.slice('page '.length)}` : `${a.status}`;
}

describe('the editor answers URLs as the generated app does', function () {
  this.timeout(60000);
  let dir: string;
  let app: RunningApp | undefined;
  let client: LspClient | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kit-url-answers-'));
    cpSync(fixture('lsp', 'urls'), join(dir, 'site'), { recursive: true });
    const built = runKit(['build', '--ssr', '--out', join(dir, 'dist'), '--app', join(dir, 'app'), join(dir, 'site')]);
    assert.equal(built.status, 0, built.stderr);
    app = await attach(
      spawn(process.execPath, [join(dir, 'app', 'server.js'), '--addr', '127.0.0.1:0'], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: SECRET },
      }),
    );
    client = LspClient.start();
    client.settings = { ssr: true };
    await client.initialize([join(dir, 'site')]);
  });
  after(async () => {
    if (client && client.child.exitCode === null) client.kill();
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [method, targets] of [
    ['GET', GETS],
    ['POST', POSTS],
  ] as const) {
    it(`${method}: the same status, redirect and page for every request`, async () => {
      const rows: string[] = [];
      const expected: string[] = [];
      for (const target of targets) {
        const r = await rawGet(app!.port, target, method, method === 'POST' ? { 'Content-Length': '0' } : {});
        const page = /data-page="([^"]+)"/.exec(r.body)?.[1];
        const got =
          r.status === 308
            ? `308 ${r.headers.location}`
            : r.status === 403
              ? `403 ${r.headers['x-kit-error-code']}`
              : page
                ? `${r.status} ${page}`
                : `${r.status}`;
        const { answers } = await client!.request<ResolveUrlAnswer>(KIT_REQUESTS.resolveUrl.method, {
          url: target,
          method,
        });
        assert.equal(answers.length, 1, target);
        rows.push(`${method} ${target} → ${got}`);
        expected.push(`${method} ${target} → ${predicted(answers[0])}`);
      }
      assert.deepEqual(rows, expected);
    });
  }
});
