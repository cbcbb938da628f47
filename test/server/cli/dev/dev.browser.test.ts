// `kit dev` in real Chromium: a page updates itself when its source is saved (keeping the scroll
// position), a stylesheet change applies without a navigation, the error overlay comes and goes,
// the client follows SPA navigations, and a form left open across a restart still posts.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../../helpers/chromium.js';
import { copyFixture, startDev, type DevProcess } from './dev-harness.js';

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${file} contains ${from}`);
  writeFileSync(file, text.replace(from, to));
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

describe('kit dev in Chromium', function () {
  this.timeout(90000);
  let browser: Browser;
  let page: Page;
  let dev: DevProcess;
  let dir: string;
  let port: number;

  before(async () => {
    dir = copyFixture('dev', 'site');
    port = await freePort();
    dev = await startDev(dir, ['--ssr', '--port', String(port)]);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 800, height: 600 } })).newPage();
    // Each event stream the client opens notes its path once its first event (the overlay state)
    // arrived: kit dev registers a tab before it sends that, so from then on the tab hears changes.
    await page.addInitScript(() => {
      const w = window as unknown as { __kitDevStreams: string[] };
      w.__kitDevStreams = [];
      const Native = window.EventSource;
      window.EventSource = class extends Native {
        constructor(url: string | URL, init?: EventSourceInit) {
          super(url, init);
          const path = new URL(String(url), location.href).searchParams.get('path') ?? '';
          const first = () => {
            this.removeEventListener('clear', first);
            this.removeEventListener('overlay', first);
            w.__kitDevStreams.push(path);
          };
          this.addEventListener('clear', first);
          this.addEventListener('overlay', first);
        }
      };
    });
  });
  after(async () => {
    await browser?.close();
    await dev?.stop();
  });

  /** The page's event stream for `path` is open (the server has sent its first event). */
  async function connected(path?: string): Promise<void> {
    await page.waitForFunction(() => (window as unknown as { __kitDev?: boolean }).__kitDev === true);
    await page.waitForFunction(
      (p) => (window as unknown as { __kitDevStreams: string[] }).__kitDevStreams.includes(p),
      path ?? new URL(page.url()).pathname,
    );
  }

  it('saving a page shows the new content without a manual reload, at the same scroll position', async () => {
    await page.goto(dev.url + '/');
    await connected();
    await page.evaluate(() => window.scrollTo(0, 1200));
    edit(join(dir, 'home.kit'), 'Home page', 'Home page, saved');
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Home page, saved');
    await page.waitForFunction(() => Math.abs(window.scrollY - 1200) < 2, undefined, { timeout: 5000 });
  });

  it('a stylesheet change applies without a navigation', async () => {
    await page.goto(dev.url + '/');
    await connected();
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 42;
    });
    const color = () => page.evaluate(() => getComputedStyle(document.querySelector('.top')!).color);
    assert.equal(await color(), 'rgb(10, 20, 30)');
    edit(join(dir, 'main.layout.kit'), 'rgb(10, 20, 30)', 'rgb(0, 128, 0)');
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.top')!).color === 'rgb(0, 128, 0)');
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 42, 'same document');
    assert.equal(await page.locator('link[rel="stylesheet"]').count(), 2, 'the old sheet was removed');
  });

  it('an error shows the overlay with its code and location; fixing it removes the overlay', async () => {
    await page.goto(dev.url + '/about');
    await connected();
    edit(join(dir, 'about.kit'), '<h1>About page</h1>', '<h1>About {nothing(</h1>');
    const overlay = page.locator('#kit-dev-overlay');
    await overlay.waitFor({ state: 'visible' });
    const text = await overlay.innerText();
    assert.match(text, /about\.kit:\d+:\d+: error \w+/);
    const href = await overlay.locator('a').first().getAttribute('href');
    assert.match(href ?? '', /^vscode:\/\/file\/.+\/about\.kit:\d+:\d+$/);
    edit(join(dir, 'about.kit'), '<h1>About {nothing(</h1>', '<h1>About again</h1>');
    await overlay.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'About again');
  });

  it('after an SPA navigation the client listens for the new page', async () => {
    await page.goto(dev.url + '/');
    await connected();
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 7;
    });
    await page.click('a[href="/about"]');
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'About again');
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 7, 'an SPA navigation');
    await connected('/about');
    edit(join(dir, 'about.kit'), 'About again', 'About, live');
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'About, live');
  });

  it('a form left open across a restart of kit dev still posts', async () => {
    await page.goto(dev.url + '/contact');
    await page.fill('input[name="name"]', 'Ada');
    assert.equal(await dev.stop(), 0);
    dev = await startDev(dir, ['--ssr', '--port', String(port)]);
    await page.click('button');
    await page.waitForFunction(() => document.body.textContent?.includes('Thanks Ada'));
  });
});
