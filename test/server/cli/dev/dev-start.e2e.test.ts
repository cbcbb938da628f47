// `kit dev`'s lazy start: the first page is answered before the cross-file checks and handler
// binding ran; their findings arrive afterwards by themselves, as after a save. Through the CLI,
// HTTP and the event stream, on temporary copies of test/fixtures/dev/site.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, eventually, EventTap, startDev, type DevProcess } from './dev-harness.js';

const OVERLAY = 'id="kit-dev-overlay"';

async function get(url: string): Promise<{ status: number; body: string }> {
  const r = await fetch(url, { headers: { accept: 'text/html' } });
  return { status: r.status, body: await r.text() };
}

/** Runs `body` against `kit dev --ssr` started on a copy of the dev fixture changed by `prepare`. */
async function withDev(
  prepare: (dir: string) => void,
  body: (dev: DevProcess, dir: string) => Promise<void>,
): Promise<void> {
  const dir = copyFixture('dev', 'site');
  prepare(dir);
  const dev = await startDev(dir, ['--ssr']);
  try {
    await body(dev, dir);
  } finally {
    await dev.stop();
  }
}

describe('kit dev: the first page before the checks', function () {
  this.timeout(60000);

  /**
   * The home page is served by the app built before the checks (never the whole-page overlay of a
   * site that never built); the checks' error then reaches the open tab by itself, at `where`, and
   * later HTML answers of `path`; the terminal prints it once, with the `checked` line.
   */
  async function servedThenOverlay(dev: DevProcess, code: string, where: RegExp, path: string): Promise<void> {
    const tab = new EventTap(dev.url, '/');
    try {
      await tab.ready;
      const first = await get(dev.url + '/');
      assert.equal(first.status, 200);
      assert.match(first.body, /Home page/);
      await eventually(() => assert.ok(tab.events.some((e) => e.name === 'overlay')));
      const overlay = JSON.parse(tab.events.find((e) => e.name === 'overlay')!.data) as string;
      assert.match(overlay, new RegExp(`${where.source}</a>: error ${code}`));
      const next = await get(dev.url + path);
      assert.equal(next.status, 200);
      assert.match(next.body, new RegExp(`${OVERLAY}[\\s\\S]*${code}`));
      await eventually(() => assert.match(dev.out(), /checked in \d+ ms: 1 error, 0 warnings\n/));
      assert.equal(dev.err().split(`error ${code}`).length, 2, 'printed once, as for a save');
    } finally {
      tab.close();
    }
  }

  it('a duplicate route (a cross-file error): the page is served, then the overlay comes without a save', () =>
    withDev(
      (dir) =>
        writeFileSync(
          join(dir, 'dup.kit'),
          'package site\n\npage about2\nroute "/about"\nguard public\nlayout main\ntitle "Again"\n\n' +
            'view {\n  <h1>Second about</h1>\n}\n',
        ),
      async (dev) => {
        await servedThenOverlay(dev, 'duplicate_route', /dup\.kit:4:1/, '/about');
        // The banner came first, with the counts.
        assert.match(dev.out(), /^kit dev {2}ready in \d+ ms\n\s+http:\/\/127\.0\.0\.1:\d+\/ {2}5 pages, 1 endpoint\n/);
      },
    ));

  it("an error of a file's own (a name nothing gives): the page is served, then the overlay comes", () =>
    withDev(
      (dir) => {
        const about = join(dir, 'about.kit');
        writeFileSync(about, readFileSync(about, 'utf8').replace('<h1>About page</h1>', '<h1>{nope}</h1>'));
      },
      // The files' own rules run after the first page, like the cross-file ones.
      (dev) => servedThenOverlay(dev, 'unknown_name', /about\.kit:10:8/, '/'),
    ));

  it('a site without errors starts, prints its counts and its checks, and never shows an overlay', () =>
    withDev(
      () => {},
      async (dev) => {
        const tab = new EventTap(dev.url, '/about');
        try {
          await tab.ready;
          assert.match(dev.out(), /http:\/\/127\.0\.0\.1:\d+\/ {2}4 pages, 1 endpoint\n/);
          const first = await get(dev.url + '/about');
          assert.equal(first.status, 200);
          assert.ok(!first.body.includes(OVERLAY));
          await eventually(() => assert.match(dev.out(), /checked in \d+ ms: no errors, 0 warnings\n/));
          const after = await get(dev.url + '/about');
          assert.ok(!after.body.includes(OVERLAY));
          assert.deepEqual(
            tab.events.filter((e) => e.name !== 'clear'),
            [],
            'no overlay and no reload once the checks are done',
          );
          assert.equal(dev.err(), '');
        } finally {
          tab.close();
        }
      },
    ));

  it('an SSR page whose load is in a handler module, and an action, answer right after the start', () =>
    withDev(
      () => {},
      async (dev) => {
        // Both need the bound handlers: they wait for the checks instead of reaching an app without them.
        const [page, action] = await Promise.all([
          get(dev.url + '/contact'),
          fetch(dev.url + '/contact', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', origin: dev.url },
            body: 'name=Ada',
          }),
        ]);
        assert.equal(page.status, 200);
        assert.match(page.body, /<h1>Hello v1<\/h1>/);
        // Without a CSRF token the action is refused by the runtime, as the built app refuses it.
        assert.equal(action.status, 403);
      },
    ));

  it('a save right after the start, under constant requests, is served (the checks do not wait for quiet)', () =>
    withDev(
      () => {},
      async (dev, dir) => {
        const home = join(dir, 'home.kit');
        writeFileSync(home, readFileSync(home, 'utf8').replace('Home page', 'Home page, saved at once'));
        await eventually(async () => assert.match((await get(dev.url + '/')).body, /Home page, saved at once/));
      },
    ));

  it('what binding finds (a load missing a field) comes with the checks, as a warning in the summary', () =>
    withDev(
      (dir) => {
        const handlers = join(dir, 'handlers.ts');
        writeFileSync(
          handlers,
          readFileSync(handlers, 'utf8').replace("return { greeting: 'Hello v1' };", 'return {};'),
        );
      },
      async (dev) => {
        assert.equal((await get(dev.url + '/')).status, 200);
        await eventually(() => assert.match(dev.out(), /checked in \d+ ms: no errors, 1 warning\n/));
      },
    ));

  // The app built before the checks has no app config yet: what it would say of guards the config
  // registers is not said (the scaffold's first `kit dev` printed such a warning); a guard the
  // config does not register is warned about once, after the checks, by the app that has it.
  for (const registered of [true, false])
    it(`a guarded page and an app config ${registered ? 'registering' : 'not registering'} its guard: ${
      registered ? 'no warning' : 'one warning, after the checks'
    }`, () =>
      withDev(
        (dir) => {
          writeFileSync(
            join(dir, 'account.kit'),
            'package site\n\npage account\nroute "/account"\nguard signed.in\nlayout main\nrender ssr\n' +
              'title "Account"\n\nview {\n  <h1>Account</h1>\n}\n',
          );
          writeFileSync(
            join(dir, 'kit.config.ts'),
            "import { allow, type KitConfig } from '@kit-lang/kit/app';\n\n" +
              `export const guards: KitConfig['guards'] = { '${registered ? 'signed.in' : 'staff'}': () => allow() };\n`,
          );
        },
        async (dev) => {
          assert.equal((await get(dev.url + '/')).status, 200);
          await eventually(() => assert.match(dev.out(), /checked in \d+ ms: no errors/));
          assert.equal((await get(dev.url + '/account')).status, registered ? 200 : 403);
          const warned = (dev.out() + dev.err()).split('guard "signed.in" is not registered').length - 1;
          assert.equal(warned, registered ? 0 : 1);
        },
      ));

  it('a handler module that does not compile at the start: a page needing it shows the overlay to a browser', () =>
    withDev(
      (dir) =>
        writeFileSync(
          join(dir, 'handlers.ts'),
          `${readFileSync(join(dir, 'handlers.ts'), 'utf8')}\nexport const x = ;\n`,
        ),
      async (dev) => {
        const page = await get(dev.url + '/contact');
        // The load cannot be bound: the runtime's 501, as the built app answers it, with the reason.
        assert.equal(page.status, 501);
        assert.match(
          page.body,
          new RegExp(`${OVERLAY}[\\s\\S]*a handler module does not compile[\\s\\S]*handlers\\.ts`),
        );
        // A script gets the app's own answer.
        const script = await fetch(dev.url + '/contact', { headers: { accept: '*/*' } });
        assert.equal(script.status, 501);
        assert.ok(!(await script.text()).includes(OVERLAY));
        // A page that renders carries the overlay too.
        assert.match((await get(dev.url + '/')).body, new RegExp(OVERLAY));
      },
    ));
});
