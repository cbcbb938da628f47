// kit-forms.js and the 422 round trip in real headless Chromium against the built fixture app:
// a failed partial submission swaps the re-rendered form in place (values kept, errors shown,
// focus on the first invalid field), and an upload runs in the background without blocking the page.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { useFormPage } from './form-page.js';

describe('forms that round-trip in Chromium', function () {
  this.timeout(240000);
  let page: Page;
  useFormPage({ path: '/signup', events: ['kit:form-invalid', 'kit:after-swap', 'kit:request-error'] }, (p) => {
    page = p;
  });

  it('a 422 swaps the re-rendered form in place: values kept, errors shown, focus on the invalid field', async () => {
    await page.fill('input[name="name"]', 'Ann');
    await page.fill('input[name="email"]', 'ann@taken.example');
    await page.fill('textarea[name="bio"]', '<b>bold</b>');
    await page.click('#signup-form button[type="submit"]');
    await page.waitForSelector('#signup-form [data-kit-error="email"]');
    const state = await page.evaluate(() => ({
      marker: (window as unknown as { marker: string }).marker,
      events: (window as unknown as { events: string[] }).events,
      error: document.querySelector('[data-kit-error="email"]')!.textContent,
      name: (document.querySelector('input[name="name"]') as HTMLInputElement).value,
      bio: (document.querySelector('textarea[name="bio"]') as HTMLTextAreaElement).value,
      focused: (document.activeElement as HTMLInputElement | null)?.name,
      forms: document.querySelectorAll('#signup-form').length,
      csrf: document.querySelectorAll('#signup-form input[name="_kit_csrf"]').length,
    }));
    assert.deepEqual(state, {
      marker: 'still here',
      events: ['kit:form-invalid', 'kit:after-swap'],
      error: 'ann@taken.example is already registered',
      name: 'Ann',
      bio: '<b>bold</b>',
      focused: 'email',
      forms: 1,
      csrf: 1,
    });
    // The swapped form posts again: a valid submission shows the page's success region.
    await page.fill('input[name="email"]', 'ann@example.com');
    await page.click('#signup-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#outcome')?.textContent === 'Welcome, Ann!');
  });

  it('an upload runs in the background: the page keeps answering while it is in flight', async () => {
    await page.fill('#upload-form input[name="title"]', 'Pic');
    await page.setInputFiles('#upload-form input[name="avatar"]', {
      name: 'pic.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(12 * 1024, 7),
    });
    // Slow the upload down so it is still running while the page is used.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 400,
      downloadThroughput: -1,
      uploadThroughput: 8 * 1024,
    });
    await page.click('#upload-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#uploaded')?.getAttribute('aria-busy') === 'true');
    const t0 = Date.now();
    const ticks = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let n = 0;
          const tick = () => (++n === 10 ? resolve(n) : setTimeout(tick, 10));
          tick();
        }),
    );
    const busyWhileTicking = await page.evaluate(() => document.querySelector('#uploaded')?.getAttribute('aria-busy'));
    assert.equal(ticks, 10);
    assert.equal(busyWhileTicking, 'true', 'the upload was still in flight while the page ran its timers');
    assert.ok(Date.now() - t0 < 2000, 'timers ran on time during the upload');
    await page.waitForFunction(() => (document.querySelector('#uploaded')?.textContent ?? '').includes('pic.bin'), {
      timeout: 30000,
    });
    const text = (await page.textContent('#uploaded')) ?? '';
    assert.match(text, /"size":12288/);
    assert.equal(await page.evaluate(() => (window as unknown as { marker: string }).marker), 'still here');
  });
});
