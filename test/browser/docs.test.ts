/** The /docs page in a real browser: rendered by Redoc from the service itself, every route listed, readable on a phone. */
import { describe, expect, it } from 'vitest';
import { browserAndService, hasBrowser } from '../helpers/browser.js';

const env = browserAndService();

describe.skipIf(!hasBrowser)('the documentation page', () => {
  it.each(['/docs', '/docs/', '/v1/docs'])(
    'renders every operation at %s with no outside request and no console error',
    async (path) => {
      const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
      const outside: string[] = [];
      const errors: string[] = [];
      const local = new URL(env.service.url).host;
      await page.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.host !== local && url.protocol !== 'blob:' && url.protocol !== 'data:') {
          outside.push(url.href);
          return route.abort();
        }
        return route.continue();
      });
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${env.service.url}${path}`);
      await page.waitForSelector('.api-info h1', { timeout: 60_000 });
      const document = (await (await fetch(`${env.service.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
      const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods)).length;
      const listed = await page.locator('[data-section-id^="tag/"][data-section-id*="/operation/"]').count();
      expect(listed).toBe(operations);
      expect(await page.locator('[data-section-id^="tag/"]:not([data-section-id*="/operation/"])').count()).toBeGreaterThanOrEqual(10);
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    },
    120_000,
  );

  it("shows when a conditional field is required: a service poll's is_anonymous and max_votes_per_answer", async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${env.service.url}/docs`);
    await page.waitForSelector('.api-info h1', { timeout: 60_000 });
    const create = page.locator('[data-section-id$="/operation/polls.create-poll"]');
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered is what a reader sees (hidden nodes left out)
    const text = (await create.innerText()).replace(/\s+/g, ' ');
    expect(text).toMatch(/is_anonymous .*When poll_type is 2: required \(not null\)\./);
    expect(text).toMatch(/max_votes_per_answer .*When poll_type is 2: required \(not null\), an integer from 1 to [0-9]+\./);
    await page.close();
  }, 120_000);

  it('is readable at 400 px wide: nothing overflows sideways', async () => {
    const page = await env.browser.newPage({ viewport: { width: 400, height: 800 } });
    await page.goto(`${env.service.url}/docs`);
    await page.waitForSelector('.api-info h1', { timeout: 60_000 });
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${process.env.TMPDIR ?? '/tmp'}/docs-400.png` });
    await page.close();
  }, 120_000);
});
