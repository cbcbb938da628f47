// A request gets the same answer from `kit dev` as from the built app: every row of the generated
// app's HTTP behaviour (test/server/core/app/http-rows.ts) is sent to `kit dev --ssr --no-trace` and
// to the app `kit build --ssr --app` made of the same fixture, and the two answers are compared byte
// for byte: status, headers and body. The dev additions (the client tag, the overlay) are the only
// difference allowed, and only in whole documents: they are removed from a dev answer that is a
// whole document before comparing, never from a fragment, a form swapped in (`g:post`, its 422), JSON
// or an error text. CSRF tokens differ between the two servers (each has its own session) and are
// replaced by one placeholder in both.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { attach, CLI, FIXTURE, tempDir, type RunningApp } from '../../core/app/built-app.js';
import { csrfSession, ROWS, runRow, sendRow, type Row, type Session } from '../../core/app/http-rows.js';
import { copyFixture, startDev, type DevProcess } from './dev-harness.js';

const CLIENT_TAG = '<script type="module" src="/_kit/dev/client.js"></script>';
const TOKEN = /[A-Za-z0-9_-]{86}/g;
/** Headers that say when and how the connection went, not what the answer is. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function answer(base: string, session: Session, row: Row, dev: boolean): Promise<Answer> {
  const res = await sendRow(base, session, row);
  let body = (await res.text()).replace(TOKEN, '<token>');
  // The health answer names the instance: another process, another name (kit dev's is `kit-dev`).
  if (row.path === '/_kit/health') body = body.replace(/"(app|instance_id)":"[^"]*"/g, '"$1":"<instance>"');
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!TRANSPORT.has(k)) headers[k] = v.replace(TOKEN, '<token>');
  });
  if (/^<!doctype html>/i.test(body) || row.path === '/_kit/health') {
    // A whole document: the dev additions go, and so does the length that counted them.
    if (dev) body = body.split(CLIENT_TAG).join('');
    delete headers['content-length'];
  }
  return { status: res.status, headers, body };
}

describe('kit dev answers as the built app does', function () {
  this.timeout(120000);
  let dev: DevProcess;
  let app: RunningApp;
  let devSession: Session;
  let appSession: Session;
  before(async () => {
    const out = tempDir('kit-same-answers-');
    const build = spawnSync(
      process.execPath,
      [CLI, 'build', '--ssr', '--out', join(out, 'site'), '--app', join(out, 'app'), FIXTURE],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    assert.equal(build.status, 0, build.stderr);
    [dev, app] = await Promise.all([
      startDev(copyFixture('app', 'site'), ['--ssr', '--no-trace']),
      attach(
        spawn(process.execPath, [join(out, 'app', 'server.js'), '--addr', '127.0.0.1:0'], {
          env: { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: 'same-answers-secret-0123456789abcdef' },
        }),
      ),
    ]);
    devSession = await csrfSession(dev.url);
    appSession = await csrfSession(app.url);
  });
  after(async () => {
    await Promise.all([dev?.stop(), app?.stop()]);
  });

  for (const row of ROWS)
    it(row.name, async () => {
      const [got, want] = [await answer(dev.url, devSession, row, true), await answer(app.url, appSession, row, false)];
      assert.deepEqual(got, want, `${row.method ?? 'GET'} ${row.path}: kit dev answers as the built app`);
      // And the row's own expectations hold (the built app's tests check them against the app).
      await runRow(dev.url, devSession, row, (text) =>
        /^<!doctype html>/i.test(text) ? text.split(CLIENT_TAG).join('') : text,
      );
    });
});
