/**
 * A real browser for tests: Debian's `chromium` driven by `playwright-core`
 * (a browser tool cannot download its own browser on these machines). Where
 * /usr/bin/chromium is missing, browser tests skip with a notice saying how
 * to install it; `.ci/run` installs it.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type TestService, startTestService } from './local.js';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const hasBrowser = existsSync(CHROMIUM);

if (!hasBrowser) {
  console.warn(`Browser tests skipped: no browser at ${CHROMIUM}. Install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`);
}

/** Launches headless chromium (a fresh temporary profile each time) with its background traffic off. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * Starts local mode (with the reference bot when `bot`) and the browser for
 * a test file's tests, and stops them after (nothing where there is no
 * browser): the handles are filled in before the first test runs.
 */
export function browserAndService(options: { bot?: boolean } = {}): { service: TestService; browser: Browser } {
  const handles = {} as { service: TestService; browser: Browser };
  beforeAll(async () => {
    if (!hasBrowser) return;
    handles.service = await startTestService(options);
    handles.browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await handles.browser?.close();
    await handles.service?.stop();
  });
  return handles;
}
