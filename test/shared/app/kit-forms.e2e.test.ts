// kit-forms.js in real headless Chromium against the built fixture app: a `data-kit-target` form
// posts in the background (with the injected CSRF field) and the answer is swapped into its target.
import { strict as assert } from 'node:assert';
import type { Page, Request } from 'playwright-core';
import { useFormPage } from './form-page.js';

describe('kit-forms.js partial forms in Chromium', function () {
  this.timeout(240000);
  let page: Page;
  useFormPage(
    { path: '/contact', events: ['kit:before-request', 'kit:after-swap', 'kit:request-error'], detail: true },
    (p) => {
      page = p;
    },
  );

  it('submits in the background and swaps the answer into the target', async () => {
    await page.fill('input[name="name"]', 'Ann');
    await page.fill('input[name="email"]', 'ann@example.com');
    await page.click('form[data-kit-target] button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#result')?.textContent?.includes('Thanks'));
    assert.equal(await page.textContent('#result'), 'Thanks Ann (ann@example.com) age=none news=undefined tags=');
    const state = await page.evaluate(() => ({
      marker: (window as unknown as { marker: string }).marker,
      events: (window as unknown as { events: unknown[] }).events,
      busy: document.querySelector('#result')!.getAttribute('aria-busy'),
      path: location.pathname,
    }));
    assert.equal(state.marker, 'still here', 'no navigation happened');
    assert.equal(state.busy, null);
    assert.equal(state.path, '/contact');
    assert.deepEqual(state.events, [
      { name: 'kit:before-request', target: 'result' },
      { name: 'kit:after-swap', swap: 'innerHTML', target: 'result' },
    ]);
  });

  it('a non-2xx answer fires kit:request-error and swaps nothing', async () => {
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.name = 'admin';
      input.value = 'yes';
      document.querySelector('form[data-kit-target]')!.appendChild(input);
    });
    await page.fill('input[name="name"]', 'Ann');
    await page.fill('input[name="email"]', 'a@x');
    await page.click('form[data-kit-target] button[type="submit"]');
    await page.waitForFunction(() =>
      (window as unknown as { events: { name: string }[] }).events.some((e) => e.name === 'kit:request-error'),
    );
    const events = await page.evaluate(() => (window as unknown as { events: unknown[] }).events);
    assert.deepEqual(events, [
      { name: 'kit:before-request', target: 'result' },
      { name: 'kit:request-error', status: 400, target: 'result' },
    ]);
    assert.equal(await page.textContent('#result'), '');
  });

  it('cancelling kit:before-request stops the request', async () => {
    await page.evaluate(() => document.addEventListener('kit:before-request', (e) => e.preventDefault()));
    const requests: string[] = [];
    const seen = (r: Request) => requests.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
    page.on('request', seen);
    await page.click('form[data-kit-target] button[type="submit"]');
    // A request the page makes after the click is seen after any the click made.
    await page.evaluate(() => fetch('/contact?after-click').then((r) => r.text()));
    page.off('request', seen);
    assert.deepEqual(requests, ['GET /contact?after-click'], 'the click sent nothing');
    const state = await page.evaluate(() => ({
      events: (window as unknown as { events: { name: string }[] }).events.map((e) => e.name),
      path: location.pathname,
      marker: (window as unknown as { marker: string }).marker,
    }));
    assert.deepEqual(state.events, ['kit:before-request']);
    assert.equal(state.marker, 'still here');
  });
});
