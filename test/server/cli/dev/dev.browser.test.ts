// `kit dev` in real Chromium: a page updates itself when its source is saved (keeping the scroll
// position), a stylesheet change applies without a navigation, the error overlay comes and goes,
// the client follows SPA navigations, a form left open across a restart still posts, and the
// starter's contact form shows a failed submission's message in place with JavaScript on.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '#test/helpers/chromium.js';
import { CLI, copyFixture, startDev, type DevProcess } from './dev-harness.js';

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${file} contains ${from}`);
  writeFileSync(file, text.replace(from, to));
}

/** `rgb(r, g, b)` / `rgba(r, g, b, a)` as computed by the browser: the channels and alpha. */
function channels(css: string): [number, number, number, number] {
  const m = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec(css);
  assert.ok(m, `a computed colour: ${css}`);
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
}

/** The WCAG 2 contrast ratio of two opaque colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = channels(css).map((c) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
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
    // Readable whatever the page's own styles: an opaque backdrop, every text at least 4.5:1 on it.
    await page.addStyleTag({ content: 'a { color: #00e !important; } p, pre { color: #333; }' });
    const colours = await overlay.evaluate((el) => {
      const of = (e: Element) => getComputedStyle(e).color;
      return {
        background: getComputedStyle(el).backgroundColor,
        opacity: getComputedStyle(el).opacity,
        texts: Array.from(el.querySelectorAll('p, pre, a')).map((e) => ({ tag: e.tagName, colour: of(e) })),
      };
    });
    assert.equal(channels(colours.background)[3], 1, `an opaque backdrop (${colours.background})`);
    assert.equal(colours.opacity, '1');
    assert.ok(colours.texts.some((t) => t.tag === 'A'));
    for (const t of colours.texts) {
      const ratio = contrast(t.colour, colours.background);
      assert.ok(ratio >= 4.5, `${t.tag} ${t.colour} on ${colours.background}: ${ratio.toFixed(2)}:1`);
    }
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

describe('kit dev in Chromium: the starter', function () {
  this.timeout(90000);
  let browser: Browser;
  let dev: DevProcess;
  let work: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'kit-dev-starter-'));
    const init = spawnSync(process.execPath, [CLI, 'init', 'my-site'], { cwd: work, encoding: 'utf8' });
    assert.equal(init.status, 0, init.stderr);
    dev = await startDev(join(work, 'my-site', 'site'), ['--ssr']);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await dev?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('the contact form with JavaScript on shows the 422 message in place (kit:form-invalid)', async () => {
    const page = await browser.newPage();
    await page.goto(dev.url + '/contact');
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      for (const name of ['kit:form-invalid', 'kit:request-error', 'kit:after-swap'])
        document.addEventListener(name, () => seen.push(name));
    });
    await page.fill('input[name="name"]', 'Ada');
    await page.fill('input[name="email"]', 'ada@example.invalid');
    await page.click('button[type="submit"]');
    // The swap (or a request error) is the last thing the page does with the answer.
    await page.waitForFunction(() =>
      (window as unknown as { seen: string[] }).seen.some((n) => n === 'kit:after-swap' || n === 'kit:request-error'),
    );
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    assert.deepEqual(seen, ['kit:form-invalid', 'kit:after-swap'], 'the form was swapped, no request error');
    const message = page.locator('[data-kit-error="email"]');
    assert.equal(await message.innerText(), 'ada@example.invalid cannot receive mail.');
    assert.equal(await page.inputValue('input[name="name"]'), 'Ada', 'the values are kept');
    assert.equal(new URL(page.url()).pathname, '/contact', 'no navigation');
    await page.close();
  });
});
