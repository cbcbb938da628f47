// Headless Chromium for the browser tests: Debian's package, driven by playwright-core. A missing
// browser fails the test with the fix, never skips it.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Launches the browser; playwright-core is loaded here, so that a module importing this costs nothing until then. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  assert.ok(
    existsSync(CHROMIUM),
    `Chromium is required for the browser tests: ${CHROMIUM} is missing (Debian: apt-get install chromium)`,
  );
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
