// The app `kit dev` answers with before its checks ran (`DevSession.start`, before `finishStart`):
// it routes from the declarations, compiles a page and parses its view when the page is asked for,
// and serves the asset files those pages link as it learns them, with the headers the full app
// gives them. In-process, over HTTP, on a temporary copy of test/fixtures/dev/site.
import { strict as assert } from 'node:assert';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DevSession } from '#cli/dev/session.js';
import { copyFixture } from './dev-harness.js';

interface Answer {
  status: number;
  type: string | null;
  cache: string | null;
  body: string;
}

async function listen(handle: RequestListener) {
  const server = createServer(handle);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function get(url: string): Promise<Answer> {
  const r = await fetch(url, { headers: { accept: 'text/html' } });
  return {
    status: r.status,
    type: r.headers.get('content-type'),
    cache: r.headers.get('cache-control'),
    body: await r.text(),
  };
}

const stylesheets = (html: string) => [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);

describe('kit dev: the app before the checks', function () {
  this.timeout(30000);

  it('serves a page and the stylesheets it links as the checked app does, parsing only that view', async () => {
    const dir = copyFixture('dev', 'site');
    const { session } = await DevSession.start({
      root: dir,
      cwd: dir,
      ssr: true,
      csrfSecret: '0'.repeat(64),
      log: () => {},
      appName: 'test',
    });
    // Each app is asked through a server of its own: the session replaces its app after the checks.
    const early = await listen((req, res) => session.app!.handle(req, res));
    try {
      assert.ok(session.checking, 'the checks have not run');
      const waiting = session.ws.pendingMarkupCount;
      assert.ok(waiting > 1, 'page views wait for their markup');
      const home = await get(early.url + '/');
      assert.equal(home.status, 200);
      assert.match(home.body, /Home page/);
      assert.equal(session.ws.pendingMarkupCount, waiting - 1, 'only the page asked for was parsed');
      const hrefs = stylesheets(home.body);
      assert.ok(hrefs.length >= 2, 'the layout and the page bring stylesheets');
      const before = await Promise.all(hrefs.map((h) => get(early.url + h)));
      const missing = await get(early.url + '/assets/css/nothing.0123456789.css');
      assert.equal(missing.status, 404);

      await session.finishStart();
      assert.ok(!session.checking);
      assert.equal(session.ws.pendingMarkupCount, 0);
      const checked = await listen((req, res) => session.app!.handle(req, res));
      try {
        const again = await get(checked.url + '/');
        assert.equal(again.body.replace(/value="[^"]*"/g, ''), home.body.replace(/value="[^"]*"/g, ''));
        const after = await Promise.all(hrefs.map((h) => get(checked.url + h)));
        assert.deepEqual(before, after, 'the same stylesheet answers, headers included');
        for (const a of before) {
          assert.equal(a.status, 200);
          assert.equal(a.type, 'text/css; charset=utf-8');
          assert.match(a.cache ?? '', /immutable/);
        }
        assert.deepEqual(await get(checked.url + '/assets/css/nothing.0123456789.css'), missing);
      } finally {
        checked.server.close();
      }
    } finally {
      early.server.close();
      await session.close();
    }
  });
});
