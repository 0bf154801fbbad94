/** The verification web page in a real browser: a member verifies with one press, no script and nothing from elsewhere; a used link says so. */
import { describe, expect, it } from 'vitest';
import { browserAndService, hasBrowser } from '../helpers/browser.js';
import { snowflake } from '../helpers/local.js';
import { sandboxOf } from '../helpers/sandbox.js';

const env = browserAndService();

describe.skipIf(!hasBrowser)('the verification page', () => {
  it('verifies on a phone-sized screen with JavaScript off, then refuses the used link', async () => {
    const guild = snowflake();
    const member = snowflake();
    const channel = await sandboxOf(env.service).channelIn(guild);
    const role = await sandboxOf(env.service).roleIn(guild);
    await env.service.call('POST', '/modules/verifier/enable', { body: { guild_id: guild } });
    await env.service.call('PUT', '/modules/verifier/settings', {
      body: { guild_id: guild, verifier_type: 3, verifier_channel: channel, verifier_verified_role_ids: [role] },
    });
    await env.service.call('POST', '/modules/verifier/event/create-verification', {
      body: { guild_id: guild, requester: member },
      headers: { 'x-acting-user-id': member },
    });
    const messages = (await (await fetch(`${env.service.sandboxUrl}/channels/${channel}/messages`, { headers: { authorization: 'Bot x' } })).json()) as {
      components: { components: { url: string }[] }[];
    }[];
    const [prompt] = messages;
    const link = prompt!.components[0]!.components[0]!.url;

    const context = await env.browser.newContext({ viewport: { width: 375, height: 667 }, javaScriptEnabled: false });
    const page = await context.newPage();
    const outside: string[] = [];
    const local = new URL(env.service.url).host;
    page.on('request', (request) => {
      if (new URL(request.url()).host !== local) outside.push(request.url());
    });
    await page.goto(link);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    const button = page.getByRole('button', { name: 'Verify' });
    expect(await button.isVisible()).toBe(true);
    await button.click();
    await page.waitForSelector('text=You are verified.');
    expect(await page.locator('h1').textContent()).toBe('Verified');
    expect(await sandboxOf(env.service).roles(guild, member)).toEqual([role]);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBeLessThanOrEqual(0);

    const again = await page.goto(link);
    expect(again!.status()).toBe(403);
    expect(await page.locator('h1').textContent()).toBe('This link does not work');
    expect(outside).toEqual([]);
    await context.close();
  }, 120_000);
});
