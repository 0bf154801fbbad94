/**
 * The whole loop in a real browser: a person on the sandbox page, acting as
 * a member, clicks a poll's answer button; the click goes through the
 * sandbox's gateway, the reference bot and the service, and the page shows
 * the new count on the poll message.
 */
import { describe, expect, it } from 'vitest';
import { browserAndService, hasBrowser } from '#test/helpers/browser.js';
import { snowflake } from '#test/helpers/local.js';
import { createPoll, pollGuild } from '#test/integration/polls/helpers.js';

const env = browserAndService({ bot: true });

describe.skipIf(!hasBrowser)('the whole loop on the sandbox page', () => {
  it('a click on a poll button shows the counted vote on the message', async () => {
    const where = await pollGuild(env.service);
    const poll = await createPoll(env.service, where);
    const origin = env.service.sandboxUrl!.replace(/\/api\/v10$/, '');
    await fetch(`${origin}/_sandbox/channels/${where.channel}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ guild_id: where.guild, name: 'polls' }),
    });
    const page = await env.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: /# polls/ }).click();
    const message = page.locator(`#messages .msg[data-m="${poll.message_id}"]`);
    await expect.poll(() => message.count(), { timeout: 10_000 }).toBe(1);
    expect(await message.textContent()).toContain('0 votes');

    await page.fill('#actor', snowflake());
    await page.press('#actor', 'Tab');
    await message.getByRole('button', { name: 'Cafe' }).click();
    await expect.poll(async () => message.textContent(), { timeout: 15_000 }).toMatch(/Cafe\s*▓{10} 1 vote · 100%/);
    expect(errors).toEqual([]);
  });
});
