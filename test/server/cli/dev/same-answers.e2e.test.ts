// A request gets the same answer from `kit dev` as from the built app: every row of the generated
// app's HTTP behaviour (test/server/core/app/http-rows.ts) runs against `kit dev --ssr --no-trace`
// on the same fixture. The dev additions are the only difference allowed: the client tag in the
// head of HTML answers, which is removed before comparing.
import { csrfSession, ROWS, runRow, type Session } from '../../core/app/http-rows.js';
import { copyFixture, startDev, type DevProcess } from './dev-harness.js';

const CLIENT_TAG = '<script type="module" src="/_kit/dev/client.js"></script>';

describe('kit dev answers as the built app does', function () {
  this.timeout(60000);
  let dev: DevProcess;
  let session: Session;
  before(async () => {
    dev = await startDev(copyFixture('app', 'site'), ['--ssr', '--no-trace']);
    session = await csrfSession(dev.url);
  });
  after(async () => {
    await dev?.stop();
  });

  for (const row of ROWS) it(row.name, () => runRow(dev.url, session, row, (text) => text.split(CLIENT_TAG).join('')));
});
