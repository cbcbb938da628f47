// The set-up the Chromium form suites share: the built fixture app and one browser for the suite, a
// fresh page per test opened on one of the app's pages, with `window.marker` set (a navigation
// would lose it) and `window.events` recording the kit events the suite watches.
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { startApp, type RunningApp } from '../../server/core/app/built-app.js';

export interface FormPageOptions {
  /** The app path each test starts on. */
  path: string;
  /** The `kit:*` events recorded into `window.events`. */
  events: string[];
  /** Record `{ name, swap, status, target }` from each event's detail; else the event's name only. */
  detail?: boolean;
}

/** Registers the suite's hooks; `use` gets each test's page before the test runs. */
export function useFormPage(opts: FormPageOptions, use: (page: Page) => void): void {
  let app: RunningApp;
  let browser: Browser;
  let page: Page | undefined;
  before(async () => {
    app = await startApp('node');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });
  beforeEach(async () => {
    page = await browser.newPage();
    await page.goto(app.url + opts.path);
    await page.evaluate(
      ({ events, detail }) => {
        const w = window as unknown as { marker: string; events: unknown[] };
        w.marker = 'still here';
        w.events = [];
        for (const name of events)
          document.addEventListener(name, (e) => {
            if (!detail) return void w.events.push(name);
            const d = (e as CustomEvent).detail as { swap?: string; status?: number; target?: Element };
            w.events.push(JSON.parse(JSON.stringify({ name, swap: d.swap, status: d.status, target: d.target?.id })));
          });
      },
      { events: opts.events, detail: opts.detail === true },
    );
    use(page);
  });
  afterEach(async () => {
    await page?.close();
  });
}
