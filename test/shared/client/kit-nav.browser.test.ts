// The SPA link runtime in real headless Chromium, against the built example site (plus two pages
// of test/fixtures/build/browser) served by a plain static server. Chromium is required: a machine
// without /usr/bin/chromium fails this suite.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { runCli } from '#cli/run.js';
import { repoRoot } from '../../helpers/repo.js';
import { waitFor as until } from '../../helpers/wait.js';
import { buildFixture, EXAMPLE_SITE, removeDir, tempDir } from '../../server/core/build/helpers.js';
import { serveStatic, type StaticServer } from './static-server.js';

type KitWindow = Window & { __marker?: number; __events?: string[]; kit?: { navigate(href: string): Promise<void> } };

describe('kit.js in a browser', function () {
  this.timeout(60000);
  let tmp: string;
  let server: StaticServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const pathname = () => page.evaluate(() => location.pathname);
  const marker = () => page.evaluate(() => (window as KitWindow).__marker);
  const setMarker = () => page.evaluate(() => ((window as KitWindow).__marker = 42));
  const waitFor = (path: string, title: string) =>
    page.waitForFunction(
      ([p, t]) =>
        location.pathname === p &&
        document.title === t &&
        !document.documentElement.hasAttribute('data-kit-navigating'),
      [path, title],
    );
  const requestsTo = (path: string) => server.requests.filter((r) => r.path === path);

  before(async () => {
    tmp = tempDir('browser');
    const out = join(tmp, 'dist');
    let stderr = '';
    const code = await runCli(['build', '--ssr', '--out', out, EXAMPLE_SITE, buildFixture('browser')], {
      stdout: { write: () => true },
      stderr: { write: (s: string) => (stderr += s) },
      env: {},
      cwd: repoRoot,
    });
    assert.equal(code, 0, stderr);
    server = await serveStatic(out);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (tmp) removeDir(tmp);
  });

  it('a page without internal links loads no script; a page with them loads kit.js', async () => {
    await page.goto(server.url + '/plain');
    assert.equal(await page.evaluate(() => document.scripts.length), 0);
    assert.equal(await page.evaluate(() => typeof (window as KitWindow).kit), 'undefined');
    assert.equal(requestsTo('/assets/kit/kit.js').length, 0);
    await page.goto(server.url + '/long');
    await page.waitForFunction(() => typeof (window as KitWindow).kit?.navigate === 'function');
    assert.equal(requestsTo('/assets/kit/kit.js').length, 1);
  });

  it('follows a link without a full reload, scrolls to the top and announces the title', async () => {
    await setMarker();
    await page.evaluate(() => {
      const w = window as KitWindow;
      w.__events = [];
      document.addEventListener('kit:before-navigate', (e) =>
        w.__events!.push('before ' + (e as CustomEvent).detail.url),
      );
      document.addEventListener('kit:after-navigate', (e) =>
        w.__events!.push('after ' + (e as CustomEvent).detail.url + ' ' + (e as CustomEvent).detail.source),
      );
    });
    await page.locator('#bottom-link').scrollIntoViewIfNeeded();
    assert.ok((await page.evaluate(() => window.scrollY)) > 2000);
    const before = requestsTo('/blog').length;
    await page.click('#bottom-link');
    await waitFor('/blog', 'Blog');
    assert.equal(await marker(), 42, 'the window survived: no full reload');
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    const fetched = requestsTo('/blog').slice(before);
    assert.ok(fetched.length >= 1);
    assert.equal(fetched[fetched.length - 1].headers['x-kit-navigate'], '1');
    assert.match(String(fetched[fetched.length - 1].headers.accept), /text\/html/);
    assert.deepEqual(await page.evaluate(() => (window as KitWindow).__events), [
      `before ${server.url}/blog`,
      `after ${server.url}/blog link`,
    ]);
    await page.waitForFunction(() => document.querySelector('[data-kit-announcer]')?.textContent === 'Blog');
    assert.equal(await page.locator('h1').textContent(), 'Blog');
    assert.equal(requestsTo('/assets/kit/kit.js').length, 1, 'the runtime is not loaded again');
  });

  it('clicks through to a post, then back and forward, restoring the scroll position', async () => {
    await page.click('main a[href="/blog/hello-kit"]');
    await waitFor('/blog/hello-kit', 'Blog post');
    assert.equal(await page.locator('article h1').textContent(), 'hello-kit');
    await page.evaluate(() => history.back());
    await waitFor('/blog', 'Blog');
    await page.evaluate(() => history.back());
    await waitFor('/long', 'Long');
    assert.ok((await page.evaluate(() => window.scrollY)) > 2000, 'back restores the position the page was left at');
    await page.evaluate(() => history.forward());
    await waitFor('/blog', 'Blog');
    assert.equal(await marker(), 42);
  });

  it('moves focus and scroll to the hash target of a link', async () => {
    await page.evaluate(() => history.back());
    await waitFor('/long', 'Long');
    await page.click('#to-post-hash');
    await waitFor('/blog/hello-kit', 'Blog post');
    assert.equal(await page.evaluate(() => location.hash), '#post');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'post');
    assert.equal(await marker(), 42);
  });

  it('does not intercept a modifier click', async () => {
    const popup = context.waitForEvent('page', { timeout: 5000 }).catch(() => undefined);
    await page.evaluate(() => ((window as KitWindow).__events = []));
    await page.click('nav a[href="/blog"]', { modifiers: ['Shift'] });
    // The popup is the browser's default action, taken once the click's handlers ran: a click kit
    // took would have fired kit:before-navigate in its handler and prevented the popup.
    const opened = await popup;
    assert.equal(await pathname(), '/blog/hello-kit');
    assert.deepEqual(
      await page.evaluate(() => (window as KitWindow).__events),
      [],
      'no kit:before-navigate for a modifier click',
    );
    assert.equal(await marker(), 42);
    await opened?.close();
  });

  it('falls back to a full navigation for a page that does not exist', async () => {
    await page.evaluate(() => (window as KitWindow).kit!.navigate('/long'));
    await waitFor('/long', 'Long');
    assert.equal(await marker(), 42);
    await page.click('#to-missing');
    await page.waitForFunction(() => location.pathname === '/missing-page' && document.title === 'Not found');
    assert.equal(await marker(), undefined, 'a full navigation replaced the window');
  });

  it('prefetches on hover and uses the prefetched page once', async () => {
    await page.goto(server.url + '/long');
    await setMarker();
    const before = requestsTo('/plain').length;
    await page.hover('#to-plain');
    await until(() => requestsTo('/plain').length > before, { what: 'the prefetch of /plain' });
    const prefetched = requestsTo('/plain').slice(before);
    assert.equal(prefetched.length, 1);
    assert.equal(prefetched[0].headers['x-kit-prefetch'], '1');
    await page.click('#to-plain');
    await waitFor('/plain', 'Plain');
    assert.equal(requestsTo('/plain').length - before, 1, 'the click used the prefetched answer');
    assert.equal(await marker(), 42);
  });

  it('runs the scripts of a new head once, however often the page is visited', async () => {
    await page.goto(server.url + '/long');
    await setMarker();
    await page.click('#to-scripted');
    await waitFor('/scripted', 'Scripted');
    await page.waitForFunction(() => (window as KitWindow & { __scriptRuns?: number }).__scriptRuns === 1);
    await page.click('#back-to-long');
    await waitFor('/long', 'Long');
    await page.click('#to-scripted');
    await waitFor('/scripted', 'Scripted');
    // Importing the page's module waits for any evaluation of it under way (a script element the
    // swap inserted again) and never evaluates a module twice itself.
    await page.evaluate(async () => {
      const src = document.querySelector<HTMLScriptElement>('script[type="module"][src*="count"]')!.src;
      await import(src);
    });
    assert.equal(await page.evaluate(() => (window as KitWindow & { __scriptRuns?: number }).__scriptRuns), 1);
    assert.equal(await marker(), 42);
  });

  it('cancelling kit:before-navigate leaves the click to the browser', async () => {
    await page.goto(server.url + '/long');
    await setMarker();
    await page.evaluate(() => document.addEventListener('kit:before-navigate', (e) => e.preventDefault()));
    await page.click('#to-blog');
    await page.waitForFunction(() => location.pathname === '/blog' && document.readyState === 'complete');
    assert.equal(await marker(), undefined);
  });
});
