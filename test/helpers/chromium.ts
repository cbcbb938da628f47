// Headless Chromium for the browser tests: Debian's package, driven by playwright-core. A missing
// browser fails the test with the fix, never skips it.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  assert.ok(
    existsSync(CHROMIUM),
    `Chromium is required for the browser tests: ${CHROMIUM} is missing (Debian: apt-get install chromium)`,
  );
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
